//! `adopt` and `restore` against the in-process API server: the real binary and kube client over
//! HTTP, a simulated provider (an `on_write` hook), faults and concurrent writers.

use crate::support::adopt::*;
use crate::support::{Cluster, Mr, Upjet};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use testapi::{Fault, Method};

fn cluster() -> Cluster {
    Cluster::builder()
        .crd_files(
            "provider-upjet-gcp",
            &[
                "dns.gcp.upbound.io_recordsets.yaml",
                "dns.gcp.m.upbound.io_recordsets.yaml",
                "gcp.upbound.io_providerconfigs.yaml",
            ],
        )
        .start()
}

/// An orphan: the create is stuck at the incomplete gate, the provider saw ID `www-A`.
fn orphan() -> Value {
    Mr::provisioned(RS, "RecordSet", "www").without_annotation(EXT).create_incomplete().at_provider_id("www-A").json()
}

fn get(c: &Cluster) -> Value {
    c.api.get(RS, "RecordSet", None, "www").expect("stored")
}

/// The binary against `c` with `args`, its backups in the cluster's folder and a 30 s timeout
/// unless the arguments give one.
fn with_backups(c: &Cluster, args: &[&str]) -> Upjet {
    let backups = c.dir().join("backups");
    let mut cmd = c.upjet();
    cmd.args(args).arg("--backup-dir").arg(&backups);
    if !args.contains(&"--timeout") {
        cmd.args(["--timeout", "30s"]);
    }
    cmd
}

fn ok_provider(c: &Cluster) -> Arc<Mutex<Vec<Seen>>> {
    provider(&c.api, Provider { cloud: vec!["www-A".into()], handles_token: true })
}

#[test]
fn adopts_with_id_and_yes_step_by_step() {
    let c = cluster();
    let original = c.add(orphan());
    let seen = ok_provider(&c);
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--yes"])
        .stderr_contains("Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\"")
        .stderr_contains("adopted recordset.dns.gcp.upbound.io/www: external-name \"www-A\"")
        .run();
    let (out, err) = (&o.stdout, &o.stderr);
    for step in [
        "[1/4] pause",
        "[2/4] set identity",
        "[3/4] unpause",
        "[4/4] wait until Synced=True and Ready=True",
        "Synced=True and Ready=True",
    ] {
        assert!(err.contains(step), "missing {step:?} in:\n{err}");
    }
    assert!(out.contains("External name:   www-A"), "ends with the new state:\n{out}");
    let now = get(&c);
    assert_eq!(a(&now, EXT), Some("www-A"));
    assert_eq!((a(&now, PENDING), a(&now, PAUSED), a(&now, MARKER)), (None, None, None));
    assert!(a(&now, RRA).is_some(), "a reconcile was requested");
    assert_eq!(now["spec"]["managementPolicies"], json!(["*"]));
    // The provider saw: paused+marker; identity while paused; then unpaused with the full identity.
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 3, "{seen:?}");
    assert!(seen[0].paused && seen[0].marker && seen[0].external_name.is_none() && seen[0].pending);
    assert!(seen[1].paused && seen[1].external_name.as_deref() == Some("www-A") && !seen[1].pending);
    assert!(!seen[2].paused && !seen[2].marker && seen[2].external_name.as_deref() == Some("www-A"));
    // The backup is the whole original object, private.
    let path = backup_path(err).expect("backup path printed");
    let backup: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(backup, original);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
    }
    // Every write was a conditional merge patch by this tool.
    let patches: Vec<String> =
        c.api.stats().recent.iter().filter(|(m, _)| m == "PATCH").map(|(_, p)| p.clone()).collect();
    // Three writes; the provider's status writes in between make some of them retry once.
    assert!((3..=5).contains(&patches.len()), "{patches:?}");
    let step1 = err.split("[1/4]").nth(1).and_then(|s| s.split("[2/4]").next()).unwrap_or("");
    assert!(!step1.contains("retrying"), "nothing raced the first write: {err}");
    assert!(patches.iter().all(|p| p.contains("fieldManager=kubectl-upjet") && !p.contains("dryRun")));
}

#[test]
fn import_observes_first_then_restores_policies() {
    let c = cluster();
    c.add(
        Mr::provisioned(RS, "RecordSet", "www")
            .without_annotation(EXT)
            .create_incomplete()
            .policies(&["Observe", "Create", "Update", "Delete"])
            .json(),
    );
    let seen = ok_provider(&c);
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--import", "--yes", "--add-late-initialize"])
        .stderr_contains(
            "Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\" (--import: verified with Observe-only first)",
        )
        .stderr_contains("adopted recordset.dns.gcp.upbound.io/www: external-name \"www-A\"")
        .run();
    let err = &o.stderr;
    assert!(err.contains("[4/6] wait until Ready=True and status.atProvider.id matches \"www-A\""), "{err}");
    assert!(err.contains("Ready=True and status.atProvider.id is \"www-A\""), "{err}");
    let seen = seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 4, "{seen:?}");
    // While unpaused before confirmation it could only observe.
    assert!(
        !seen[2].paused && seen[2].policies == json!(["Observe"]) && seen[2].external_name.as_deref() == Some("www-A")
    );
    assert_eq!(seen[3].policies, json!(["Observe", "Create", "Update", "Delete", "LateInitialize"]));
    let now = get(&c);
    assert_eq!(now["spec"]["managementPolicies"], json!(["Observe", "Create", "Update", "Delete", "LateInitialize"]));
    assert_eq!((a(&now, EXT), a(&now, MARKER), a(&now, PAUSED)), (Some("www-A"), None, None));
}

#[test]
fn import_of_an_id_that_does_not_exist_puts_the_mr_back_exactly() {
    let c = cluster();
    let original = c.add(orphan());
    let seen = ok_provider(&c);
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-WRONG", "--import", "--yes"])
        .status(5)
        .stderr_contains(
            "Adopt recordset.dns.gcp.upbound.io/www as ID \"www-WRONG\" (--import: verified with Observe-only first)",
        )
        .stderr_contains("      putting the MR back exactly as it was")
        .run();
    let err = &o.stderr;
    println!("--- stderr of adopt --import with an ID that does not exist ---\n{err}");
    assert!(err.contains(NOT_FOUND), "{err}");
    assert!(err.contains("no cloud object has ID \"www-WRONG\"") && err.contains("is back exactly as it was"), "{err}");
    assert_as_original(&original, &get(&c), "after not found");
    // It never had rights beyond Observe with the wrong ID.
    assert!(
        seen.lock()
            .unwrap()
            .iter()
            .all(|s| s.paused || s.external_name.as_deref() != Some("www-WRONG") || s.policies == json!(["Observe"]))
    );
}

/// A provider on crossplane-runtime v1.14: no reconcile token, no `observedGeneration` on any
/// condition, and Synced stays True (its time too) once the final policies are back. The import
/// is confirmed by Synced changing from ReconcilePaused; the final wait judges by what such a
/// runtime writes — Synced and Ready True with the ID — and ends within seconds instead of
/// sitting out `--timeout`, saying what it confirmed and what it could not.
#[test]
fn an_old_runtime_that_writes_no_sign_of_a_reconcile_is_judged_by_what_it_writes() {
    let c = cluster();
    c.add(orphan());
    provider(&c.api, Provider { cloud: vec!["www-A".into()], handles_token: false });
    let started = std::time::Instant::now();
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--import", "--yes", "--timeout", "90s"])
        .stderr_contains(
            "Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\" (--import: verified with Observe-only first)",
        )
        .stderr_contains("adopted recordset.dns.gcp.upbound.io/www: external-name \"www-A\"")
        .run();
    let (took, err) = (started.elapsed(), o.stderr);
    assert!(took < std::time::Duration::from_secs(40), "took {took:?}, the timeout is 90s: {err}");
    assert!(!err.contains("did not confirm"), "{err}");
    assert!(
        err.contains("confirmed: Synced=True and Ready=True with status.atProvider.id \"www-A\"")
            && err.contains("crossplane-runtime before v1.20"),
        "{err}"
    );
    let now = get(&c);
    assert!(now["status"].get("lastHandledReconcileAt").is_none());
    let conditions = now["status"]["conditions"].as_array().unwrap();
    assert!(conditions.iter().all(|c| c.get("observedGeneration").is_none()), "{conditions:?}");
    assert_eq!((a(&now, PAUSED), a(&now, MARKER), a(&now, EXT)), (None, None, Some("www-A")));
}

#[test]
fn import_timeout_leaves_it_paused_with_original_policies() {
    let c = cluster();
    let original = c.add(orphan());
    // No provider: nothing ever confirms.
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--import", "--yes", "--timeout", "2s"])
        .status(5)
        .stderr_contains(
            "Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\" (--import: verified with Observe-only first)",
        )
        .stderr_contains("      pausing it again and putting its management policies back")
        .run();
    let err = &o.stderr;
    assert!(err.contains("did not confirm within 2s"), "{err}");
    assert!(err.contains("left paused") && err.contains("kubectl upjet restore"), "{err}");
    let now = get(&c);
    assert_eq!((a(&now, PAUSED), a(&now, EXT)), (Some("true"), Some("www-A")));
    assert_eq!(now["spec"], original["spec"], "policies back to the original");
    assert!(a(&now, MARKER).is_some(), "resumable");
    // Re-running with a provider present resumes and finishes.
    ok_provider(&c);
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--import", "--yes"])
        .stderr_contains(
            "Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\" (--import: verified with Observe-only first)",
        )
        .stderr_contains("adopted recordset.dns.gcp.upbound.io/www: external-name \"www-A\"")
        .run();
    let err = &o.stderr;
    assert!(err.contains("resuming the adoption"), "{err}");
    assert!(err.contains("[2/6] set identity (already set) (already done)"), "{err}");
    let now = get(&c);
    assert_eq!((a(&now, PAUSED), a(&now, MARKER), a(&now, EXT)), (None, None, Some("www-A")));
}

#[test]
fn dry_run_prints_every_patch_and_changes_nothing() {
    let c = cluster();
    let before = c.add(orphan());
    ok_provider(&c);
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--import", "--dry-run"]).run();
    let out = &o.stdout;
    assert_eq!(out.matches("PATCH /apis/dns.gcp.upbound.io/v1beta2/recordsets/www").count(), 4, "{out}");
    assert!(out.contains("\"crossplane.io/paused\":\"true\""), "{out}");
    assert!(out.contains("\"managementPolicies\":[\"Observe\"]"), "{out}");
    assert_eq!(out.matches("accepted by the API server (dryRun=All").count(), 4, "{out}");
    assert_eq!(get(&c), before, "the object is untouched, resourceVersion included");
    let patches: Vec<String> =
        c.api.stats().recent.iter().filter(|(m, _)| m == "PATCH").map(|(_, p)| p.clone()).collect();
    assert_eq!(patches.len(), 4);
    assert!(patches.iter().all(|p| p.contains("dryRun=All")), "{patches:?}");
    assert!(!c.dir().join("backups").exists(), "no backup in a dry run");
}

#[test]
fn rbac_denial_on_patch_is_one_line_and_changes_nothing() {
    let c = cluster();
    let original = c.add(orphan());
    c.api.fault(Fault::Status {
        method: Some(Method::PATCH),
        path_contains: "/recordsets/www".into(),
        code: 403,
        reason: "Forbidden".into(),
        times: None,
        retry_after_secs: None,
    });
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--yes"]).status(3).stderr_contains("Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\"").stderr_contains("error: forbidden: RBAC does not allow you to patch recordsets.dns.gcp.upbound.io (recordset.dns.gcp.upbound.io/www). Server said: recordsets.dns.gcp.upbound.io \"www\" is forbidden: User \"test\" cannot patch resource \"recordsets\" in API group \"dns.gcp.upbound.io\" at the cluster scope — missing permission: patch on recordsets (dns.gcp.upbound.io); the ClusterRole kubectl-upjet-adopt (deploy/clusterrole-adopt.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-adopt --clusterrole=kubectl-upjet-adopt --user=test; a managed kind installed after the roles were applied needs `kubectl upjet rbac | kubectl apply -f -` again; nothing changed").run();
    let err = &o.stderr;
    let line = err.lines().find(|l| l.starts_with("error: ")).expect("error line");
    assert!(line.contains("forbidden: RBAC does not allow you to patch recordsets.dns.gcp.upbound.io"), "{line}");
    assert!(line.contains("nothing changed"), "{line}");
    assert_eq!(get(&c), original);
}

#[test]
fn rbac_denial_after_the_pause_leaves_it_paused_with_the_backup() {
    let c = cluster();
    let original = c.add(orphan());
    let api = c.api.clone();
    let armed = Arc::new(Mutex::new(false));
    c.api.on_write(move |obj| {
        let mut armed = armed.lock().unwrap();
        if !*armed && obj["metadata"]["annotations"][PAUSED] == "true" {
            *armed = true;
            api.fault(Fault::Status {
                method: Some(Method::PATCH),
                path_contains: "/recordsets/www".into(),
                code: 403,
                reason: "Forbidden".into(),
                times: None,
                retry_after_secs: None,
            });
        }
    });
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--yes"]).status(3).stderr_contains("Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\"").stderr_contains("[2/4] set identity: crossplane.io/external-name = \"www-A\", declared to the guard (kubectl-upjet.io/identity-change); remove crossplane.io/external-create-pending (the create it guards is resolved by this adoption)").run();
    let err = &o.stderr;
    assert!(err.contains("is left paused") && err.contains("backup: "), "{err}");
    let now = get(&c);
    assert_eq!((a(&now, PAUSED), a(&now, EXT)), (Some("true"), None));
    // restore (once permitted again) returns it exactly.
    c.api.clear_faults();
    let path = backup_path(err).unwrap();
    c.upjet()
        .args(["restore", path.to_str().unwrap(), "--yes"])
        .stderr_contains("  metadata.annotations[crossplane.io/paused]: \"true\" -> <none>")
        .run();
    assert_as_original(&original, &get(&c), "restored");
}

/// Holds every PATCH of this tool for a while, and changes the object while the first is held.
fn concurrent_writer(c: &Cluster, change: impl Fn(&mut Value) + Send + 'static) -> std::thread::JoinHandle<()> {
    c.api.fault(Fault::Delay { path_contains: "fieldManager=kubectl-upjet".into(), millis: 1500 });
    let api = c.api.clone();
    std::thread::spawn(move || {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while std::time::Instant::now() < deadline {
            if api.stats().recent.iter().any(|(m, p)| m == "PATCH" && p.contains("fieldManager")) {
                let mut obj = api.get(RS, "RecordSet", None, "www").unwrap();
                change(&mut obj);
                api.insert(obj);
                api.clear_faults();
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    })
}

#[test]
fn concurrent_writer_between_read_and_write_is_never_overwritten() {
    let c = cluster();
    c.add(orphan());
    ok_provider(&c);
    let writer = concurrent_writer(&c, |o| o["metadata"]["annotations"][EXT] = json!("someone-else"));
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--yes"])
        .status(5)
        .stderr_contains("Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\"")
        .stderr_contains("error: it changed while adopting (a conflicting write); not overwriting it; nothing changed")
        .run();
    writer.join().unwrap();
    let err = &o.stderr;
    assert!(err.contains("was changed by someone else meanwhile"), "{err}");
    assert!(err.contains("metadata.annotations[crossplane.io/external-name]: <none> -> \"someone-else\""), "{err}");
    assert!(err.contains("nothing changed"), "{err}");
    let now = get(&c);
    assert_eq!((a(&now, EXT), a(&now, PAUSED), a(&now, MARKER)), (Some("someone-else"), None, None));
}

#[test]
fn a_concurrent_status_write_is_retried() {
    let c = cluster();
    c.add(orphan());
    ok_provider(&c);
    let writer = concurrent_writer(&c, |o| o["status"]["atProvider"]["fqdn"] = json!("www.example.com."));
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--yes"])
        .stderr_contains("Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\"")
        .stderr_contains("adopted recordset.dns.gcp.upbound.io/www: external-name \"www-A\"")
        .run();
    writer.join().unwrap();
    let err = &o.stderr;
    // The provider's own status writes cause retries later; a retry in step 1 can only be the writer's.
    let step1 = err.split("[1/4]").nth(1).and_then(|s| s.split("[2/4]").next()).unwrap_or("");
    assert!(step1.contains("the object changed meanwhile (status only); retrying"), "{err}");
    assert_eq!(a(&get(&c), EXT), Some("www-A"));
}

#[test]
fn a_writer_between_steps_stops_it_paused() {
    let c = cluster();
    let original = c.add(orphan());
    let api = c.api.clone();
    let done = Arc::new(Mutex::new(false));
    // Right after the pause is stored, someone sets another external-name.
    c.api.on_write(move |obj| {
        let mut done = done.lock().unwrap();
        if !*done && obj["metadata"]["annotations"][PAUSED] == "true" {
            *done = true;
            obj["metadata"]["annotations"][EXT] = json!("racer");
        }
        let _ = &api;
    });
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--yes"])
        .status(5)
        .stderr_contains("Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\"")
        .stderr_contains("        metadata.annotations[crossplane.io/external-name]: <none> -> \"racer\"")
        .run();
    let err = &o.stderr;
    assert!(err.contains("\"racer\""), "the change is shown: {err}");
    assert!(err.contains("is left paused"), "{err}");
    let now = get(&c);
    assert_eq!((a(&now, PAUSED), a(&now, EXT)), (Some("true"), Some("racer")), "not overwritten");
    let path = backup_path(err).unwrap();
    c.upjet()
        .args(["restore", path.to_str().unwrap(), "--yes"])
        .stderr_contains("  metadata.annotations[crossplane.io/external-name]: \"racer\" -> <none>")
        .stderr_contains("  metadata.annotations[crossplane.io/paused]: \"true\" -> <none>")
        .run();
    assert_as_original(&original, &get(&c), "restored");
}

#[test]
fn bad_input_is_exit_2_and_changes_nothing() {
    let c = cluster();
    let original = c.add(orphan());
    c.add(json!({"apiVersion": "gcp.upbound.io/v1beta1", "kind": "ProviderConfig", "metadata": {"name": "default"}, "spec": {}}));
    for (args, want) in [
        (vec!["adopt", "recordset.dns.gcp.upbound.io/nope", "--id", "x", "--yes"], "not found"),
        (vec!["adopt", "providerconfig.gcp.upbound.io/default", "--id", "x", "--yes"], "not a managed resource kind"),
        (vec!["adopt", "widget/www", "--id", "x", "--yes"], "no managed resource kind matches"),
        (vec!["adopt", TARGET, "--id", "", "--yes"], "the ID is empty"),
        (vec!["adopt", TARGET, "--id", "   ", "--yes"], "the ID is empty"),
        (vec!["adopt", TARGET, "--id", " www-A", "--yes"], "leading or trailing whitespace"),
        (vec!["adopt", "www", "--id", "x", "--yes"], "is not KIND/NAME"),
        (vec!["adopt", "recordset/w w", "--id", "x", "--yes"], "is not a valid Kubernetes name"),
        (
            vec!["adopt", "recordset.dns.gcp.m.upbound.io/www", "-n", "a b", "--id", "x", "--yes"],
            "is not a valid Kubernetes namespace",
        ),
        (vec!["adopt", TARGET, "--id", "www-A"], "pass --yes"),
        (vec!["adopt", TARGET], "no --id given and no terminal"),
    ] {
        let o = with_backups(&c, &args).status(2).stderr_contains(want).run();
        let err = &o.stderr;
        assert_eq!(err.lines().filter(|l| l.starts_with("error:")).count(), 1, "{args:?}: one error line: {err}");
        assert_eq!(get(&c), original, "{args:?} changed nothing");
    }
    assert_eq!(c.api.stats().class("patch"), 0);
}

#[test]
fn same_id_is_nothing_to_do() {
    let c = cluster();
    let original = c.add(Mr::provisioned(RS, "RecordSet", "www").json());
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www", "--yes"]).run();
    assert!(o.stdout.contains("already has external-name \"www\"; nothing to do"), "{}", o.stdout);
    assert_eq!(get(&c), original);
}

/// upjet cancels an async operation one hour after its start (`defaultAsyncTimeout`): an MR that
/// still shows Ready=Creating long after (judged at the pinned `UPJET_NOW`, 12:00) is adopted
/// without --force.
#[test]
fn adopts_past_upjets_async_deadline_without_force() {
    let c = cluster();
    let t = "2024-11-30T10:30:00Z";
    c.add(
        Mr::provisioned(RS, "RecordSet", "www")
            .without_annotation(EXT)
            .annotation(PENDING, t)
            .annotation(SUCCEEDED, t)
            .conditions(json!([
                {"type": "Ready", "status": "False", "reason": "Creating", "lastTransitionTime": t},
                {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": t}]))
            .json(),
    );
    ok_provider(&c);
    with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--yes"])
        .stderr_contains("Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\"")
        .stderr_contains("adopted recordset.dns.gcp.upbound.io/www: external-name \"www-A\"")
        .run();
    assert_eq!(a(&get(&c), EXT), Some("www-A"));
}

#[test]
fn refusals_are_exit_5() {
    let c = cluster();
    let in_flight = c.add(
        Mr::provisioned(RS, "RecordSet", "www")
            .without_annotation(EXT)
            .conditions(json!([{"type": "Ready", "status": "False", "reason": "Creating"}, {"type": "Synced", "status": "True", "reason": "ReconcileSuccess"}]))
            .json(),
    );
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--yes"]).status(5).stderr("error: refused: an asynchronous operation may still be running on recordset.dns.gcp.upbound.io/www (Ready=False/Creating); adopting now races it. Wait and check with `kubectl upjet doctor recordset.dns.gcp.upbound.io/www`, or pass --force\n").run();
    let err = &o.stderr;
    assert!(err.contains("asynchronous operation may still be running") && err.contains("--force"), "{err}");
    assert_eq!(get(&c), in_flight);
    ok_provider(&c);
    with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--yes", "--force"])
        .stderr_contains("Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\"")
        .stderr_contains("adopted recordset.dns.gcp.upbound.io/www: external-name \"www-A\"")
        .run();
    // Being deleted.
    let mut deleting = Mr::provisioned(RS_NS, "RecordSet", "gone").namespace("default").without_annotation(EXT).json();
    deleting["metadata"]["deletionTimestamp"] = json!("2024-11-30T11:00:00Z");
    let deleting = c.add(deleting);
    let o = with_backups(&c, &["adopt", "recordset.dns.gcp.m.upbound.io/gone", "-n", "default", "--id", "x", "--yes"])
        .status(5)
        .stderr_contains(
            "error: refused: recordset.dns.gcp.m.upbound.io/gone -n default is being deleted (deletionTimestamp",
        )
        .run();
    assert!(o.stderr.contains("is being deleted"));
    assert_eq!(c.api.get(RS_NS, "RecordSet", Some("default"), "gone").unwrap(), deleting);
}

#[test]
fn guardrails_are_shown() {
    let c = cluster();
    c.add(orphan());
    c.add(Mr::provisioned(RS_NS, "RecordSet", "dup").namespace("team-a").annotation(EXT, "www-A").json());
    ok_provider(&c);
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--yes", "--dry-run"]).run();
    let out = &o.stdout;
    assert!(
        out.contains("deleting this MR (for example as a duplicate) would delete the cloud object \"www-A\""),
        "{out}"
    );
    assert!(out.contains("without --import a wrong ID is not caught"), "{out}");
    // Same kind only: the namespaced duplicate is another kind.
    assert!(!out.contains("also has external-name"), "{out}");
    c.add(Mr::provisioned(RS, "RecordSet", "twin").annotation(EXT, "www-A").json());
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--yes", "--dry-run"]).run();
    let out = &o.stdout;
    assert!(
        out.contains("recordset.dns.gcp.upbound.io/twin also has external-name \"www-A\": two MRs would manage one cloud object; deleting it deletes the cloud object, then removes the finalizer"),
        "{out}"
    );
    c.add(
        Mr::provisioned(RS, "RecordSet", "www")
            .without_annotation(EXT)
            .create_incomplete()
            .policies(&["Observe", "Create"])
            .json(),
    );
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--dry-run"]).run();
    assert!(o.stdout.contains("lack LateInitialize"), "{}", o.stdout);
    // ShouldDelete: non-default policies with Delete win over deletionPolicy: Orphan, so the fix
    // is to drop Delete, not to set Orphan.
    let mut orphan_policy = Mr::provisioned(RS, "RecordSet", "www").without_annotation(EXT).create_incomplete();
    orphan_policy = orphan_policy.policies(&["Observe", "Create", "Update", "Delete"]);
    let mut obj = orphan_policy.json();
    obj["spec"]["deletionPolicy"] = json!("Orphan");
    c.add(obj);
    let out = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--dry-run"]).run().stdout;
    assert!(
        out.contains("would delete the cloud object \"www-A\": managementPolicies [Observe Create Update Delete] are not the default [*] and include Delete, which wins over deletionPolicy Orphan; to keep the cloud object, remove Delete from spec.managementPolicies"),
        "{out}"
    );
}

#[test]
fn restore_puts_annotations_and_policies_back() {
    let c = cluster();
    let original = c.add(orphan());
    ok_provider(&c);
    let o = with_backups(&c, &["adopt", TARGET, "--id", "www-A", "--yes", "--add-late-initialize"])
        .stderr_contains("Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\"")
        .stderr_contains("adopted recordset.dns.gcp.upbound.io/www: external-name \"www-A\"")
        .run();
    let path = backup_path(&o.stderr).unwrap();
    let p = path.to_str().unwrap();
    // No terminal, no --yes.
    let o = c.upjet().args(["restore", p]).status(2).stderr_contains("  metadata.annotations[crossplane.io/external-name]: \"www-A\" -> <none>").stderr_contains("error: refusing to change recordset.dns.gcp.upbound.io/www without confirmation: there is no terminal to ask on; pass --yes (or --dry-run to only see the patch)").run();
    assert!(o.stderr.contains("pass --yes"));
    // Dry run: shows the patch, changes nothing.
    let adopted = get(&c);
    let o = c.upjet().args(["restore", p, "--dry-run"]).run();
    assert!(o.stdout.contains("\"crossplane.io/external-name\":null"), "{}", o.stdout);
    assert_eq!(get(&c), adopted);
    // For real.
    c.upjet()
        .args(["restore", p, "--yes"])
        .stderr_contains("  metadata.annotations[crossplane.io/external-name]: \"www-A\" -> <none>")
        .run();
    assert_as_original(&original, &get(&c), "restored");
    let o = c.upjet().args(["restore", p, "--yes"]).run();
    assert!(o.stdout.contains("nothing to do"));
    // A different object with the same name is refused.
    c.api.remove(RS, "RecordSet", None, "www");
    let mut again = orphan();
    again["metadata"]["uid"] = json!("another-uid");
    c.add(again);
    let o = c.upjet().args(["restore", p, "--yes"]).status(5)
        .stderr_contains("error: refused: recordset.dns.gcp.upbound.io/www is a different object than the one backed up (uid another-uid now, ")
        .stderr_contains(" in the backup): it was deleted and created again\n")
        .run();
    assert!(o.stderr.contains("different object"), "{}", o.stderr);
    // Not a backup.
    let bad = c.dir().join("bad.json");
    std::fs::write(&bad, "{").unwrap();
    let o = c
        .upjet()
        .args(["restore", bad.to_str().unwrap(), "--yes"])
        .status(2)
        .stderr_contains("is not an adopt backup: not JSON (EOF while parsing an object at line 1 column 1)")
        .run();
    assert!(o.stderr.contains("is not an adopt backup"));
}

fn write_plan(c: &Cluster, items: Value) -> String {
    let path = c.dir().join("plan.json");
    std::fs::write(&path, items.to_string()).unwrap();
    path.to_str().unwrap().to_string()
}

#[test]
fn bulk_plan_adopts_skips_and_resumes() {
    let c = cluster();
    for n in ["a", "b", "c"] {
        c.add(
            Mr::provisioned(RS, "RecordSet", n)
                .without_annotation(EXT)
                .create_incomplete()
                .at_provider_id(&format!("{n}-id"))
                .json(),
        );
    }
    c.add(Mr::provisioned(RS_NS, "RecordSet", "d").namespace("team-a").without_annotation(EXT).json());
    c.add(Mr::provisioned(RS, "RecordSet", "done").annotation(EXT, "done-id").json());
    provider(
        &c.api,
        Provider { cloud: ["a-id", "b-id", "c-id", "d-id", "done-id"].map(String::from).to_vec(), handles_token: true },
    );
    let plan = write_plan(
        &c,
        json!([
            {"resource": "recordset.dns.gcp.upbound.io/a", "id": "a-id"},
            {"resource": "recordset.dns.gcp.upbound.io/b", "id": "b-id"},
            {"resource": "recordset.dns.gcp.upbound.io/c", "id": "c-id"},
            {"resource": "recordset.dns.gcp.m.upbound.io/d", "namespace": "team-a", "id": "d-id"},
            {"resource": "recordset.dns.gcp.upbound.io/done", "id": "done-id"}
        ]),
    );
    // Dry run first: nothing changes.
    let before: Vec<Value> = c.api.list(RS, "RecordSet", None);
    let o = with_backups(&c, &["adopt", "-f", &plan, "--import", "--dry-run"]).run();
    assert!(o.stdout.contains("dry run: 4 to adopt, 1 already adopted, 0 refused"), "{}", o.stdout);
    assert_eq!(c.api.list(RS, "RecordSet", None), before);
    // Interrupted abruptly after the first item's identity step (one at a time).
    c
        .upjet()
        .args(["adopt", "-f", &plan, "--import", "--yes", "--concurrency", "1", "--backup-dir"])
        .arg(c.dir().join("backups"))
        .env("UPJET_TEST_STOP_AFTER_STEP", "2")
        .status(99).stderr_contains("recordset.dns.gcp.upbound.io/a: [1/6] pause reconciliation (crossplane.io/paused: \"true\") and record the adoption (kubectl-upjet.io/adoption)").stderr_contains("test hook: stopping abruptly after step 2").run();
    let paused: Vec<String> = c
        .api
        .list(RS, "RecordSet", None)
        .iter()
        .filter(|o| a(o, PAUSED) == Some("true"))
        .map(|o| o["metadata"]["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(paused.len(), 1, "exactly one MR was in progress: {paused:?}");
    // Resume: everything finishes, the already-adopted one is skipped.
    let o = with_backups(&c, &["adopt", "-f", &plan, "--import", "--yes", "--concurrency", "2"]).stderr_contains("recordset.dns.gcp.upbound.io/a: [1/6] pause reconciliation (crossplane.io/paused: \"true\") and record the adoption (kubectl-upjet.io/adoption) (already done)").stderr_contains("recordset.dns.gcp.m.upbound.io/d -n team-a: Synced=True and Ready=True").run();
    let out = &o.stdout;
    assert_eq!(out.lines().filter(|l| l.starts_with("adopted")).count(), 4, "{out}");
    assert!(out.contains("skipped  recordset.dns.gcp.upbound.io/done already has external-name \"done-id\""), "{out}");
    assert!(out.contains("4 adopted, 1 skipped (already adopted), 0 refused, 0 failed of 5 in the plan"), "{out}");
    for n in ["a", "b", "c"] {
        let o = c.api.get(RS, "RecordSet", None, n).unwrap();
        assert_eq!(
            (a(&o, EXT), a(&o, PAUSED), a(&o, MARKER), a(&o, PENDING)),
            (Some(format!("{n}-id").as_str()), None, None, None)
        );
    }
    assert_eq!(a(&c.api.get(RS_NS, "RecordSet", Some("team-a"), "d").unwrap(), EXT), Some("d-id"));
    // A third run skips everything.
    let o = with_backups(&c, &["adopt", "-f", &plan, "--import", "--yes"]).run();
    assert!(o.stdout.contains("nothing to adopt: 5 already adopted, 0 refused"), "{}", o.stdout);
}

#[test]
fn bulk_failures_and_bad_plans() {
    let c = cluster();
    c.add(Mr::provisioned(RS, "RecordSet", "a").without_annotation(EXT).json());
    c.add(Mr::provisioned(RS, "RecordSet", "b").without_annotation(EXT).json());
    provider(&c.api, Provider { cloud: vec!["a-id".into()], handles_token: true });
    let before = c.api.list(RS, "RecordSet", None);
    for (items, want) in [
        (json!({"resource": "x"}), "not a plan"),
        (json!([{"resource": "recordset.dns.gcp.upbound.io/a", "id": " "}]), "id is empty"),
        (json!([{"resource": "recordset.dns.gcp.upbound.io/zz", "id": "x"}]), "not found"),
        (json!([{"resource": "widget/a", "id": "x"}]), "no managed resource kind matches"),
    ] {
        let plan = write_plan(&c, items);
        with_backups(&c, &["adopt", "-f", &plan, "--yes"]).status(2).stderr_contains(want).run();
        assert_eq!(c.api.list(RS, "RecordSet", None), before);
    }
    let plan = write_plan(&c, json!([{"resource": "recordset.dns.gcp.upbound.io/a", "id": "a-id"}]));
    let o = with_backups(&c, &["adopt", "-f", &plan]).status(2).stderr("error: refusing to adopt 1 MRs without confirmation: there is no terminal to ask on; pass --yes (or --dry-run to only see the plans)\n").run();
    assert!(o.stderr.contains("pass --yes"));
    // One found, one not (import): a line each, the failure put back, exit 5.
    let plan = write_plan(
        &c,
        json!([{"resource": "recordset.dns.gcp.upbound.io/a", "id": "a-id"}, {"resource": "recordset.dns.gcp.upbound.io/b", "id": "b-missing"}]),
    );
    let o = with_backups(&c, &["adopt", "-f", &plan, "--import", "--yes"]).status(5).stderr_contains("recordset.dns.gcp.upbound.io/a: [1/6] pause reconciliation (crossplane.io/paused: \"true\") and record the adoption (kubectl-upjet.io/adoption)").stderr_contains("recordset.dns.gcp.upbound.io/a: Synced=True and Ready=True").run();
    let out = &o.stdout;
    assert!(out.contains("adopted  recordset.dns.gcp.upbound.io/a as \"a-id\" (backup "), "{out}");
    assert!(out.contains("failed   recordset.dns.gcp.upbound.io/b: no cloud object has ID \"b-missing\""), "{out}");
    assert!(out.contains("1 adopted, 0 skipped (already adopted), 0 refused, 1 failed of 2 in the plan"), "{out}");
    let b = c.api.get(RS, "RecordSet", None, "b").unwrap();
    assert_as_original(&before[1], &b, "b put back");
}

#[test]
fn bulk_refuses_items_planned_for_another_cluster() {
    let c = cluster();
    c.add(
        Mr::provisioned(RS, "RecordSet", "here")
            .without_annotation(EXT)
            .create_incomplete()
            .at_provider_id("here-id")
            .json(),
    );
    c.add(
        Mr::provisioned(RS, "RecordSet", "there")
            .without_annotation(EXT)
            .create_incomplete()
            .at_provider_id("there-id")
            .json(),
    );
    provider(&c.api, Provider { cloud: ["here-id", "there-id"].map(String::from).to_vec(), handles_token: true });
    // The test kubeconfig's only (and current) context is `test`.
    let plan = write_plan(
        &c,
        json!([
            {"cluster": "test", "resource": "recordset.dns.gcp.upbound.io/here", "id": "here-id"},
            {"cluster": "staging", "resource": "recordset.dns.gcp.upbound.io/there", "id": "there-id"},
            {"cluster": "staging", "resource": "recordset.dns.gcp.upbound.io/not-even-here", "id": "x"}
        ]),
    );
    let there = c.api.get(RS, "RecordSet", None, "there").unwrap();
    let o = with_backups(&c, &["adopt", "-f", &plan, "--import", "--dry-run"]).status(5).run();
    let out = &o.stdout;
    assert!(
        out.contains("refused  recordset.dns.gcp.upbound.io/there planned for cluster \"staging\", but the current context is \"test\"; use --context staging"),
        "{out}"
    );
    assert!(out.contains("dry run: 1 to adopt, 0 already adopted, 2 refused"), "{out}");
    let o = with_backups(&c, &["adopt", "-f", &plan, "--import", "--yes"]).status(5).stderr_contains("recordset.dns.gcp.upbound.io/here: [1/6] pause reconciliation (crossplane.io/paused: \"true\") and record the adoption (kubectl-upjet.io/adoption)").stderr_contains("recordset.dns.gcp.upbound.io/here: Synced=True and Ready=True").run();
    let out = &o.stdout;
    assert!(out.contains("1 adopted, 0 skipped (already adopted), 2 refused, 0 failed of 3 in the plan"), "{out}");
    assert_eq!(a(&c.api.get(RS, "RecordSet", None, "here").unwrap(), EXT), Some("here-id"));
    assert_eq!(c.api.get(RS, "RecordSet", None, "there").unwrap(), there, "never written");
    // Only foreign items: nothing to adopt, still refused.
    let plan = write_plan(
        &c,
        json!([{"cluster": "staging", "resource": "recordset.dns.gcp.upbound.io/there", "id": "there-id"}]),
    );
    let o = with_backups(&c, &["adopt", "-f", &plan, "--import", "--yes"]).status(5).run();
    assert!(o.stdout.contains("nothing to adopt: 0 already adopted, 1 refused"), "{}", o.stdout);
}
