//! kubectl-upjet's own repairs pass the guard's identity rules because they say what they write:
//! each repair's actual writes (adopt with and without `--import`, the put-back after a miss,
//! `restore` from a backup, the staged restore and promote, migrate's create of the namespaced
//! twin), applied to the object one after another and judged as the API server judges them
//! (`support::guard_cel`), are let through; the same change without
//! `kubectl-upjet.io/identity-change` is refused; and no declaration is left once the writes are
//! done.

use crate::guard::{CHANGE, EXT, M, SUCCEEDED, judge, kinds, lock, refused};
use crate::support::guard_cel::Outcome;
use serde_json::{Value, json};
use upjet_core::adopt::{self, Action, Context, Options, Plan, Verdict};
use upjet_core::finding::{Code, Finding};
use upjet_core::gotime::GoTime;
use upjet_core::guard::lock::key::LockKey;
use upjet_core::guard::rule::GuardRule;
use upjet_core::guard::settings::GuardSettings;
use upjet_core::guard::{GuardSet, build};
use upjet_core::managed::ManagedResource;
use upjet_core::migrate::{self, NamespaceRule, schema::TargetKind};
use upjet_core::patch;
use upjet_core::patch::apply_merge_patch;
use upjet_core::promote;
use upjet_core::reconcile_timeout::JudgedAt;

const NOW: &str = "2024-11-30T12:00:00Z";

fn guard() -> GuardSet {
    build(&kinds(), &GuardSettings::default(), &[])
}

/// A VPC that created its object `vpc-old` (a create-succeeded mark, Ready): the identity-kept
/// rule guards its ID.
fn created() -> Value {
    let mut m = M::cluster("main").ext("vpc-old").ann(SUCCEEDED, "2024-11-30T10:53:06Z").ready();
    m.0["metadata"]["uid"] = json!("uid-main");
    m.0["metadata"]["resourceVersion"] = json!("10");
    m.0
}

fn without_declaration(patch: &Value) -> Value {
    let mut bare = patch.clone();
    if let Some(a) = bare.pointer_mut("/metadata/annotations").and_then(Value::as_object_mut) {
        a.remove(CHANGE);
    }
    bare
}

fn applied(obj: &Value, patch: &Value) -> Value {
    let mut next = obj.clone();
    apply_merge_patch(&mut next, patch);
    next
}

fn annotations(obj: &Value) -> Value {
    obj["metadata"]["annotations"].clone()
}

/// Writes `patches` in turn from `start`: each UPDATE let through by identity-kept; returns the end.
fn written(set: &GuardSet, start: &Value, patches: &[(String, Value)]) -> Value {
    let mut cur = start.clone();
    for (what, patch) in patches {
        let next = applied(&cur, patch);
        let outcome = judge(set, GuardRule::IdentityKept, &[], &M(cur).update_to(&M(next.clone())));
        assert_eq!(outcome, Outcome::Allowed, "{what}: {patch}");
        cur = next;
    }
    cur
}

/// The write that changes the identity, without its declaration, is refused.
fn refused_bare(set: &GuardSet, before: &Value, patch: &Value) {
    let bare = applied(before, &without_declaration(patch));
    assert_ne!(annotations(&bare)[EXT], annotations(before)[EXT], "the write changes the identity: {patch}");
    refused(&judge(set, GuardRule::IdentityKept, &[], &M(before.clone()).update_to(&M(bare))), "Deny", &["changes"]);
}

fn plan(obj: &Value, import: bool) -> Plan {
    let opts = Options { import, now: NOW.into(), ..Options::default() };
    match adopt::preflight(obj, "vpc-new", &opts, &Context::default()) {
        Verdict::Adopt(plan) => *plan,
        other => panic!("expected a plan, got {other:?}"),
    }
}

fn writes(plan: &Plan) -> Vec<(String, Value)> {
    plan.writes().map(|s| (s.title.clone(), s.patch.clone().unwrap())).collect()
}

#[test]
fn adopt_declares_the_new_id_and_takes_the_declaration_away_in_its_next_write() {
    let set = guard();
    for import in [false, true] {
        let start = created();
        let plan = plan(&start, import);
        let end = written(&set, &start, &writes(&plan));
        assert_eq!((annotations(&end)[EXT].as_str(), annotations(&end).get(CHANGE)), (Some("vpc-new"), None));
        // The identity's own write, without the declaration, is refused.
        let mut before = start.clone();
        for step in plan.writes() {
            let patch = step.patch.clone().unwrap();
            if step.action == Action::Identity {
                assert_eq!(patch["metadata"]["annotations"][CHANGE], "vpc-new", "declared in the same write");
                refused_bare(&set, &before, &patch);
            }
            before = applied(&before, &patch);
        }
    }
}

#[test]
fn putting_the_earlier_id_back_after_a_miss_is_declared_and_ends_exactly_as_before() {
    let set = guard();
    let start = created();
    let plan = plan(&start, true);
    // The adoption reached its Observe-only phase, and the provider found no object `vpc-new`.
    let observing = written(&set, &start, &writes(&plan)[..3]);
    let undo = adopt::undo_from_marker(&plan.marker, &observing);
    let declared = patch::declare(undo, &observing);
    let then = declared.then.clone().expect("a declared write is followed by its removal");
    let end = written(&set, &observing, &[("undo".into(), declared.patch.clone()), ("undeclare".into(), then)]);
    assert_eq!(annotations(&end), annotations(&start), "back exactly as it was");
    refused_bare(&set, &observing, &declared.patch);
}

#[test]
fn restore_from_a_backup_declares_the_backed_up_id_and_ends_exactly_as_backed_up() {
    let set = guard();
    let backup = created();
    let adopted = written(&set, &backup, &writes(&plan(&backup, false)));
    let undo = adopt::undo_patch(&backup, &adopted).expect("something to restore");
    let declared = patch::declare(undo, &adopted);
    let then = declared.then.clone().unwrap();
    let end = written(&set, &adopted, &[("restore".into(), declared.patch.clone()), ("undeclare".into(), then)]);
    assert_eq!(annotations(&end), annotations(&backup));
    refused_bare(&set, &adopted, &declared.patch);

    // A backup without an external-name: putting it back removes an identity, which no write
    // can declare; the guard refuses it in Deny (an exempt user or group may, or Warn for a time).
    let mut bare_backup = backup.clone();
    bare_backup["metadata"]["annotations"].as_object_mut().unwrap().remove(EXT);
    let removal = patch::declare(adopt::undo_patch(&bare_backup, &adopted).unwrap(), &adopted);
    assert!(removal.then.is_none());
    let outcome =
        judge(&set, GuardRule::IdentityKept, &[], &M(adopted.clone()).update_to(&M(applied(&adopted, &removal.patch))));
    refused(&outcome, "Deny", &["removes"]);
}

#[test]
fn a_staged_restore_creates_with_its_id_declared_and_promote_takes_the_declaration_away() {
    let set = guard();
    // Backed up Ready and observed as `vpc-new`, without the external-name: restoring it as it is
    // would create a duplicate.
    let mut backed_up = created();
    backed_up["metadata"]["annotations"].as_object_mut().unwrap().remove(EXT);
    backed_up["status"]["atProvider"] = json!({"id": "vpc-new"});
    let mr = ManagedResource::from_value(&backed_up).unwrap();
    let verdict = Finding::new(Code::RestoreCreatesDuplicate, "m", "n").suggest(Some("vpc-new"));
    let item = promote::item(&mr, "vpcs.ec2.aws.upbound.io", &[verdict]).expect("at risk");
    // Velero creates it from the backup without status, the plan's merge patch applied; the lock
    // recorded another ID for that name.
    let mut restored = backed_up.clone();
    restored.as_object_mut().unwrap().remove("status");
    let restored = applied(&restored, &item.patch);
    let shards = lock(&[(LockKey::new("ec2.aws.upbound.io", "VPC", None, "main"), "vpc-lock")]);
    assert_eq!(judge(&set, GuardRule::IdentityLocked, &shards, &M(restored.clone()).create()), Outcome::Allowed);
    let bare = applied(
        &{
            let mut r = backed_up.clone();
            r.as_object_mut().unwrap().remove("status");
            r
        },
        &without_declaration(&item.patch),
    );
    refused(
        &judge(&set, GuardRule::IdentityLocked, &shards, &M(bare).create()),
        "Deny",
        &["Recorded ID: \"vpc-lock\""],
    );
    // promote's writes: the first takes the declaration away.
    let promoted = written(
        &set,
        &restored,
        &[
            ("request".into(), promote::request_patch(&item, "t1")),
            ("promote".into(), promote::promote_patch(&item, "t2")),
        ],
    );
    assert_eq!(annotations(&promoted).get(CHANGE), None, "{promoted}");
}

#[test]
fn migrate_creates_the_twin_with_its_id_declared_and_takes_the_declaration_away_next() {
    let set = guard();
    let crd_path = crate::support::crd_dir("provider-upjet-aws").join("ec2.aws.m.upbound.io_vpcs.yaml");
    let crd: Value = serde_saphyr::from_str(&std::fs::read_to_string(crd_path).unwrap()).unwrap();
    let target = TargetKind::from_crd(&crd).unwrap();
    let mut legacy = created();
    legacy["metadata"]["creationTimestamp"] = json!("2024-01-01T00:00:00Z");
    legacy["metadata"]["generation"] = json!(1);
    legacy["spec"]["providerConfigRef"] = json!({"name": "default"});
    let opts = migrate::Options {
        namespace: NamespaceRule::To("infra".into()),
        drop_fields: vec![],
        provider_config_kind: None,
        at: JudgedAt::upjet(GoTime::parse_or_zero(Some(NOW))),
        mrds: Default::default(),
    };
    let plan = migrate::build_plan(&[legacy], &[target], &opts);
    let item = plan.items.first().unwrap_or_else(|| panic!("refused: {:?}", plan.refused));
    let twin = migrate::apply::manifest(item);
    assert_eq!(twin["metadata"]["annotations"][CHANGE], "vpc-old");
    // The lock recorded another ID under the twin's name (an earlier twin, since deleted).
    let shards = lock(&[(LockKey::new("ec2.aws.m.upbound.io", "VPC", Some("infra"), "main"), "vpc-earlier")]);
    assert_eq!(judge(&set, GuardRule::IdentityLocked, &shards, &M(twin.clone()).create()), Outcome::Allowed);
    refused(
        &judge(&set, GuardRule::IdentityLocked, &shards, &M(item.manifest.clone()).create()),
        "Deny",
        &["vpc-earlier"],
    );
    let mut stored = twin.clone();
    stored["metadata"]["uid"] = json!("uid-twin");
    let observed = written(
        &set,
        &stored,
        &[
            ("request".into(), migrate::apply::request_patch("t1")),
            ("switch".into(), migrate::apply::switch_patch(item, "t2")),
        ],
    );
    assert_eq!(annotations(&observed).get(CHANGE), None, "{observed}");
}
