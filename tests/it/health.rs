//! `kubectl upjet health argocd|flux`: the printed Lua run the way Argo CD runs it
//! (`support::argo_lua`) over Argo CD's own test data for `*.upbound.io`, a table of the cases it
//! adds, and every MR of `examples/fleet` checked against doctor's findings; the printed CEL run
//! the way Flux runs it (`support::flux_cel`) over the same cases.

use crate::support::argo_lua::{self, Health};
use crate::support::upjet::NOW;
use crate::support::{Cluster, flux_cel, upjet};
use serde_json::{Value, json};
use std::path::Path;

/// The Lua script exactly as a user installs it: out of `health argocd -o yaml`'s ConfigMap.
fn printed_lua() -> String {
    let run = upjet().args(["health", "argocd", "-o", "json"]).run();
    let cm = run.json();
    assert_eq!((cm["kind"].as_str(), cm["metadata"]["name"].as_str()), (Some("ConfigMap"), Some("argocd-cm")));
    let customizations: Value =
        serde_saphyr::from_str(cm["data"]["resource.customizations"].as_str().unwrap()).unwrap();
    customizations["*.upbound.io/*"]["health.lua"].as_str().expect("the script under the wildcard key").to_string()
}

/// [`NOW`], the clock every run of the binary is pinned to, as `os.time()` gives it.
fn now() -> i64 {
    chrono::DateTime::parse_from_rfc3339(NOW).unwrap().timestamp()
}

fn lua(script: &str, obj: &Value) -> Health {
    argo_lua::run(script, obj, now()).unwrap_or_else(|e| panic!("the script failed: {e}\n{obj:#}"))
}

fn yaml_file(path: &Path) -> Value {
    serde_saphyr::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

const ARGO: &str = "tests/data/argocd/upbound";

/// Every case Argo CD's `health_test.yaml` lists gets exactly Argo CD's verdict and message.
#[test]
fn argo_cds_own_cases_get_argo_cds_verdict() {
    let script = printed_lua();
    let dir = crate::support::upjet::root().join(ARGO);
    let tests = yaml_file(&dir.join("health_test.yaml"));
    let cases = tests["tests"].as_array().unwrap();
    assert_eq!(cases.len(), 3);
    for case in cases {
        let obj = yaml_file(&dir.join(case["inputPath"].as_str().unwrap()));
        let want = Health {
            status: case["healthStatus"]["status"].as_str().unwrap().into(),
            message: case["healthStatus"]["message"].as_str().unwrap().into(),
        };
        assert_eq!(lua(&script, &obj), want, "{}", case["inputPath"]);
    }
}

/// The fixtures newer than the stored `health_test.yaml` (tests/data/argocd/SOURCES.md): the
/// status their name gives, every file of testdata/ covered.
#[test]
fn argo_cds_newer_fixtures_get_the_status_their_name_gives() {
    let script = printed_lua();
    let dir = crate::support::upjet::root().join(ARGO).join("testdata");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_str().unwrap().to_string();
        let want = match name.rsplit('_').next().unwrap() {
            "healthy" => "Healthy",
            "progressing" => "Progressing",
            "degraded" => "Degraded",
            _ => "Progressing", // terminating.yaml: Argo CD's deletion verdict
        };
        assert_eq!(lua(&script, &yaml_file(&path)).status, want, "{name}");
        seen += 1;
    }
    assert_eq!(seen, 9);
}

/// An upjet MR, with the conditions given as (type, status, reason, message, lastTransitionTime).
fn mr(
    annotations: Value,
    policies: Option<&[&str]>,
    conditions: &[(&str, &str, &str, &str, &str)],
    id: Option<&str>,
) -> Value {
    let conditions: Vec<Value> = conditions
        .iter()
        .map(|(t, s, r, m, ltt)| json!({"type": t, "status": s, "reason": r, "message": m, "lastTransitionTime": ltt}))
        .collect();
    let mut obj = json!({
        "apiVersion": "ec2.aws.upbound.io/v1beta1", "kind": "VPC",
        "metadata": {"name": "net", "annotations": annotations},
        "spec": {"forProvider": {"region": "eu-west-1"}},
        "status": {"conditions": conditions, "atProvider": {}},
    });
    if let Some(p) = policies {
        obj["spec"]["managementPolicies"] = json!(p);
    }
    if let Some(id) = id {
        obj["status"]["atProvider"]["id"] = json!(id);
    }
    obj
}

/// The MR with a deletion requested and crossplane-runtime's finalizer still on.
fn deleting(mut obj: Value) -> Value {
    obj["metadata"]["deletionTimestamp"] = json!(T0);
    obj["metadata"]["finalizers"] = json!(["finalizer.managedresource.crossplane.io"]);
    obj
}

const P: &str = "crossplane.io/external-create-pending";
const S: &str = "crossplane.io/external-create-succeeded";
const EN: &str = "crossplane.io/external-name";
const T0: &str = "2024-11-30T11:50:00Z";
const OLD: &str = "2024-11-30T10:30:00Z";
const GATE: &str = "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed";
const READY: (&str, &str, &str, &str, &str) = ("Ready", "True", "Available", "", T0);
const SYNCED: (&str, &str, &str, &str, &str) = ("Synced", "True", "ReconcileSuccess", "", T0);

/// One added case: the object, Argo CD's built-in verdict on it (for docs/gitops-health.md), the
/// Lua's verdict and a word its message must hold, and the CEL's verdict (`Err` when Flux's
/// evaluation errs).
struct Case {
    name: &'static str,
    obj: Value,
    built_in: &'static str,
    lua: (&'static str, &'static str),
    cel: Result<&'static str, ()>,
}

fn cases() -> Vec<Case> {
    let creating =
        |ltt: &'static str| [("Ready", "False", "Creating", "", ltt), ("Synced", "True", "ReconcileSuccess", "", ltt)];
    vec![
        Case {
            name: "create incomplete, the provider not back yet",
            obj: mr(json!({P: "2024-11-30T11:50:07Z", S: T0, EN: "vpc-1"}), None, &creating(T0), None),
            built_in: "Progressing",
            lua: ("Degraded", "create started at 2024-11-30T11:50:07Z and no result was recorded"),
            // CEL has no clock: it cannot tell this from a create still running, and waits.
            cel: Ok("InProgress"),
        },
        // The reconcile timeout's boundary both ways (NOW is 12:00:00; upjet's 3m, +30 s grace,
        // +1 s for the mark's whole second): a synchronous create still running is not stuck.
        Case {
            name: "create in flight: marked 3m30s ago, its reconcile may still record the result",
            obj: mr(json!({P: "2024-11-30T11:56:30Z", S: T0}), None, &creating(T0), None),
            built_in: "Progressing",
            lua: ("Progressing", "create started at 2024-11-30T11:56:30Z and may still be running"),
            cel: Ok("InProgress"),
        },
        Case {
            name: "create stuck: marked 3m31s ago, its reconcile's time is up",
            obj: mr(json!({P: "2024-11-30T11:56:29Z", S: T0}), None, &creating(T0), None),
            built_in: "Progressing",
            lua: ("Degraded", "create started at 2024-11-30T11:56:29Z and no result was recorded"),
            cel: Ok("InProgress"),
        },
        Case {
            name: "create in flight on a new MR, before any status: the fresh pending mark alone",
            obj: {
                let mut o = mr(json!({P: "2024-11-30T11:59:50Z"}), None, &[], None);
                o["status"] = json!({});
                o
            },
            built_in: "Progressing",
            lua: ("Progressing", "may still be running"),
            cel: Ok("InProgress"),
        },
        Case {
            name: "create just marked, but a later reconcile already stopped at the gate",
            obj: mr(
                json!({P: "2024-11-30T11:59:50Z"}),
                None,
                &[
                    ("Ready", "False", "Creating", "", "2024-11-30T11:59:55Z"),
                    ("Synced", "False", "ReconcileError", GATE, "2024-11-30T11:59:55Z"),
                ],
                None,
            ),
            built_in: "Degraded",
            lua: ("Degraded", "no result was recorded"),
            cel: Ok("Failed"),
        },
        Case {
            name: "create incomplete, stopped at the gate",
            obj: mr(
                json!({P: "2024-11-30T11:50:07Z", S: T0}),
                None,
                &[("Ready", "False", "Creating", "", T0), ("Synced", "False", "ReconcileError", GATE, T0)],
                None,
            ),
            built_in: "Degraded",
            lua: (
                "Degraded",
                "will not touch this MR until the crossplane.io/external-create-pending annotation is resolved",
            ),
            cel: Ok("Failed"),
        },
        Case {
            name: "pending and succeeded in the same second: complete",
            obj: mr(json!({P: T0, S: T0, EN: "vpc-1"}), None, &[READY, SYNCED], Some("vpc-1")),
            built_in: "Healthy",
            lua: ("Healthy", "Resource is up-to-date."),
            cel: Ok("Current"),
        },
        Case {
            name: "create marks with an offset: not compared by the Lua",
            obj: mr(json!({P: "2024-11-30T13:50:07+02:00", S: "2024-11-30T13:50:00+02:00"}), None, &creating(T0), None),
            built_in: "Progressing",
            lua: ("Progressing", "Provisioning ..."),
            cel: Ok("InProgress"),
        },
        Case {
            name: "a pending mark that is no time: never incomplete, as the runtime reads it",
            obj: mr(json!({P: "yesterday", EN: "vpc-1"}), None, &[READY, SYNCED], Some("vpc-1")),
            built_in: "Healthy",
            lua: ("Healthy", "Resource is up-to-date."),
            cel: Ok("Current"),
        },
        Case {
            name: "a succeeded mark that is no time: the zero time, before any pending",
            obj: mr(json!({P: T0, S: "soon", EN: "vpc-1"}), None, &creating(T0), None),
            built_in: "Progressing",
            lua: ("Progressing", "Provisioning ..."),
            cel: Ok("InProgress"),
        },
        Case {
            name: "async create past upjet's deadline, no external-name",
            obj: mr(json!({P: OLD, S: OLD}), None, &creating(OLD), None),
            built_in: "Progressing",
            lua: ("Degraded", "no external-name is saved, so a cloud object it may have created is tracked by nothing"),
            cel: Ok("InProgress"),
        },
        Case {
            name: "async create past upjet's deadline, external-name saved",
            obj: mr(json!({P: OLD, S: OLD, EN: "vpc-1"}), None, &creating(OLD), None),
            built_in: "Progressing",
            lua: ("Degraded", "the external-name is saved"),
            cel: Ok("InProgress"),
        },
        Case {
            name: "async create running for ten minutes",
            obj: mr(json!({P: T0, S: T0}), None, &creating(T0), None),
            built_in: "Progressing",
            lua: ("Progressing", "Provisioning ..."),
            cel: Ok("InProgress"),
        },
        Case {
            name: "external-name lost after a create, Ready",
            obj: mr(
                json!({P: T0, S: T0}),
                Some(&["Observe", "Create", "Update", "Delete"]),
                &[READY, SYNCED],
                Some("vpc-0abc"),
            ),
            built_in: "Healthy",
            lua: (
                "Degraded",
                "no external-name although status.atProvider.id is vpc-0abc: after a provider restart upjet will create a duplicate; managementPolicies lack LateInitialize",
            ),
            cel: Ok("Failed"),
        },
        Case {
            name: "external-name a provider's placeholder",
            obj: mr(json!({S: T0, EN: "sgr-stub"}), None, &[READY, SYNCED], Some("sgr-0123")),
            built_in: "Healthy",
            lua: (
                "Degraded",
                "no external-name (only the placeholder sgr-stub, which names no cloud object) although status.atProvider.id is sgr-0123",
            ),
            cel: Ok("Failed"),
        },
        Case {
            name: "no external-name, the ID is the MR's name (the initializer writes it back)",
            obj: mr(json!({S: T0}), None, &[READY, SYNCED], Some("net")),
            built_in: "Healthy",
            lua: ("Healthy", "Resource is up-to-date."),
            cel: Ok("Current"),
        },
        Case {
            name: "Observe-only, the object not found",
            obj: mr(
                json!({EN: "vpc-gone"}),
                Some(&["Observe"]),
                &[
                    ("Ready", "False", "Unavailable", "", T0),
                    ("Synced", "False", "ReconcileError", "observe failed: external resource does not exist", T0),
                ],
                None,
            ),
            built_in: "Degraded",
            lua: ("Degraded", "observe failed: external resource does not exist"),
            cel: Ok("Failed"),
        },
        Case {
            name: "import that found nothing says so nowhere",
            obj: mr(json!({EN: "vpc-gone"}), Some(&["Observe", "LateInitialize"]), &[SYNCED], None),
            built_in: "Progressing",
            lua: ("Degraded", "the MR imports and its Observe found no cloud object"),
            cel: Ok("Failed"),
        },
        Case {
            name: "exactly [Observe], reconciled, not Ready yet: not the silent import",
            obj: mr(json!({EN: "vpc-1"}), Some(&["Observe"]), &[SYNCED], None),
            built_in: "Progressing",
            lua: ("Progressing", "Provisioning ..."),
            cel: Ok("InProgress"),
        },
        Case {
            name: "import that found its object",
            obj: mr(json!({EN: "vpc-1"}), Some(&["Observe", "LateInitialize"]), &[READY, SYNCED], Some("vpc-1")),
            built_in: "Healthy",
            lua: ("Healthy", "Resource is up-to-date."),
            cel: Ok("Current"),
        },
        Case {
            name: "paused by the annotation",
            obj: mr(
                json!({"crossplane.io/paused": "true", EN: "vpc-1"}),
                None,
                &[("Synced", "False", "ReconcilePaused", "", T0)],
                None,
            ),
            built_in: "Degraded",
            lua: ("Suspended", "paused by the crossplane.io/paused annotation"),
            cel: Ok("Current"),
        },
        Case {
            name: "paused by an empty policy list",
            obj: mr(
                json!({EN: "vpc-1"}),
                Some(&[]),
                &[READY, ("Synced", "False", "ReconcilePaused", "", T0)],
                Some("vpc-1"),
            ),
            built_in: "Degraded",
            lua: ("Suspended", "paused by an empty spec.managementPolicies"),
            cel: Ok("Current"),
        },
        Case {
            name: "crossplane.io/paused other than \"true\" does not pause",
            obj: mr(json!({"crossplane.io/paused": "True", EN: "vpc-1"}), None, &[READY, SYNCED], Some("vpc-1")),
            built_in: "Healthy",
            lua: ("Healthy", "Resource is up-to-date."),
            cel: Ok("Current"),
        },
        Case {
            name: "deleting while paused: the finalizer stays until it is resumed",
            obj: deleting(mr(
                json!({"crossplane.io/paused": "true", EN: "vpc-1"}),
                None,
                &[READY, ("Synced", "False", "ReconcilePaused", "", T0)],
                Some("vpc-1"),
            )),
            built_in: "Progressing",
            lua: (
                "Suspended",
                "Pending deletion; blocked by finalizers: finalizer.managedresource.crossplane.io, which the provider removes only once resumed",
            ),
            cel: Ok("Current"),
        },
        Case {
            name: "deleting at the create gate: the reconciler never gets to the delete",
            obj: deleting(mr(json!({P: "2024-11-30T11:50:07Z", S: T0, EN: "vpc-1"}), None, &creating(T0), None)),
            built_in: "Progressing",
            lua: ("Degraded", "which never goes: the reconciler stops at the create-incomplete gate"),
            cel: Ok("InProgress"),
        },
        Case {
            name: "deleting at the create gate, orphaned: the finalizer goes first",
            obj: deleting(mr(
                json!({P: "2024-11-30T11:50:07Z", S: T0, EN: "vpc-1"}),
                Some(&["Observe"]),
                &creating(T0),
                None,
            )),
            built_in: "Progressing",
            lua: ("Progressing", "Pending deletion"),
            cel: Ok("InProgress"),
        },
        Case {
            name: "an async update failure under Ready",
            obj: mr(
                json!({EN: "vpc-1"}),
                None,
                &[
                    READY,
                    SYNCED,
                    ("LastAsyncOperation", "False", "AsyncUpdateFailure", "async update failed: boom", T0),
                ],
                Some("vpc-1"),
            ),
            built_in: "Degraded",
            lua: ("Degraded", "async update failed: boom"),
            cel: Ok("Failed"),
        },
    ]
}

/// The cases the Lua adds to Argo CD's check, and what Flux's CEL makes of the same objects.
#[test]
fn the_added_cases_in_lua_and_in_cel() {
    let script = printed_lua();
    let flux = flux_entry();
    for case in cases() {
        let got = lua(&script, &case.obj);
        assert_eq!(got.status, case.lua.0, "{}: {}", case.name, got.message);
        assert!(got.message.contains(case.lua.1), "{}: {}", case.name, got.message);
        let cel = flux_cel::evaluate(&flux, &case.obj);
        let short = format!("{cel:?}").chars().take(400).collect::<String>();
        assert_eq!(cel.map_err(|_| ()), case.cel, "{}: {short}", case.name);
        assert!(["Healthy", "Progressing", "Degraded"].contains(&case.built_in), "{}", case.name);
    }
}

/// Argo CD's built-in check for `*.upbound.io` as its test data pins it (its newer fixtures
/// included): a model written here from those cases, not Argo CD's script, so that the table
/// above says truly what the built-in check shows. `argo_cds_data_pins_the_model` checks it.
fn built_in(obj: &Value) -> &'static str {
    if !obj["metadata"]["deletionTimestamp"].is_null() {
        return "Progressing";
    }
    let conditions = obj["status"]["conditions"].as_array().cloned().unwrap_or_default();
    let statusless =
        ["ProviderConfig", "ClusterProviderConfig", "ProviderConfigUsage", "ClusterProviderConfigUsage", "StoreConfig"];
    if statusless.contains(&obj["kind"].as_str().unwrap_or("")) && conditions.is_empty() {
        return "Healthy";
    }
    let mut verdict = "Progressing";
    for c in &conditions {
        if (c["type"] == "LastAsyncOperation" || c["type"] == "Synced") && c["status"] == "False" {
            return "Degraded";
        }
        if c["type"] == "Ready" && c["status"] == "True" {
            verdict = "Healthy";
        }
    }
    verdict
}

#[test]
fn argo_cds_data_pins_the_model_of_its_built_in_check() {
    let dir = crate::support::upjet::root().join(ARGO);
    let tests = yaml_file(&dir.join("health_test.yaml"));
    for case in tests["tests"].as_array().unwrap() {
        let obj = yaml_file(&dir.join(case["inputPath"].as_str().unwrap()));
        assert_eq!(built_in(&obj), case["healthStatus"]["status"], "{}", case["inputPath"]);
    }
    for case in cases() {
        assert_eq!(built_in(&case.obj), case.built_in, "{}", case.name);
    }
}

/// A cluster serving one provider's VPC kinds (legacy and namespaced) and its provider config.
fn aws_cluster() -> Cluster {
    Cluster::builder()
        .crd_files(
            "provider-upjet-aws",
            &["ec2.aws.upbound.io_vpcs.yaml", "ec2.aws.m.upbound.io_vpcs.yaml", "aws.upbound.io_providerconfigs.yaml"],
        )
        .start()
}

/// The entry `health flux` prints for the legacy VPC kind.
fn flux_entry() -> Value {
    let c = aws_cluster();
    let run = c.upjet().args(["health", "flux", "-o", "json"]).stderr("2 managed kinds, 7 KiB of expressions\n").run();
    let entries = run.json()["spec"]["healthCheckExprs"].as_array().unwrap().clone();
    entries
        .into_iter()
        .find(|e| e["apiVersion"] == "ec2.aws.upbound.io/v1beta1" && e["kind"] == "VPC")
        .expect("the VPC entry")
}

/// One entry per managed kind the cluster serves (not the provider config), exact apiVersion
/// and kind each, `failed` and `current` set; `--kind` narrows it.
#[test]
fn flux_lists_every_managed_kind_with_three_expressions() {
    let c = aws_cluster();
    let run = c.upjet().args(["health", "flux"]).stderr("2 managed kinds, 7 KiB of expressions\n").run();
    let doc: Value = serde_saphyr::from_str(&run.stdout).unwrap();
    let entries = doc["spec"]["healthCheckExprs"].as_array().unwrap();
    let mut kinds: Vec<String> = entries
        .iter()
        .map(|e| format!("{} {}", e["apiVersion"].as_str().unwrap(), e["kind"].as_str().unwrap()))
        .collect();
    kinds.sort();
    assert_eq!(kinds, ["ec2.aws.m.upbound.io/v1beta1 VPC", "ec2.aws.upbound.io/v1beta1 VPC"], "{}", run.stderr);
    for e in entries {
        for field in ["failed", "current"] {
            assert!(e[field].as_str().is_some_and(|s| s.contains("status.conditions")), "{field}: {e}");
        }
        assert!(e.get("inProgress").is_none(), "InProgress is Flux's verdict when neither holds");
    }
    let one = c
        .upjet()
        .args(["health", "flux", "--kind", "vpc.ec2.aws.m.upbound.io", "-o", "json"])
        .stderr("1 managed kinds, 4 KiB of expressions\n")
        .run();
    assert_eq!(one.json()["spec"]["healthCheckExprs"].as_array().unwrap().len(), 1);
}

/// Flux evaluates the expressions on the object's top-level fields: an MR no provider has
/// written a status to yet has no `status` variable, and the evaluation errs (Flux waits).
#[test]
fn flux_errs_on_an_mr_without_status_as_flux_does() {
    let entry = flux_entry();
    let obj = json!({"apiVersion": "ec2.aws.upbound.io/v1beta1", "kind": "VPC", "metadata": {"name": "new"}, "spec": {"forProvider": {}}});
    assert!(flux_cel::evaluate(&entry, &obj).is_err());
    assert_eq!(lua(&printed_lua(), &obj).status, "Progressing");
}

#[test]
fn argocd_refuses_a_group_that_is_no_glob_of_one() {
    let run = upjet()
        .args(["health", "argocd", "--group", "aws.upbound.io/VPC"])
        .status(2)
        .stderr(
            "error: \"aws.upbound.io/VPC\" is not an API group or a glob of one (letters, digits, '.', '-' and '*')\n",
        )
        .run();
    assert!(run.stderr.contains("is not an API group or a glob of one"), "{}", run.stderr);
}

/// The entry as printed by default: one key, a block, the script under each group's key.
#[test]
fn argocd_prints_the_entry_to_paste_under_data() {
    let run = upjet().args(["health", "argocd", "--group", "*.upbound.io", "--group", "*.ovh.edixos.io"]).run();
    let data: Value = serde_saphyr::from_str(&run.stdout).unwrap();
    let map: Value = serde_saphyr::from_str(data["resource.customizations"].as_str().unwrap()).unwrap();
    let keys: Vec<&String> = map.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["*.ovh.edixos.io/*", "*.upbound.io/*"]);
    assert_eq!(map["*.ovh.edixos.io/*"]["health.lua"], map["*.upbound.io/*"]["health.lua"]);
}

/// What doctor finds in every example snapshot and what the Lua says of the same MR agree: a
/// paused MR is Suspended, an MR with a finding the Lua turns into Degraded is Degraded, and a
/// Degraded MR either has one of those findings or a False condition Argo CD itself reads.
#[test]
fn the_lua_agrees_with_doctor_on_every_example_mr() {
    let script = printed_lua();
    let degrading = ["CreateIncomplete", "AsyncDeadlinePassed", "ObserveNotFound", "DeletionBlockedByCreateGate"];
    let mut table = String::new();
    let mut files: Vec<_> = std::fs::read_dir(crate::support::upjet::root().join("examples/fleet"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for file in files {
        let rel = format!("examples/fleet/{}", file.file_name().unwrap().to_str().unwrap());
        // Exit 1 where the file holds an error finding: the Lua is judged, not the exit code.
        let report = upjet()
            .arg("doctor")
            .from(&rel)
            .json()
            .status_one_of(&[0, 1])
            .stderr_contains(" kinds scanned, ")
            .run()
            .report();
        let snapshot: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        for obj in snapshot["items"].as_array().unwrap() {
            let name = obj["metadata"]["name"].as_str().unwrap();
            let findings: Vec<&Value> = report["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| f["resource"]["name"] == name && f["resource"]["kind"] == obj["kind"])
                .collect();
            let has = |code: &str| findings.iter().any(|f| f["code"] == code);
            let lost = findings.iter().any(|f| f["code"] == "ExternalNameMissing" && f["severity"] == "error");
            let got = lua(&script, obj);
            let deleting = !obj["metadata"]["deletionTimestamp"].is_null();
            if has("Paused") {
                assert_eq!(got.status, "Suspended", "{rel} {name}");
            } else if has("DeletionBlockedByCreateGate") || !deleting && (lost || degrading.iter().any(|c| has(c))) {
                assert_eq!(got.status, "Degraded", "{rel} {name}: {} {findings:?}", got.message);
            }
            if got.status == "Degraded" {
                let argo = built_in(obj) == "Degraded";
                assert!(argo || lost || degrading.iter().any(|c| has(c)), "{rel} {name}: {} {findings:?}", got.message);
            }
            let mut codes: Vec<&str> = findings.iter().filter_map(|f| f["code"].as_str()).collect();
            codes.dedup();
            table.push_str(&format!(
                "{rel} {} {name}: {} (built-in {}) [{}]\n",
                obj["kind"].as_str().unwrap(),
                got.status,
                built_in(obj),
                codes.join(" ")
            ));
        }
    }
    insta::assert_snapshot!(table);
}
