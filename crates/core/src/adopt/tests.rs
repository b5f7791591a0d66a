use super::undo::annotations_raw;
use super::*;
use crate::create_marks::CreateMarks;
use crate::finding::Code;
use crate::finding::Finding;
use crate::managed::{ManagedResource, keys};
use crate::patch::{
    IDENTITY_CHANGE, annotation, apply_merge_patch, policies_of, resource_version, with_resource_version,
};
use crate::policies::Policies;
use crate::rules::ERR_OBSERVE_NOT_FOUND;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// A cluster-scoped RecordSet as the API server returns it.
fn obj() -> Value {
    json!({
        "apiVersion": "dns.gcp.upbound.io/v1beta2", "kind": "RecordSet",
        "metadata": {"name": "www", "uid": "u-1", "resourceVersion": "10", "generation": 3,
                     "annotations": {"kubectl.kubernetes.io/last-applied-configuration": "{}"}},
        "spec": {"forProvider": {"name": "www"}, "managementPolicies": ["*"], "deletionPolicy": "Delete"},
        "status": {"conditions": [
            {"type": "Ready", "status": "True", "reason": "Available"},
            {"type": "Synced", "status": "True", "reason": "ReconcileSuccess"}]}
    })
}

fn with_ann(mut o: Value, k: &str, v: &str) -> Value {
    o["metadata"]["annotations"][k] = json!(v);
    o
}

fn incomplete(o: Value) -> Value {
    let o = with_ann(o, keys::CREATE_PENDING, "2024-11-30T11:00:05Z");
    let mut o = with_ann(o, keys::CREATE_SUCCEEDED, "2024-11-30T11:00:00Z");
    o["status"]["conditions"] = json!([
        {"type": "Ready", "status": "False", "reason": "Creating"},
        {"type": "Synced", "status": "False", "reason": "ReconcileError", "message": crate::create_marks::ERR_CREATE_INCOMPLETE}]);
    o
}

fn opts() -> Options {
    Options { now: "2024-11-30T12:00:00Z".into(), ..Options::default() }
}

fn import() -> Options {
    Options { import: true, ..opts() }
}

fn plan_of(o: &Value, id: &str, opts: &Options) -> Plan {
    match preflight(o, id, opts, &Context::default()) {
        Verdict::Adopt(p) => *p,
        other => panic!("expected a plan, got {other:?}"),
    }
}

fn run_all(o: &Value, plan: &Plan) -> Value {
    let mut cur = o.clone();
    for s in &plan.steps {
        if let Some(p) = s.patch_at(resource_version(&cur)) {
            apply_merge_patch(&mut cur, &p);
        }
    }
    cur
}

fn deleting() -> Value {
    let mut o = obj();
    o["metadata"]["deletionTimestamp"] = json!("2024-11-30T11:00:00Z");
    o
}

fn in_flight() -> Value {
    let mut o = with_ann(obj(), keys::EXTERNAL_NAME, "old");
    o["status"]["conditions"] = json!([
        {"type": "Ready", "status": "False", "reason": "Creating"},
        {"type": "Synced", "status": "True", "reason": "ReconcileSuccess"}]);
    o
}

fn empty_policies() -> Value {
    let mut o = obj();
    o["spec"]["managementPolicies"] = json!([]);
    o
}

fn other_marker() -> Value {
    let marker = Marker {
        id: "other".into(),
        backup: Some("/b".into()),
        policies: None,
        annotations: BTreeMap::new(),
        started: "t".into(),
        import: false,
    };
    with_ann(obj(), MARKER, &serde_json::to_string(&marker).unwrap())
}

/// An MR whose external-name the composite reconciler applied (its field manager's Apply entry).
fn composed() -> Value {
    let mut o = with_ann(obj(), keys::EXTERNAL_NAME, "www-old");
    o["metadata"]["managedFields"] = json!([{"manager": "apiextensions.crossplane.io/composed/4fd8165f",
        "operation": "Apply", "apiVersion": "dns.gcp.upbound.io/v1beta1", "fieldsType": "FieldsV1",
        "fieldsV1": {"f:metadata": {"f:annotations": {"f:crossplane.io/external-name": {}}}}}]);
    o["metadata"]["ownerReferences"] = json!([{"apiVersion": "example.org/v1", "kind": "XZone", "name": "zone-1",
        "uid": "u1", "controller": true}]);
    o
}

/// The composite's next compose would revert an adoption of a field it sets: refused, even with
/// --force; one whose composition sets other fields only is adopted.
#[test]
fn an_identity_the_composition_sets_is_refused() {
    let want = Refusal::CompositionOwnsIdentity(
        "recordset.dns.gcp.upbound.io/www".into(),
        super::composite::composite_hold_of(&composed()).unwrap().advice(),
    );
    let force = Options { force: true, ..opts() };
    assert_eq!(preflight(&composed(), "x", &force, &Context::default()), Verdict::Refused(want));
    let mut other = composed();
    other["metadata"]["managedFields"][0]["fieldsV1"] = json!({"f:spec": {"f:forProvider": {"f:region": {}}}});
    assert!(matches!(preflight(&other, "x", &opts(), &Context::default()), Verdict::Adopt(_)));
    let paused = Context { composite_paused: true, ..Context::default() };
    assert!(matches!(preflight(&composed(), "x", &opts(), &paused), Verdict::Adopt(_)), "the XR paused for it");
}

#[test]
fn refusals_and_nothing_to_do() {
    let (deleting, in_flight, empty_policies, other_marker) =
        (deleting(), in_flight(), empty_policies(), other_marker());
    // (case, object, id, options, expected refusal or None for NothingToDo)
    let cases: Vec<(&str, Value, &str, Options, Option<Refusal>)> = vec![
        ("empty id", obj(), "", opts(), Some(Refusal::EmptyId)),
        ("blank id", obj(), " \t ", opts(), Some(Refusal::EmptyId)),
        ("padded id", obj(), " vpc-1", opts(), Some(Refusal::IdWhitespace(" vpc-1".into()))),
        ("control char", obj(), "a\u{1b}b", opts(), Some(Refusal::IdControl("a\u{1b}b".into()))),
        (
            "provider-upjet-aws stub (identifierFromProviderWithDefaultStub)",
            obj(),
            "STUB123456",
            opts(),
            Some(Refusal::Placeholder(crate::placeholder::placeholder("STUB123456").unwrap().describe())),
        ),
        (
            "deleting",
            deleting,
            "x",
            opts(),
            Some(Refusal::Deleting("recordset.dns.gcp.upbound.io/www".into(), "2024-11-30T11:00:00Z".into())),
        ),
        (
            "in flight",
            in_flight.clone(),
            "new",
            opts(),
            Some(Refusal::AsyncInFlight(
                "recordset.dns.gcp.upbound.io/www".into(),
                "Ready=False/Creating".into(),
                "kubectl upjet doctor recordset.dns.gcp.upbound.io/www".into(),
            )),
        ),
        ("paused by policies", empty_policies, "x", opts(), Some(Refusal::PausedByPolicies)),
        (
            "unsupported policies",
            { let mut o = obj(); o["spec"]["managementPolicies"] = json!(["Create", "Delete"]); o },
            "x",
            opts(),
            Some(Refusal::UnsupportedPolicies(
                "`spec.managementPolicies` is set to a value([Create Delete]) which is not supported. Check docs for supported policies".into(),
                "[\"Observe\",\"Create\",\"Delete\"]".into(),
            )),
        ),
        (
            "other adoption",
            other_marker.clone(),
            "mine",
            opts(),
            Some(Refusal::OtherAdoption { other: "other".into(), backup: "/b".into(), id: "mine".into() }),
        ),
        (
            "bad marker",
            with_ann(obj(), MARKER, "{not json"),
            "x",
            opts(),
            Some(Refusal::BadMarker("key must be a string at line 1 column 2".into())),
        ),
        ("same id", with_ann(obj(), keys::EXTERNAL_NAME, "www"), "www", opts(), None),
        ("same id, import", with_ann(obj(), keys::EXTERNAL_NAME, "www"), "www", import(), None),
        (
            "same id, LI already",
            with_ann(obj(), keys::EXTERNAL_NAME, "www"),
            "www",
            Options { add_late_initialize: true, ..opts() },
            None,
        ),
    ];
    for (name, o, id, op, want) in cases {
        let got = preflight(&o, id, &op, &Context::default());
        match (want, got) {
            (Some(w), Verdict::Refused(r)) => assert_eq!(r, w, "{name}"),
            (None, Verdict::NothingToDo(msg)) => assert!(msg.contains("nothing to do"), "{name}: {msg}"),
            (w, g) => panic!("{name}: wanted {w:?}, got {g:?}"),
        }
    }
}

#[test]
fn force_overrides_in_flight_other_adoption_and_bad_marker() {
    let force = Options { force: true, ..opts() };
    assert!(matches!(preflight(&in_flight(), "new", &force, &Context::default()), Verdict::Adopt(_)));
    assert!(matches!(preflight(&other_marker(), "mine", &force, &Context::default()), Verdict::Adopt(_)));
    assert!(matches!(preflight(&with_ann(obj(), MARKER, "{"), "x", &force, &Context::default()), Verdict::Adopt(_)));
    // Bad input vs refusal classes.
    assert!(Refusal::EmptyId.is_bad_input() && Refusal::IdWhitespace(String::new()).is_bad_input());
    assert!(
        !Refusal::PausedByPolicies.is_bad_input()
            && !Refusal::AsyncInFlight(String::new(), String::new(), String::new()).is_bad_input()
    );
}

/// upjet's async deadline (`defaultAsyncTimeout`, one hour from the operation's start in
/// `pkg/controller/external_async_tfpluginsdk.go` `Create`): past it nothing is running, so
/// adopting races nothing and needs no --force.
#[test]
fn in_flight_past_upjets_deadline_adopts_without_force() {
    let o = with_ann(in_flight(), keys::CREATE_PENDING, "2024-11-30T10:00:00Z");
    let o = with_ann(o, keys::CREATE_SUCCEEDED, "2024-11-30T10:00:00Z");
    let at = |t: &str| Options {
        judged_at: crate::gotime::GoTime::parse_rfc3339(t).map(crate::reconcile_timeout::JudgedAt::upjet),
        ..opts()
    };
    let verdict = |t: &str| preflight(&o, "new", &at(t), &Context::default());
    assert!(matches!(verdict("2024-11-30T11:00:01Z"), Verdict::Adopt(_)));
    assert!(matches!(verdict("2024-11-30T10:59:00Z"), Verdict::Refused(Refusal::AsyncInFlight(..))));
    // Without a judgement time nothing counts as past the deadline.
    assert!(matches!(preflight(&o, "new", &opts(), &Context::default()), Verdict::Refused(_)));
}

#[test]
fn same_id_with_something_left_to_fix_is_not_nothing_to_do() {
    let same = with_ann(obj(), keys::EXTERNAL_NAME, "www");
    for (name, o, op) in [
        ("paused", with_ann(same.clone(), keys::PAUSED, "true"), opts()),
        ("pending", incomplete(same.clone()), opts()),
        (
            "failed last",
            with_ann(
                with_ann(same.clone(), keys::CREATE_PENDING, "2024-11-30T11:00:00Z"),
                keys::CREATE_FAILED,
                "2024-11-30T11:00:01Z",
            ),
            opts(),
        ),
        (
            "add LI",
            {
                let mut o = same.clone();
                o["spec"]["managementPolicies"] = json!(["Observe", "Create"]);
                o
            },
            Options { add_late_initialize: true, ..opts() },
        ),
    ] {
        assert!(matches!(preflight(&o, "www", &op, &Context::default()), Verdict::Adopt(_)), "{name}");
    }
}

#[test]
fn steps_without_import() {
    let o = incomplete(obj());
    let plan = plan_of(&o, "www-id", &opts());
    let actions: Vec<Action> = plan.steps.iter().map(|s| s.action).collect();
    assert_eq!(actions, [Action::Pause, Action::Identity, Action::Unpause, Action::WaitReady]);
    assert_eq!(plan.steps.iter().map(|s| s.number).collect::<Vec<_>>(), [1, 2, 3, 4]);
    let marker = serde_json::to_string(&plan.marker).unwrap();
    assert_eq!(
        plan.steps[0].patch_at("10").unwrap(),
        json!({"metadata": {"resourceVersion": "10", "annotations": {keys::PAUSED: "true", MARKER: marker}}})
    );
    assert_eq!(
        plan.steps[1].patch_at("11").unwrap(),
        json!({"metadata": {"resourceVersion": "11", "annotations": {keys::EXTERNAL_NAME: "www-id", IDENTITY_CHANGE: "www-id", keys::CREATE_PENDING: null}}})
    );
    // The identity is declared to the guard in its own write and the declaration goes in the next.
    assert_eq!(
        plan.steps[2].patch_at("12").unwrap(),
        json!({"metadata": {"resourceVersion": "12", "annotations": {keys::PAUSED: null, MARKER: null, keys::RECONCILE_REQUESTED_AT: "2024-11-30T12:00:00Z", IDENTITY_CHANGE: null}}})
    );
    assert!(
        plan.steps[1].title.contains("declared to the guard (kubectl-upjet.io/identity-change)"),
        "{}",
        plan.steps[1].title
    );
    assert!(plan.steps[2].title.ends_with("; remove kubectl-upjet.io/identity-change"), "{}", plan.steps[2].title);
    assert!(plan.steps[3].patch.is_none());
    assert_eq!(plan.steps[3].wait, Some(Wait::Ready { token: "2024-11-30T12:00:00Z".into() }));
    // The marker records the originals.
    assert_eq!(plan.marker.policies, Some(vec!["*".to_string()]));
    assert_eq!(plan.marker.annotations[keys::CREATE_PENDING].as_deref(), Some("2024-11-30T11:00:05Z"));
    assert_eq!(plan.marker.annotations[keys::EXTERNAL_NAME], None);
    // End state: identity set, pending gone, unpaused, no marker; the change list says so.
    let end = run_all(&o, &plan);
    assert_eq!(annotation(&end, keys::EXTERNAL_NAME), Some("www-id"));
    assert_eq!(annotation(&end, keys::CREATE_PENDING), None);
    assert_eq!(annotation(&end, keys::PAUSED), None);
    assert_eq!(annotation(&end, MARKER), None);
    let fields: Vec<&str> = plan.changes.iter().map(|c| c.field.as_str()).collect();
    assert_eq!(
        fields,
        [
            "metadata.annotations[crossplane.io/external-create-pending]",
            "metadata.annotations[crossplane.io/external-name]",
            "metadata.annotations[crossplane.io/reconcile-requested-at]"
        ]
    );
}

#[test]
fn steps_with_import_and_late_initialize() {
    let mut o = incomplete(obj());
    o["spec"]["managementPolicies"] = json!(["Observe", "Create", "Delete"]);
    let o = with_ann(o, keys::CREATE_FAILED, "2024-11-30T11:00:01Z");
    let op = Options { import: true, add_late_initialize: true, ..opts() };
    let plan = plan_of(&o, "www-id", &op);
    let actions: Vec<Action> = plan.steps.iter().map(|s| s.action).collect();
    assert_eq!(
        actions,
        [
            Action::Pause,
            Action::Identity,
            Action::Observe,
            Action::WaitImported,
            Action::RestorePolicies,
            Action::WaitReady
        ]
    );
    // pending newer than failed blocks; once pending goes, failed (newer than succeeded) would
    // read as "the last create failed", so it goes too.
    assert_eq!(
        plan.steps[1].patch.clone().unwrap(),
        json!({"metadata": {"annotations": {keys::EXTERNAL_NAME: "www-id", IDENTITY_CHANGE: "www-id", keys::CREATE_PENDING: null, keys::CREATE_FAILED: null}}})
    );
    assert_eq!(
        plan.steps[2].patch.clone().unwrap(),
        json!({"metadata": {"annotations": {keys::PAUSED: null, keys::RECONCILE_REQUESTED_AT: "2024-11-30T12:00:00Z", IDENTITY_CHANGE: null}},
               "spec": {"managementPolicies": ["Observe"]}})
    );
    assert_eq!(plan.steps[3].wait, Some(Wait::Imported { id: "www-id".into(), token: "2024-11-30T12:00:00Z".into() }));
    assert_eq!(
        plan.steps[4].patch.clone().unwrap(),
        json!({"metadata": {"annotations": {keys::PAUSED: null, MARKER: null, keys::RECONCILE_REQUESTED_AT: "2024-11-30T12:00:00Z+adopted"}},
               "spec": {"managementPolicies": ["Observe", "Create", "Delete", "LateInitialize"]}})
    );
    let end = run_all(&o, &plan);
    assert_eq!(
        policies_of(&end),
        Some(vec!["Observe".into(), "Create".into(), "Delete".into(), "LateInitialize".into()])
    );
    assert!(!plan.warnings.iter().any(|w| w.contains("lack LateInitialize")), "{:?}", plan.warnings);
}

/// A pause the user set is never removed (unlike `crossplane resource reconcile`, which deletes
/// `crossplane.io/paused`): the import lifts it only for its Observe-only phase and puts it back;
/// without an import the MR stays paused and nothing waits on a reconcile that cannot come.
#[test]
fn a_pause_the_user_set_survives_the_adoption() {
    let o = with_ann(incomplete(obj()), keys::PAUSED, "true");
    let plan = plan_of(&o, "www-id", &opts());
    let actions: Vec<Action> = plan.steps.iter().map(|s| s.action).collect();
    assert_eq!(actions, [Action::Pause, Action::Identity, Action::KeepPause]);
    assert_eq!(
        plan.steps[0].patch.clone().unwrap(),
        json!({"metadata": {"annotations": {MARKER: serde_json::to_string(&plan.marker).unwrap()}}})
    );
    assert_eq!(
        plan.steps[2].patch.clone().unwrap(),
        json!({"metadata": {"annotations": {MARKER: null, IDENTITY_CHANGE: null}}})
    );
    let end = run_all(&o, &plan);
    assert_eq!((annotation(&end, keys::PAUSED), annotation(&end, keys::EXTERNAL_NAME)), (Some("true"), Some("www-id")));
    assert!(plan.warnings.iter().any(|w| w.contains("the adoption keeps it")), "{:?}", plan.warnings);

    let plan = plan_of(&o, "www-id", &import());
    let actions: Vec<Action> = plan.steps.iter().map(|s| s.action).collect();
    assert_eq!(
        actions,
        [Action::Pause, Action::Identity, Action::Observe, Action::WaitImported, Action::RestorePolicies]
    );
    assert_eq!(plan.steps[2].patch.as_ref().unwrap().pointer("/spec/managementPolicies"), Some(&json!(["Observe"])));
    let restore = plan.steps[4].patch.clone().unwrap();
    assert_eq!(restore.pointer("/metadata/annotations/crossplane.io~1paused"), Some(&json!("true")));
    assert_eq!(annotation(&run_all(&o, &plan), keys::PAUSED), Some("true"));
    assert!(plan.warnings.iter().any(|w| w.contains("puts it back")), "{:?}", plan.warnings);
}

fn marks(pending: Option<&str>, succeeded: Option<&str>, failed: Option<&str>) -> Value {
    let mut o = obj();
    for (k, v) in [(keys::CREATE_PENDING, pending), (keys::CREATE_SUCCEEDED, succeeded), (keys::CREATE_FAILED, failed)]
    {
        if let Some(v) = v {
            o = with_ann(o, k, v);
        }
    }
    o
}

#[test]
fn no_create_mark_combination_is_left_blocking_or_failed() {
    let times = [None, Some("2024-11-30T11:00:00Z"), Some("2024-11-30T11:00:05Z"), Some("2024-11-30T11:00:09Z")];
    for pending in times {
        for succeeded in times {
            for failed in times {
                let o = marks(pending, succeeded, failed);
                let end = run_all(&o, &plan_of(&o, "id", &opts()));
                let m = CreateMarks::of(&ManagedResource::from_json(&end.to_string()).unwrap());
                let case = format!("pending {pending:?} succeeded {succeeded:?} failed {failed:?}");
                assert!(!m.incomplete(), "{case}: still incomplete");
                assert!(!m.last_create_failed(), "{case}: still failed");
                assert_eq!(m.succeeded.raw.as_deref(), succeeded, "{case}: succeeded is history, kept");
            }
        }
    }
}

#[test]
fn failed_mark_removed_only_when_it_is_the_last_result() {
    let both = json!({"metadata": {"annotations": {keys::EXTERNAL_NAME: "id", IDENTITY_CHANGE: "id", keys::CREATE_PENDING: null, keys::CREATE_FAILED: null}}});
    // Failed at pending, after succeeded: the failed attempt goes, with its pending mark.
    let o = marks(Some("2024-11-30T11:00:00Z"), Some("2024-11-30T10:00:00Z"), Some("2024-11-30T11:00:00Z"));
    assert_eq!(plan_of(&o, "id", &opts()).steps[1].patch.clone().unwrap(), both);
    // Failed after pending after succeeded: removing only failed would block again.
    let o = marks(Some("2024-11-30T11:00:05Z"), Some("2024-11-30T11:00:00Z"), Some("2024-11-30T11:00:09Z"));
    assert_eq!(plan_of(&o, "id", &opts()).steps[1].patch.clone().unwrap(), both);
    // Failed before succeeded: history, kept.
    let o = marks(None, Some("2024-11-30T11:00:05Z"), Some("2024-11-30T11:00:00Z"));
    let patch = plan_of(&o, "id", &opts()).steps[1].patch.clone().unwrap();
    assert_eq!(patch, json!({"metadata": {"annotations": {keys::EXTERNAL_NAME: "id", IDENTITY_CHANGE: "id"}}}));
    // Pending equal to succeeded: complete, nothing to remove.
    let o = marks(Some("2024-11-30T11:00:00Z"), Some("2024-11-30T11:00:00Z"), None);
    let patch = plan_of(&o, "id", &opts()).steps[1].patch.clone().unwrap();
    assert_eq!(patch, json!({"metadata": {"annotations": {keys::EXTERNAL_NAME: "id", IDENTITY_CHANGE: "id"}}}));
}

#[test]
fn absent_policies_stay_absent_and_late_initialize_is_not_added_to_star() {
    let mut o = obj();
    o["spec"].as_object_mut().unwrap().remove("managementPolicies");
    let plan = plan_of(&o, "id", &Options { import: true, add_late_initialize: true, ..opts() });
    assert_eq!(plan.steps[4].patch.as_ref().unwrap()["spec"]["managementPolicies"], Value::Null);
    let end = run_all(&o, &plan);
    assert!(end.pointer("/spec/managementPolicies").is_none());
    assert_eq!(final_policies(&Some(vec!["*".into()]), true), Some(vec!["*".into()]));
    assert_eq!(final_policies(&None, true), None);
    assert_eq!(final_policies(&Some(vec!["Observe".into()]), false), Some(vec!["Observe".into()]));
    // Without import, LateInitialize lands in the unpause write.
    let mut o = obj();
    o["spec"]["managementPolicies"] = json!(["Observe", "Create"]);
    let plan = plan_of(&o, "id", &Options { add_late_initialize: true, ..opts() });
    assert_eq!(
        plan.steps[2].patch.as_ref().unwrap()["spec"]["managementPolicies"],
        json!(["Observe", "Create", "LateInitialize"])
    );
}

#[test]
fn record_backup_rewrites_the_marker_in_step_one() {
    let mut plan = plan_of(&obj(), "id", &opts());
    plan.record_backup("/home/u/.kube/upjet/backups/x.json");
    let written =
        plan.steps[0].patch.as_ref().unwrap()["metadata"]["annotations"][MARKER].as_str().unwrap().to_string();
    let m: Marker = serde_json::from_str(&written).unwrap();
    assert_eq!(m.backup.as_deref(), Some("/home/u/.kube/upjet/backups/x.json"));
    assert_eq!(m, plan.marker);
}

#[test]
fn resume_keeps_the_original_values_and_skips_done_writes() {
    let o = incomplete(obj());
    let mut plan = plan_of(&o, "id", &import());
    plan.record_backup("/b.json");
    // Interrupted after step 2: paused, identity written, marker present.
    let mut cur = o.clone();
    for s in &plan.steps[..2] {
        apply_merge_patch(&mut cur, s.patch.as_ref().unwrap());
    }
    let again = plan_of(&cur, "id", &import());
    assert!(again.resumed);
    assert_eq!(again.marker, plan.marker, "originals are kept from the first run");
    assert!(again.steps[0].patch.is_none() && again.steps[1].patch.is_none(), "{:?}", again.steps);
    assert!(again.steps[1].title.contains("already set"));
    // Interrupted after step 3 (observe-only, unpaused): the re-run pauses again, and restores
    // the ORIGINAL policies, not ["Observe"].
    apply_merge_patch(&mut cur, plan.steps[2].patch.as_ref().unwrap());
    let again = plan_of(&cur, "id", &import());
    assert_eq!(again.steps[0].patch, Some(json!({"metadata": {"annotations": {keys::PAUSED: "true"}}})));
    assert_eq!(again.steps[4].patch.as_ref().unwrap()["spec"]["managementPolicies"], json!(["*"]));
    // Same ID without import now, after an import run was interrupted: still resumes.
    let again = plan_of(&cur, "id", &opts());
    assert_eq!(again.steps[2].patch.as_ref().unwrap()["spec"]["managementPolicies"], json!(["*"]));
    // A forced different ID keeps the originals too.
    let forced = plan_of(&cur, "other", &Options { force: true, ..import() });
    assert_eq!(forced.marker.annotations, plan.marker.annotations);
    assert_eq!(forced.marker.id, "other");
    assert_eq!(forced.marker.backup.as_deref(), Some("/b.json"));
}

#[test]
fn guardrail_warnings() {
    let dup = ManagedResource::from_json(
        &json!({"apiVersion": "dns.gcp.m.upbound.io/v1beta1", "kind": "RecordSet",
                "metadata": {"name": "dup", "namespace": "team-a", "uid": "u-2",
                             "annotations": {keys::EXTERNAL_NAME: "id"}},
                "spec": {"managementPolicies": ["*"]}})
        .to_string(),
    )
    .unwrap();
    let safe_dup = ManagedResource::from_json(
        &json!({"apiVersion": "dns.gcp.upbound.io/v1beta2", "kind": "RecordSet",
                "metadata": {"name": "kept", "uid": "u-3"},
                "spec": {"deletionPolicy": "Orphan"}})
        .to_string(),
    )
    .unwrap();
    let ctx = Context { duplicates: std::slice::from_ref(&dup), ..Context::default() };
    let Verdict::Adopt(plan) = preflight(&obj(), "id", &opts(), &ctx) else { panic!() };
    let w = plan.warnings.join("\n");
    assert!(w.contains("deleting this MR (for example as a duplicate) would delete the cloud object \"id\": deletionPolicy is Delete"), "{w}");
    assert!(w.contains("recordset.dns.gcp.m.upbound.io/dup -n team-a also has external-name \"id\""), "{w}");
    assert!(w.contains("namespaced MRs have no deletionPolicy"), "{w}");
    assert!(w.contains("without --import"), "{w}");
    assert!(!w.contains("lack LateInitialize"), "{w}");
    let ctx = Context { duplicates: std::slice::from_ref(&safe_dup), ..Context::default() };
    let mut o = obj();
    o["spec"]["deletionPolicy"] = json!("Orphan");
    o["spec"]["managementPolicies"] = json!(["Observe", "Create", "Update", "Delete"]);
    let o = with_ann(o, keys::PAUSED, "true");
    let Verdict::Adopt(plan) = preflight(&o, "id", &import(), &ctx) else { panic!() };
    let w = plan.warnings.join("\n");
    // ShouldDelete: a non-default set with Delete wins over deletionPolicy: Orphan.
    assert!(w.contains("deleting this MR (for example as a duplicate) would delete the cloud object \"id\": managementPolicies [Observe Create Update Delete] are not the default [*] and include Delete, which wins over deletionPolicy Orphan; to keep the cloud object, remove Delete from spec.managementPolicies"), "{w}");
    assert!(!w.contains("set spec.deletionPolicy: Orphan"), "{w}");
    assert!(w.contains("deleting it leaves the cloud object in place, untracked"), "{w}");
    assert!(w.contains("lack LateInitialize"), "{w}");
    assert!(w.contains("the MR is paused"), "{w}");
    assert!(!w.contains("without --import"), "{w}");
    // The namespaced MR itself, with Delete in its policies.
    let mut ns = obj();
    ns["apiVersion"] = json!("dns.gcp.m.upbound.io/v1beta1");
    ns["metadata"]["namespace"] = json!("team-a");
    ns["spec"].as_object_mut().unwrap().remove("deletionPolicy");
    let plan = plan_of(&ns, "id", &opts());
    assert!(plan.warnings[0].contains("namespaced MRs have no deletionPolicy"), "{:?}", plan.warnings);
    assert!(plan.warnings[0].contains("replace spec.managementPolicies [*] with"), "{:?}", plan.warnings);
    // Observe-only: no deletion, no update, no create warnings.
    ns["spec"]["managementPolicies"] = json!(["Observe", "LateInitialize"]);
    let plan = plan_of(&ns, "id", &opts());
    assert!(plan.warnings.is_empty(), "{:?}", plan.warnings);
}

/// crossplane-runtime `pkg/reconciler/managed/policies.go` `ShouldDelete`, through adopt's
/// public helper (legacy MRs weigh deletionPolicy; namespaced ones have none).
#[test]
fn deletion_rule() {
    let p = |l: Option<&[&str]>| Policies { listed: l.map(|l| l.iter().map(|s| s.to_string()).collect()) };
    let mr = |ns: Option<&str>, dp: Option<&str>| ManagedResource {
        namespace: ns.map(str::to_owned),
        deletion_policy: dp.map(str::to_owned),
        ..ManagedResource::default()
    };
    let ocud: &[&str] = &["Observe", "Create", "Update", "Delete"];
    for (ns, dp, pol, want) in [
        (None, None, p(None), true),
        (None, Some("Delete"), p(Some(&["*"])), true),
        (None, Some("Orphan"), p(Some(&["*"])), false),
        (None, Some("Orphan"), p(Some(ocud)), true),
        (None, Some("Delete"), p(Some(&["Observe", "Create"])), false),
        (Some("a"), None, p(Some(&["*"])), true),
        (Some("a"), None, p(Some(&["Observe", "Delete"])), true),
        (Some("a"), None, p(Some(&["Observe"])), false),
    ] {
        assert_eq!(deletes_cloud_object(&mr(ns, dp), &pol), want, "{ns:?} {dp:?} {pol:?}");
    }
}

#[test]
fn undo_patches() {
    let original = incomplete(obj());
    let plan = plan_of(&original, "id", &import());
    for n in 0..=plan.steps.len() {
        let mut cur = original.clone();
        for s in &plan.steps[..n] {
            if let Some(p) = &s.patch {
                apply_merge_patch(&mut cur, p);
            }
        }
        cur["metadata"]["annotations"]["someone.else/added"] = json!("x");
        cur["metadata"]["resourceVersion"] = json!("99");
        let want_ann = annotations_raw(&original);
        // From the backup: exactly the original annotations and policies.
        let mut restored = cur.clone();
        if let Some(p) = undo_patch(&original, &cur) {
            assert_eq!(p["metadata"]["resourceVersion"], json!("99"));
            apply_merge_patch(&mut restored, &p);
        }
        assert_eq!(annotations_raw(&restored), want_ann, "after {n} steps");
        assert_eq!(restored["spec"], original["spec"]);
        // From the marker (only while it is present): the touched annotations and policies.
        if let Ok(Some(m)) = Marker::read(&cur) {
            let mut restored = cur.clone();
            apply_merge_patch(&mut restored, &undo_from_marker(&m, &cur));
            let mut want = want_ann.clone();
            want.insert("someone.else/added".into(), json!("x"));
            assert_eq!(annotations_raw(&restored), want, "marker undo after {n} steps");
            assert_eq!(restored["spec"], original["spec"]);
        }
    }
    assert_eq!(undo_patch(&original, &original), None);
    // Absent policies in the backup are removed again.
    let mut no_pol = obj();
    no_pol["spec"].as_object_mut().unwrap().remove("managementPolicies");
    let mut cur = no_pol.clone();
    cur["spec"]["managementPolicies"] = json!(["Observe"]);
    assert_eq!(undo_patch(&no_pol, &cur).unwrap()["spec"]["managementPolicies"], Value::Null);
}

/// The identity's declaration to the guard never outlives the run: the write after the identity
/// takes it away; a run stopped after the identity takes it away in its safe stop; a run killed
/// there leaves it (equal to the ID written, which vouches for nothing else) until the re-run,
/// whose next write takes it away; an undo from the marker takes it away too.
#[test]
fn the_guard_declaration_outlives_no_run() {
    let o = incomplete(obj());
    let plan = plan_of(&o, "www-id", &opts());
    assert_eq!(annotation(&run_all(&o, &plan), IDENTITY_CHANGE), None);
    let mut cur = o.clone();
    for s in &plan.steps[..2] {
        apply_merge_patch(&mut cur, s.patch.as_ref().unwrap());
    }
    assert_eq!(annotation(&cur, IDENTITY_CHANGE), Some("www-id"));
    let mut stopped = cur.clone();
    apply_merge_patch(&mut stopped, &safe_stop_patch(&plan.marker, &cur));
    assert_eq!(
        (annotation(&stopped, IDENTITY_CHANGE), annotation(&stopped, keys::EXTERNAL_NAME)),
        (None, Some("www-id"))
    );
    let again = plan_of(&cur, "www-id", &opts());
    assert!(again.resumed && again.steps[1].patch.is_none(), "{:?}", again.steps);
    let next = &again.steps[2].patch.as_ref().unwrap()["metadata"]["annotations"];
    assert_eq!(next.get(IDENTITY_CHANGE), Some(&Value::Null), "{next}");
    assert_eq!(annotation(&run_all(&cur, &again), IDENTITY_CHANGE), None);
    let mut undone = cur.clone();
    apply_merge_patch(&mut undone, &undo_from_marker(&plan.marker, &cur));
    assert_eq!(annotations_raw(&undone), annotations_raw(&o), "back exactly as it was");
}

#[test]
fn safe_stop_pauses_and_puts_policies_back() {
    let original = obj();
    let plan = plan_of(&original, "id", &import());
    let mut cur = original.clone();
    for s in &plan.steps[..3] {
        apply_merge_patch(&mut cur, s.patch.as_ref().unwrap());
    }
    let p = safe_stop_patch(&plan.marker, &cur);
    apply_merge_patch(&mut cur, &p);
    assert_eq!(annotation(&cur, keys::PAUSED), Some("true"));
    assert_eq!(policies_of(&cur), Some(vec!["*".to_string()]));
    assert_eq!(annotation(&cur, keys::EXTERNAL_NAME), Some("id"));
    assert!(Marker::read(&cur).unwrap().is_some(), "the marker stays so a re-run resumes");
}

#[test]
fn conflicts_ignore_status_and_foreign_annotations() {
    let a = obj();
    let mut b = a.clone();
    b["status"]["conditions"] = json!([]);
    b["metadata"]["resourceVersion"] = json!("11");
    b["metadata"]["annotations"]["argocd.argoproj.io/tracking-id"] = json!("x");
    assert!(conflicting_changes(&a, &b).is_empty());
    b["metadata"]["annotations"][keys::PAUSED] = json!("false");
    b["spec"]["deletionPolicy"] = json!("Orphan");
    let c = conflicting_changes(&a, &b);
    assert_eq!(
        c,
        vec![
            Change {
                field: "metadata.annotations[crossplane.io/paused]".into(),
                before: None,
                after: Some("false".into())
            },
            Change { field: "spec.deletionPolicy".into(), before: Some("Delete".into()), after: Some("Orphan".into()) },
        ]
    );
    b["spec"]["managementPolicies"] = json!(["Observe"]);
    assert_eq!(conflicting_changes(&a, &b).len(), 3);
}

#[test]
fn merge_patch_rfc7386() {
    let mut t = json!({"a": "b", "c": {"d": "e", "f": "g"}});
    apply_merge_patch(&mut t, &json!({"a": "z", "c": {"f": null}, "n": [1]}));
    assert_eq!(t, json!({"a": "z", "c": {"d": "e"}, "n": [1]}));
    assert_eq!(with_resource_version(json!(null), "5"), json!({"metadata": {"resourceVersion": "5"}}));
}

fn cond(t: &str, s: &str, r: &str, m: &str) -> Value {
    json!({"type": t, "status": s, "reason": r, "message": m, "lastTransitionTime": "2024-11-30T12:00:01Z"})
}

fn paused_obj() -> Value {
    let mut o = obj();
    o["status"]["conditions"] =
        json!([cond("Ready", "True", "Available", ""), cond("Synced", "False", "ReconcilePaused", "")]);
    o["status"]["atProvider"] = json!({"id": "vpc-1"});
    o
}

/// The paused object with other conditions, `atProvider.id` and `lastHandledReconcileAt`.
fn with_status(conds: Value, id: Option<&str>, handled: Option<&str>) -> Value {
    let mut o = paused_obj();
    o["status"]["conditions"] = conds;
    if let Some(id) = id {
        o["status"]["atProvider"] = json!({"id": id});
    }
    if let Some(h) = handled {
        o["status"]["lastHandledReconcileAt"] = json!(h);
    }
    o
}

fn healthy_conditions() -> Value {
    json!([cond("Ready", "True", "Available", ""), cond("Synced", "True", "ReconcileSuccess", "")])
}

fn progress_name(p: Progress) -> &'static str {
    match p {
        Progress::Waiting(_) => "waiting",
        Progress::Done(_) => "done",
        Progress::NotFound(_) => "notfound",
        Progress::Unmarked(_) => "unmarked",
    }
}

#[test]
fn wait_progress() {
    let imported = Wait::Imported { id: "vpc-1".into(), token: "T".into() };
    let ready = Wait::Ready { token: "T".into() };
    let paused = paused_obj();
    let base = Baseline::after_write(&paused, &Observed::new(paused.clone()), "T");
    assert_eq!(base.min_generation, None);
    let ok = healthy_conditions();
    let nf = json!([
        cond("Ready", "False", "Unavailable", ""),
        cond("Synced", "False", "ReconcileError", ERR_OBSERVE_NOT_FOUND)
    ]);
    let creating = json!([cond("Ready", "False", "Creating", ""), cond("Synced", "True", "ReconcileSuccess", "")]);
    let other_error = json!([cond("Synced", "False", "ReconcileError", "connect failed: boom")]);
    let cases: Vec<(&str, &Wait, Value, &str)> = vec![
        ("stale status proves nothing", &imported, paused.clone(), "waiting"),
        ("ready with the id", &imported, with_status(ok.clone(), None, None), "done"),
        ("ready with another id", &imported, with_status(ok.clone(), Some("vpc-9"), None), "waiting"),
        // upjet pkg/config/externalname.go GetExternalNameFromTemplated: a whole segment, not a substring.
        ("templated id, a whole segment", &imported, with_status(ok.clone(), Some("projects/p/vpc-1"), None), "done"),
        ("a longer id is another object", &imported, with_status(ok.clone(), Some("vpc-10"), None), "waiting"),
        (
            "a longer name in the path",
            &imported,
            with_status(ok.clone(), Some("projects/p/vpc-1-old"), None),
            "waiting",
        ),
        ("not found", &imported, with_status(nf.clone(), None, None), "notfound"),
        ("not found, final wait", &ready, with_status(nf.clone(), None, None), "notfound"),
        ("ready", &ready, with_status(ok.clone(), None, None), "done"),
        ("synced but not ready", &ready, with_status(creating, None, None), "waiting"),
        ("other error keeps waiting", &ready, with_status(other_error, None, None), "waiting"),
    ];
    for (name, wait, o, want) in cases {
        assert_eq!(progress_name(progress(wait, &base, &Observed::new(o))), want, "{name}");
    }
}

/// crossplane-runtime `Reconcile` reports "external resource does not exist" only for exactly
/// `["Observe"]`; an import with other policies (`["Observe","LateInitialize"]`, #788) that finds
/// nothing reports success and nothing else. Silence after a handled request is never "found".
#[test]
fn a_silent_import_is_never_taken_as_found() {
    let paused = paused_obj();
    let base = Baseline::after_write(&paused, &Observed::new(paused.clone()), "T");
    let mut silent = with_status(json!([cond("Synced", "True", "ReconcileSuccess", "")]), None, Some("T"));
    silent["status"].as_object_mut().unwrap().remove("atProvider");
    for wait in [Wait::Imported { id: "vpc-1".into(), token: "T".into() }, Wait::Ready { token: "T".into() }] {
        assert_eq!(progress_name(progress(&wait, &base, &Observed::new(silent.clone()))), "waiting", "{wait:?}");
    }
}

#[test]
fn an_unchanged_synced_counts_once_the_token_is_handled_or_the_generation_observed() {
    let ready = Wait::Ready { token: "T".into() };
    let ok = healthy_conditions();
    let healthy = with_status(ok.clone(), None, None);
    let base = Baseline::after_write(&healthy, &Observed::new(healthy.clone()), "T");
    let at = |o: Value, base: &Baseline| progress_name(progress(&ready, base, &Observed::new(o)));
    // No observedGeneration anywhere: a runtime before v1.20, judged by what it writes (below).
    assert_eq!(at(healthy.clone(), &base), "unmarked");
    assert_eq!(at(with_status(ok.clone(), None, Some("T")), &base), "done");
    assert_eq!(at(with_status(ok.clone(), None, Some("older")), &base), "waiting");
    let mut after = healthy.clone();
    after["metadata"]["generation"] = json!(4);
    let base = Baseline::after_write(&healthy, &Observed::new(after.clone()), "T");
    assert_eq!(base.min_generation, Some(4));
    let mut seen = after.clone();
    seen["status"]["conditions"] = json!([{"type": "Ready", "status": "True", "reason": "Available"},
                                         {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "observedGeneration": 4}]);
    assert_eq!(at(seen.clone(), &base), "done");
    seen["status"]["conditions"][1]["observedGeneration"] = json!(3);
    let base3 = Baseline { synced: Observed::new(seen.clone()).synced(), ..base.clone() };
    assert_eq!(at(seen, &base3), "waiting");
}

/// crossplane-runtime before v1.20 (v1.14 behind many installed providers) stamps no
/// observedGeneration, has no lastHandledReconcileAt, and keeps an equal Synced as it was: after
/// the final policies, an MR already in sync shows no sign of a reconcile at all. The final wait
/// takes its end state for what it is (unmarked); the import wait and every runtime that does
/// write a sign keep waiting for it.
#[test]
fn an_old_runtime_is_judged_by_what_it_writes() {
    let imported = Wait::Imported { id: "vpc-1".into(), token: "T".into() };
    let ready = Wait::Ready { token: "T".into() };
    // The MR as the write of the final policies answered (generation 3 → 4), and as read now.
    let at = |conds: Value, generation: i64, handled: Option<&str>| {
        let mut o = with_status(conds, Some("vpc-1"), handled);
        o["metadata"]["generation"] = json!(generation);
        o
    };
    let og = |mut c: Value, g: i64| {
        c["observedGeneration"] = json!(g);
        c
    };
    let ready_true = cond("Ready", "True", "Available", "");
    let synced_true = cond("Synced", "True", "ReconcileSuccess", "");
    let v114 = json!([ready_true, synced_true]);
    let v120 = json!([ready_true, og(synced_true.clone(), 3)]);
    let cases: Vec<(&str, &Wait, Value, Value, &str)> = vec![
        ("v1.14: Synced stays True, no sign anywhere", &ready, v114.clone(), v114.clone(), "unmarked"),
        ("the import wait never takes it", &imported, v114.clone(), v114.clone(), "waiting"),
        ("v1.20: Synced of the older generation still", &ready, v120.clone(), v120.clone(), "waiting"),
        (
            "v1.20: the generation observed",
            &ready,
            v120.clone(),
            json!([ready_true, og(synced_true.clone(), 4)]),
            "done",
        ),
        (
            "a condition with a generation is a newer runtime",
            &ready,
            json!([og(ready_true.clone(), 3), synced_true]),
            json!([og(ready_true.clone(), 3), synced_true]),
            "waiting",
        ),
        ("not ready", &ready, v114.clone(), json!([cond("Ready", "False", "Unavailable", ""), synced_true]), "waiting"),
        ("no Synced at all", &ready, json!([ready_true]), json!([ready_true]), "waiting"),
    ];
    for (name, wait, before, now, want) in cases {
        let base = Baseline::after_write(&at(before.clone(), 3, None), &Observed::new(at(before, 4, None)), "T");
        let got = progress(wait, &base, &Observed::new(at(now, 4, None)));
        if want == "unmarked" {
            let seen = "Synced=True and Ready=True with status.atProvider.id \"vpc-1\"";
            assert_eq!(got, Progress::Unmarked(seen.into()), "{name}");
        }
        assert_eq!(progress_name(got), want, "{name}");
    }
    // v2.3 with an older token handled: a runtime that writes a sign, so it is waited for.
    let base = Baseline::after_write(&at(v114.clone(), 3, None), &Observed::new(at(v114.clone(), 4, None)), "T");
    let older = progress(&ready, &base, &Observed::new(at(v114, 4, Some("older"))));
    assert_eq!(progress_name(older), "waiting");
}

#[test]
fn candidate_ids() {
    let mr = ManagedResource::from_json(
        &with_ann(
            {
                let mut o = obj();
                o["status"]["atProvider"] = json!({"id": "from-status"});
                o
            },
            keys::EXTERNAL_NAME,
            "current",
        )
        .to_string(),
    )
    .unwrap();
    let findings = vec![
        Finding::new(Code::ExternalNameDrift, "drift", "next").suggest(Some("from-status")),
        Finding::new(Code::OrphanCandidate, "the provider logged an ID", "next").suggest(Some("from-log")),
        Finding::new(Code::Paused, "paused", "next"),
    ];
    let events = vec![
        EventName {
            id: "current".into(),
            reason: "ReconciliationPaused".into(),
            time: Some("2024-11-30T11:00:00Z".into()),
            message: "paused".into(),
        },
        EventName {
            id: "from-event".into(),
            reason: "CreatedExternalResource".into(),
            time: Some("2024-11-30T12:00:00Z".into()),
            message: "created".into(),
        },
        EventName { id: " ".into(), reason: "X".into(), time: None, message: String::new() },
    ];
    let c = candidates(&mr, &findings, &events, Vec::new(), &[]);
    let ids: Vec<&str> = c.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["from-log", "from-status", "from-event", "current"]);
    // What the ID journal recorded for this very MR comes before every finding's suggestion.
    let journaled = crate::journal::Record {
        time: "2024-11-30T09:00:00Z".into(),
        uid: mr.uid.clone(),
        group: mr.group().into(),
        kind: mr.kind.clone(),
        namespace: None,
        name: mr.name.clone(),
        source: crate::journal::Source::ExternalName,
        id: "from-journal".into(),
        composite: None,
        resource: None,
    };
    let first = candidates(&mr, &findings, &events, Vec::new(), std::slice::from_ref(&journaled));
    assert_eq!((first[0].id.as_str(), first[0].source.as_str()), ("from-journal", "journal"));
    assert_eq!(first[1].id, "from-log");
    assert_eq!(c[0].source, "doctor OrphanCandidate");
    assert_eq!(c[1].source, "doctor ExternalNameDrift");
    assert!(c[1].evidence.ends_with("; also status.atProvider.id"), "{}", c[1].evidence);
    assert_eq!(c[2].source, "event CreatedExternalResource");
    assert!(c[3].evidence.contains("current external-name"));
    assert!(candidates(&ManagedResource::default(), &[], &[], Vec::new(), &[]).is_empty());
}

#[test]
fn marker_round_trip_and_errors() {
    assert_eq!(Marker::read(&obj()), Ok(None));
    let mut o = obj();
    o["metadata"]["annotations"][MARKER] = json!(1);
    assert!(Marker::read(&o).is_err());
    let m = Marker::fresh(&with_ann(obj(), keys::PAUSED, "false"), "x", &opts());
    assert_eq!(m.annotations.len(), TOUCHED.len());
    assert_eq!(m.annotations[keys::PAUSED].as_deref(), Some("false"));
    let back: Marker = serde_json::from_str(&m.to_annotation()).unwrap();
    assert_eq!(back, m);
}
