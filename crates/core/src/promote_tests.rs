use super::*;
use crate::finding::Code;
use crate::patch::apply_merge_patch;
use crate::testing::Mr;

fn finding(code: Code, id: Option<&str>) -> Finding {
    Finding::new(code, "m", "n").suggest(id)
}

/// The MR as backed up, the plan item, and the object Velero creates (merge patch applied).
fn staged(mr: Mr, findings: &[Finding]) -> (PromoteItem, Value) {
    let built = mr.build();
    let item = item(&built, "keys.kms.aws.upbound.io", findings).expect("at risk");
    let mut obj = mr.json();
    apply_merge_patch(&mut obj, &item.patch);
    (item, obj)
}

#[test]
fn the_restore_patch_leaves_each_mr_observing_with_its_id_or_paused() {
    // Duplicate with an observed ID.
    let (item, obj) = staged(
        Mr::new("Key", "k").at_provider_id("mrk-1").healthy().policies(&["Observe", "Create", "Update", "Delete"]),
        &[finding(Code::RestoreCreatesDuplicate, Some("mrk-1"))],
    );
    assert_eq!(annotation(&obj, keys::EXTERNAL_NAME), Some("mrk-1"));
    assert_eq!(annotation(&obj, IDENTITY_CHANGE), Some("mrk-1"), "the restore's create declares its ID to the guard");
    let request = request_patch(&item, "t1");
    assert_eq!(
        request["metadata"]["annotations"].get(IDENTITY_CHANGE),
        Some(&Value::Null),
        "promote's first write takes it away"
    );
    assert_eq!(policies_of(&obj), Some(vec!["Observe".to_string()]));
    assert_eq!(annotation(&obj, keys::PAUSED), None);
    assert_eq!(
        item.original.management_policies,
        Some(vec!["Observe".into(), "Create".into(), "Update".into(), "Delete".into()])
    );
    assert_eq!(
        item.restored,
        Restored { external_name: Some("mrk-1".into()), management_policies: vec!["Observe".into()], paused: false }
    );
    // No ID at all: paused too.
    let (item, obj) = staged(Mr::new("Key", "k").healthy(), &[finding(Code::RestoreCreatesDuplicate, None)]);
    assert_eq!((annotation(&obj, keys::EXTERNAL_NAME), annotation(&obj, keys::PAUSED)), (None, Some("true")));
    assert!(item.restored.paused && item.plan_paused() && item.id.is_none());
    assert_eq!(annotation(&obj, IDENTITY_CHANGE), None, "no ID, nothing to declare");
    assert_eq!(request_patch(&item, "t1")["metadata"]["annotations"].get(IDENTITY_CHANGE), None);
    // The gate: the pending mark goes, the external-name stays.
    let (item, obj) = staged(
        Mr::new("Key", "k")
            .external_name("mrk-2")
            .annotation(keys::CREATE_SUCCEEDED, "2024-11-30T10:00:00Z")
            .annotation(keys::CREATE_PENDING, "2024-11-30T10:00:05Z"),
        &[finding(Code::RestoreStopsAtCreateGate, Some("mrk-2"))],
    );
    assert_eq!(annotation(&obj, keys::CREATE_PENDING), None);
    assert_eq!(annotation(&obj, keys::CREATE_SUCCEEDED), Some("2024-11-30T10:00:00Z"));
    assert_eq!(annotation(&obj, keys::EXTERNAL_NAME), Some("mrk-2"));
    assert_eq!(annotation(&obj, IDENTITY_CHANGE), Some("mrk-2"), "the backup's own ID is declared too");
    assert!(
        item.patch.pointer("/metadata/annotations/crossplane.io~1external-name").is_none(),
        "already set: not patched"
    );
    // A user's pause is kept, never added to.
    let (item, obj) = staged(
        Mr::new("Key", "k").at_provider_id("mrk-3").annotation(keys::PAUSED, "true"),
        &[finding(Code::RestoreCreatesDuplicate, Some("mrk-3"))],
    );
    assert_eq!(annotation(&obj, keys::PAUSED), Some("true"));
    assert!(item.restored.paused && !item.plan_paused());
    // Safe: no item.
    assert!(
        super::item(&Mr::new("Key", "k").build(), "keys.kms.aws.upbound.io", &[finding(Code::RestoreSafe, None)])
            .is_none()
    );
    // A fight names the source.
    let fight = finding(Code::RestoreIntoFight, None).with("source", "prod: key.kms.aws.upbound.io/k");
    let (item, _) = staged(Mr::new("Key", "k").external_name("mrk-4"), &[fight]);
    assert_eq!((item.id.as_deref(), item.source.as_deref()), (Some("mrk-4"), Some("prod: key.kms.aws.upbound.io/k")));
}

#[test]
fn promote_decides_from_the_live_object() {
    let (item, restored) = staged(
        Mr::new("Key", "k").at_provider_id("mrk-1").healthy(),
        &[finding(Code::RestoreCreatesDuplicate, Some("mrk-1"))],
    );
    let (no_id, restored_paused) =
        staged(Mr::new("Key", "k").healthy(), &[finding(Code::RestoreCreatesDuplicate, None)]);
    let live = |base: &Value, patch: Value| {
        let mut o = base.clone();
        apply_merge_patch(&mut o, &patch);
        o
    };
    let promoted = live(&restored, promote_patch(&item, "t2"));
    let id_by_hand = live(&restored_paused, json!({"metadata": {"annotations": {keys::EXTERNAL_NAME: "mrk-9"}}}));
    let unpaused_by_promote = live(&id_by_hand, request_patch(&no_id, "t1"));
    let policies = |o: &Value, p: Value| live(o, json!({"spec": {"managementPolicies": p}}));
    let cases: Vec<(&str, &PromoteItem, Value, Start)> = vec![
        ("restored", &item, restored.clone(), Start::Verify { id: "mrk-1".into() }),
        ("token requested", &item, live(&restored, request_patch(&item, "t1")), Start::Verify { id: "mrk-1".into() }),
        ("promoted", &item, promoted.clone(), Start::Promoted),
        (
            "promoted, the API server defaulted absent policies",
            &item,
            policies(&promoted, json!(["*"])),
            Start::Promoted,
        ),
        (
            "someone changed the ID",
            &item,
            live(&restored, json!({"metadata": {"annotations": {keys::EXTERNAL_NAME: "mrk-X"}}})),
            Start::Changed(String::new()),
        ),
        (
            "someone widened the policies",
            &item,
            policies(&restored, json!(["Observe", "Create"])),
            Start::Changed(String::new()),
        ),
        ("no ID yet", &no_id, restored_paused.clone(), Start::NeedsId),
        (
            "a placeholder is no ID: left, never asked for an Observe",
            &no_id,
            live(&restored_paused, json!({"metadata": {"annotations": {keys::EXTERNAL_NAME: "STUB123456"}}})),
            Start::NeedsId,
        ),
        ("an ID set by hand", &no_id, id_by_hand, Start::Verify { id: "mrk-9".into() }),
        ("unpaused by an earlier run", &no_id, unpaused_by_promote, Start::Verify { id: "mrk-9".into() }),
    ];
    for (name, item, obj, want) in cases {
        let got = start(item, &obj, false);
        match (&got, &want) {
            (Start::Changed(why), Start::Changed(_)) => {
                assert!(why.starts_with("changed since the plan"), "{name}: {why}")
            }
            _ => assert_eq!(got, want, "{name}"),
        }
    }
    let mut fight = item.clone();
    fight.source = Some("prod: k".into());
    assert_eq!(start(&fight, &restored, false), Start::Fight("prod: k".into()));
    assert_eq!(start(&fight, &restored, true), Start::Verify { id: "mrk-1".into() });
    let mut user = item.clone();
    user.original.paused = Some("true".into());
    user.restored.paused = true;
    assert_eq!(
        start(&user, &live(&restored, json!({"metadata": {"annotations": {keys::PAUSED: "true"}}})), false),
        Start::UserPaused
    );
}

#[test]
fn plans_round_trip_and_bad_ones_are_refused() {
    let (item, _) = staged(
        Mr::new("Key", "k").at_provider_id("mrk-1").healthy(),
        &[finding(Code::RestoreCreatesDuplicate, Some("mrk-1"))],
    );
    let plan = PromotePlan {
        api_version: "upjet.doctor/v1".into(),
        kind: "PromotePlan".into(),
        backup: "b".into(),
        config_map: "velero/x".into(),
        items: vec![item.clone()],
    };
    let text = serde_json::to_string(&plan).unwrap();
    assert_eq!(parse(&text).unwrap(), plan);
    let twice = PromotePlan { items: vec![item.clone(), item], ..plan.clone() };
    assert!(parse(&serde_json::to_string(&twice).unwrap()).unwrap_err().contains("listed twice"));
    assert!(parse("[]").unwrap_err().starts_with("not a promote plan"));
    assert!(parse(&text.replace("PromotePlan", "Report")).unwrap_err().contains("kind \"Report\""));
}

#[test]
fn every_verdict_but_safe_puts_an_mr_in_the_plan() {
    let at_risk: Vec<Code> = Code::ALL.iter().copied().filter(|c| at_risk(*c)).collect();
    assert_eq!(at_risk, [Code::RestoreCreatesDuplicate, Code::RestoreStopsAtCreateGate, Code::RestoreIntoFight]);
}
