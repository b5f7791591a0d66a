//! Table tests of the plan builder, one per field rule, and of the stage an item is in.

use super::apply::{self, Stage};
use super::schema::{Node, TargetKind};
use super::*;
use crate::gotime::GoTime;
use crate::managed::legacy_group;
use crate::reconcile_timeout::JudgedAt;
use serde_json::{Value, json};

/// A namespaced Subnet CRD cut down to the shapes the rules read (the real pair is read by
/// tests/migrate.rs).
fn subnet_crd() -> Value {
    let reference = json!({"type": "object", "properties": {"name": {"type": "string"}, "namespace": {"type": "string"},
        "policy": {"type": "object", "properties": {"resolve": {"type": "string"}}}}});
    let selector = json!({"type": "object", "properties": {"matchLabels": {"type": "object", "additionalProperties": {"type": "string"}},
        "matchControllerRef": {"type": "boolean"}, "namespace": {"type": "string"}}});
    let params = json!({"type": "object", "properties": {
        "region": {"type": "string"}, "cidrBlock": {"type": "string"}, "vpcId": {"type": "string"},
        "vpcIdRef": reference, "vpcIdSelector": selector,
        "tags": {"type": "object", "additionalProperties": {"type": "string"}},
        "timeouts": {"type": "array", "items": {"type": "object", "properties": {"create": {"type": "string"}}}}
    }});
    json!({
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": "subnets.ec2.aws.m.upbound.io"},
        "spec": {"group": "ec2.aws.m.upbound.io", "scope": "Namespaced",
            "names": {"kind": "Subnet", "plural": "subnets", "categories": ["crossplane", "managed", "aws"]},
            "versions": [{"name": "v1beta1", "served": true, "storage": true, "schema": {"openAPIV3Schema": {"type": "object",
                "properties": {"spec": {"type": "object", "properties": {
                    "forProvider": params, "initProvider": params,
                    "providerConfigRef": {"default": {"kind": "ClusterProviderConfig", "name": "default"}, "type": "object"}
                }}}}}}]}
    })
}

fn targets() -> Vec<TargetKind> {
    vec![TargetKind::from_crd(&subnet_crd()).unwrap()]
}

fn subnet(name: &str) -> Value {
    json!({
        "apiVersion": "ec2.aws.upbound.io/v1beta1", "kind": "Subnet",
        "metadata": {"name": name, "generation": 3, "resourceVersion": "7", "uid": "u-1",
            "creationTimestamp": "2024-01-01T00:00:00Z", "finalizers": ["finalizer.managedresource.crossplane.io"],
            "labels": {"team": "net"},
            "annotations": {"crossplane.io/external-name": format!("subnet-{name}"), "owner": "net-team",
                "crossplane.io/external-create-succeeded": "2024-01-01T00:00:01Z",
                "upjet.crossplane.io/provider-meta": "{}"}},
        "spec": {"forProvider": {"region": "eu-west-1", "cidrBlock": "10.0.1.0/24"},
            "providerConfigRef": {"name": "default"}},
        "status": {"atProvider": {"id": format!("subnet-{name}")}}
    })
}

fn opts() -> Options {
    Options {
        namespace: NamespaceRule::To("team-a".into()),
        drop_fields: vec![],
        provider_config_kind: None,
        at: JudgedAt::upjet(GoTime::parse_or_zero(Some("2024-11-30T12:00:00Z"))),
        mrds: Default::default(),
    }
}

/// A legacy kind whose twin has no CRD: refused, and when the cluster's MRD for the twin is
/// inactive, the refusal carries the command that activates it.
#[test]
fn a_twin_without_crd_is_refused_with_how_to_serve_it() {
    use crate::mrd::{Mrd, MrdStates};
    let mut vpc = subnet("v");
    vpc["kind"] = json!("VPC");
    let p = plan_of(std::slice::from_ref(&vpc), &opts());
    assert!(p.refused[0].reason.contains("is not installed"), "{}", p.refused[0].reason);
    let mrd = Mrd {
        name: "vpcs.ec2.aws.m.upbound.io".into(),
        group: "ec2.aws.m.upbound.io".into(),
        kind: "VPC".into(),
        active: false,
        deleted_at: None,
    };
    let inactive = Options { mrds: MrdStates::new([mrd]), ..opts() };
    let p = plan_of(&[vpc], &inactive);
    assert!(
        p.refused[0].reason.contains("its ManagedResourceDefinition vpcs.ec2.aws.m.upbound.io is inactive; activate it (kubectl patch managedresourcedefinition vpcs.ec2.aws.m.upbound.io --type merge -p '{\"spec\":{\"state\":\"Active\"}}'"),
        "{}",
        p.refused[0].reason
    );
}

fn plan_of(objs: &[Value], opts: &Options) -> MigrationPlan {
    build_plan(objs, &targets(), opts)
}

fn one(obj: Value) -> Result<Item, String> {
    let p = plan_of(&[obj], &opts());
    match (p.items.first(), p.refused.first()) {
        (Some(i), _) => Ok(i.clone()),
        (_, Some(r)) => Err(r.reason.clone()),
        _ => Err("nothing".into()),
    }
}

fn with(mut obj: Value, pointer: &str, v: Value) -> Value {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    obj.pointer_mut(parent).unwrap()[key] = v;
    obj
}

#[test]
fn the_twin_is_the_same_kind_in_the_m_group_at_its_storage_version() {
    assert_eq!(legacy_group("ec2.aws.m.upbound.io").as_deref(), Some("ec2.aws.upbound.io"));
    assert_eq!(legacy_group("ec2.aws.upbound.io"), None);
    let item = one(subnet("a")).unwrap();
    assert_eq!(item.manifest["apiVersion"], "ec2.aws.m.upbound.io/v1beta1");
    assert_eq!(item.manifest["kind"], "Subnet");
    assert_eq!(item.target.resource, "subnet.ec2.aws.m.upbound.io/a");
    assert_eq!(item.legacy.resource, "subnet.ec2.aws.upbound.io/a");
    let mut other = subnet("b");
    other["kind"] = json!("RouteTable");
    let why = one(other).unwrap_err();
    assert!(
        why.contains("RouteTable.ec2.aws.m.upbound.io is not installed") && why.contains("ManagedResourceDefinition"),
        "{why}"
    );
}

#[test]
fn metadata_keeps_the_users_and_drops_bookkeeping() {
    let m = one(subnet("a")).unwrap().manifest;
    assert_eq!(m["metadata"]["name"], "a");
    assert_eq!(m["metadata"]["namespace"], "team-a");
    assert_eq!(m["metadata"]["labels"], json!({"team": "net"}));
    assert_eq!(
        m["metadata"]["annotations"],
        json!({"owner": "net-team", "crossplane.io/external-name": "subnet-a", MIGRATED_FROM: "subnet.ec2.aws.upbound.io/a"})
    );
    for gone in ["uid", "resourceVersion", "generation", "finalizers", "creationTimestamp"] {
        assert!(m["metadata"].get(gone).is_none(), "{gone}");
    }
    assert!(m.get("status").is_none());
}

/// upjet's field-conversions record holds values of the legacy kind's API versions, which its
/// controller merges into the Terraform parameters over the spec: on the twin it would do that
/// with another kind's leftovers. A Usage's label and its record of a refused delete belong to
/// the legacy MR the Usage names. None is carried over; the plan says the legacy MR is in use.
#[test]
fn upjets_conversion_record_and_a_usages_marks_stay_with_the_legacy_mr() {
    use crate::managed::keys;
    let mut legacy = subnet("a");
    legacy["metadata"]["annotations"][keys::FIELD_CONVERSIONS] =
        json!(r#"{"spec.forProvider.mapPublicIpOnLaunch":true}"#);
    legacy["metadata"]["annotations"][keys::USAGE_DELETION_ATTEMPT] = json!("Background");
    legacy["metadata"]["labels"][keys::IN_USE_LABEL] = json!("true");
    let item = one(legacy).unwrap();
    let meta = &item.manifest["metadata"];
    assert_eq!(meta["labels"], json!({"team": "net"}));
    for gone in [keys::FIELD_CONVERSIONS, keys::USAGE_DELETION_ATTEMPT] {
        assert!(meta["annotations"].get(gone).is_none(), "{gone} carried over: {meta}");
    }
    assert!(item.in_use);
    assert!(!one(subnet("b")).unwrap().in_use);
}

#[test]
fn the_id_is_the_external_name_or_the_best_ranked_candidate_never_a_placeholder() {
    let item = one(subnet("a")).unwrap();
    assert_eq!((item.external_name.as_str(), item.id_source.as_str()), ("subnet-a", "crossplane.io/external-name"));
    // Lost its external-name, but its status names the object: the rules' suggestion.
    let mut lost = subnet("b");
    lost["metadata"]["annotations"].as_object_mut().unwrap().remove("crossplane.io/external-name");
    let item = one(lost.clone()).unwrap();
    assert_eq!((item.external_name.as_str(), item.id_source.as_str()), ("subnet-b", "ExternalNameMissing"));
    // A placeholder is no ID; nothing else suggests one: refused, named.
    lost["metadata"]["annotations"]["crossplane.io/external-name"] = json!("");
    lost["status"] = json!({});
    let why = one(lost).unwrap_err();
    assert!(why.starts_with("no ID"), "{why}");
}

#[test]
fn provider_fields_are_checked_against_the_target_schema_and_dropped_on_request() {
    let odd = with(subnet("a"), "/spec/forProvider/mapPublicIpOnLaunch", json!(true));
    let odd = with(odd, "/spec/forProvider/timeouts", json!([{"create": "5m", "delete": "1m"}]));
    let why = one(odd.clone()).unwrap_err();
    assert!(why.contains("spec.forProvider.mapPublicIpOnLaunch, spec.forProvider.timeouts.delete are not in"), "{why}");
    assert!(why.contains("--drop-field"), "{why}");
    let mut o = opts();
    o.drop_fields = vec!["spec.forProvider.mapPublicIpOnLaunch".into(), "forProvider.timeouts.delete".into()];
    let p = plan_of(&[odd], &o);
    let item = &p.items[0];
    assert_eq!(item.dropped, vec!["spec.forProvider.mapPublicIpOnLaunch", "spec.forProvider.timeouts.delete"]);
    assert_eq!(item.manifest["spec"]["forProvider"]["timeouts"], json!([{"create": "5m"}]));
    // A list where the target wants an object is named too.
    let shape = with(subnet("c"), "/spec/initProvider", json!({"tags": ["x"]}));
    assert!(one(shape).unwrap_err().contains("spec.initProvider.tags (a list where the target expects an object)"));
    // Open maps accept any key.
    assert!(one(with(subnet("d"), "/spec/forProvider/tags", json!({"any": "thing"}))).is_ok());
}

#[test]
fn provider_config_ref_becomes_kind_and_name() {
    let item = one(subnet("a")).unwrap();
    assert_eq!(item.manifest["spec"]["providerConfigRef"], json!({"kind": "ClusterProviderConfig", "name": "default"}));
    let mut o = opts();
    o.provider_config_kind = Some("ProviderConfig".into());
    let p = plan_of(&[subnet("a")], &o);
    assert_eq!(p.items[0].manifest["spec"]["providerConfigRef"], json!({"kind": "ProviderConfig", "name": "default"}));
}

#[test]
fn the_connection_secret_loses_its_namespace_which_must_be_the_target() {
    let ok = with(subnet("a"), "/spec/writeConnectionSecretToRef", json!({"name": "s", "namespace": "team-a"}));
    assert_eq!(one(ok).unwrap().manifest["spec"]["writeConnectionSecretToRef"], json!({"name": "s"}));
    let away =
        with(subnet("a"), "/spec/writeConnectionSecretToRef", json!({"name": "s", "namespace": "crossplane-system"}));
    assert!(one(away).unwrap_err().contains("names a secret in namespace \"crossplane-system\""));
    let publish = with(subnet("a"), "/spec/publishConnectionDetailsTo", json!({"name": "s"}));
    assert!(one(publish).unwrap_err().starts_with("spec.publishConnectionDetailsTo: namespaced MRs cannot publish"));
    let unknown = with(subnet("a"), "/spec/somethingNew", json!(1));
    assert!(one(unknown).unwrap_err().contains("spec.somethingNew has no counterpart"));
}

#[test]
fn references_point_at_migrated_mrs_in_their_target_namespace() {
    let vpc = |name: &str, ns: &str| {
        let mut v = subnet(name);
        v["metadata"]["labels"]["ns"] = json!(ns);
        v
    };
    let child = with(vpc("child", "team-a"), "/spec/forProvider/vpcIdRef", json!({"name": "main"}));
    let child = with(child, "/spec/forProvider/vpcId", json!("subnet-main"));
    let child = with(child, "/spec/forProvider/vpcIdSelector", json!({"matchLabels": {"x": "y"}}));
    let mut o = opts();
    o.namespace = NamespaceRule::Label("ns".into());
    let p = plan_of(&[child.clone(), vpc("main", "team-b")], &o);
    assert!(p.refused.is_empty(), "{:?}", p.refused);
    let fp = &p.items[0].manifest["spec"]["forProvider"];
    assert_eq!(fp["vpcIdRef"], json!({"name": "main", "namespace": "team-b"}));
    assert_eq!(fp["vpcIdSelector"]["namespace"], "team-a");
    // The same name in two namespaces: the one whose ID the reference resolved to.
    let p = plan_of(
        &[child.clone(), vpc("main", "team-b"), {
            let mut x = vpc("main", "team-c");
            x["kind"] = json!("Subnet");
            x["metadata"]["annotations"]["crossplane.io/external-name"] = json!("other");
            x
        }],
        &o,
    );
    assert_eq!(p.items[0].manifest["spec"]["forProvider"]["vpcIdRef"]["namespace"], "team-b");
    // Not in the plan: refused, named.
    let p = plan_of(&[child], &o);
    assert!(p.items.is_empty());
    assert!(
        p.refused[0]
            .reason
            .starts_with("spec.forProvider.vpcIdRef refers to \"main\", which this plan does not migrate"),
        "{:?}",
        p.refused
    );
    // A secret key reference loses its namespace, which must be the MR's own.
    let pw = with(
        subnet("s"),
        "/spec/forProvider/passwordSecretRef",
        json!({"key": "k", "name": "pw", "namespace": "team-a"}),
    );
    let mut schema_ok = targets();
    schema_ok[0]
        .for_provider
        .properties
        .insert("passwordSecretRef".into(), Node { open: true, kind: "object".into(), ..Node::default() });
    let p = build_plan(std::slice::from_ref(&pw), &schema_ok, &opts());
    assert_eq!(p.items[0].manifest["spec"]["forProvider"]["passwordSecretRef"], json!({"key": "k", "name": "pw"}));
    let away = with(pw, "/spec/forProvider/passwordSecretRef/namespace", json!("vault"));
    let p = build_plan(&[away], &schema_ok, &opts());
    assert!(p.refused[0].reason.contains("passwordSecretRef names a secret in namespace \"vault\""), "{:?}", p.refused);
    // No label to take the namespace from: refused, named.
    let p = plan_of(&[subnet("z")], &o);
    assert!(p.refused[0].reason.contains("no label \"ns\""));
}

#[test]
fn composed_and_namespaced_mrs_are_not_migrated() {
    let composed = with(subnet("a"), "/metadata/labels/crossplane.io~1composite", json!("xnet-1"));
    let composed = {
        let mut c = composed;
        c["metadata"]["labels"]["crossplane.io/composite"] = json!("xnet-1");
        c
    };
    assert!(one(composed).unwrap_err().starts_with("composed by xnet-1: its composition would create it again"));
    let owned = with(subnet("a"), "/metadata/ownerReferences", json!([{"kind": "XNetwork", "name": "n"}]));
    assert!(one(owned).unwrap_err().starts_with("composed by its owner"));
    let ns = with(subnet("a"), "/metadata/namespace", json!("x"));
    assert!(one(ns).unwrap_err().starts_with("already namespaced"));
}

#[test]
fn starts_observing_and_ends_with_the_legacy_policies_orphan_mapped() {
    // (legacy managementPolicies, deletionPolicy) → (hold's policies, final policies)
    let s = |l: &[&str]| Some(l.iter().map(|x| x.to_string()).collect::<Vec<_>>());
    let cases: Vec<(Option<Vec<String>>, Option<&str>, Option<Vec<String>>, Option<Vec<String>>)> = vec![
        (None, None, None, None),
        (None, Some("Orphan"), None, s(&["Observe", "Create", "Update", "LateInitialize"])),
        (s(&["*"]), Some("Orphan"), None, s(&["Observe", "Create", "Update", "LateInitialize"])),
        // An explicit set with Delete deletes whatever deletionPolicy says (policies.go
        // ShouldDelete): the hold removes it, and the namespaced MR keeps it, as the legacy had it.
        (
            s(&["Observe", "Create", "Update", "Delete"]),
            Some("Orphan"),
            s(&["Observe", "Create", "Update"]),
            s(&["Observe", "Create", "Update", "Delete"]),
        ),
        (
            s(&["Observe", "Create", "Update", "Delete"]),
            None,
            s(&["Observe", "Create", "Update"]),
            s(&["Observe", "Create", "Update", "Delete"]),
        ),
        (s(&["Observe"]), None, None, s(&["Observe"])),
        (s(&["Observe", "Delete"]), Some("Orphan"), s(&["Observe"]), s(&["Observe", "Delete"])),
        (
            s(&["Observe", "Create", "Update", "LateInitialize"]),
            None,
            None,
            s(&["Observe", "Create", "Update", "LateInitialize"]),
        ),
    ];
    for (listed, deletion, hold, fin) in cases {
        let mut obj = subnet("a");
        if let Some(l) = &listed {
            obj["spec"]["managementPolicies"] = json!(l);
        }
        if let Some(d) = deletion {
            obj["spec"]["deletionPolicy"] = json!(d);
        }
        let item = one(obj).unwrap();
        let case = format!("{listed:?} {deletion:?}");
        assert_eq!(item.manifest["spec"]["managementPolicies"], json!(["Observe"]), "{case}");
        assert!(item.manifest["spec"].get("deletionPolicy").is_none(), "{case}");
        assert_eq!(item.hold["spec"]["deletionPolicy"], "Orphan", "{case}");
        assert_eq!(item.hold["spec"].get("managementPolicies").cloned(), hold.map(|h| json!(h)), "{case}");
        assert_eq!(item.final_policies, fin, "{case}");
        assert_eq!(item.hold["metadata"]["annotations"][HELD_FOR], "team-a/a");
    }
}

#[test]
fn schema_nodes_read_open_maps_and_lists() {
    let n = Node::parse(&json!({"type": "object", "x-kubernetes-preserve-unknown-fields": true}));
    assert!(n.open);
    let mut out = vec![];
    Node::parse(&json!({"type": "object", "properties": {"a": {"type": "string"}}})).unknown_fields(
        &json!({"a": 1, "b": 2}),
        "p",
        &mut out,
    );
    assert_eq!(out, vec!["p.b"]);
}

fn held(item: &Item, legacy: &Value) -> Value {
    let mut l = legacy.clone();
    crate::patch::apply_merge_patch(&mut l, &item.hold);
    l
}

fn created(item: &Item, policies: Value) -> Value {
    let mut m = apply::manifest(item);
    m["spec"]["managementPolicies"] = policies;
    m
}

#[test]
fn the_stage_is_read_from_the_two_objects() {
    let legacy = subnet("a");
    let item = one(legacy.clone()).unwrap();
    let fin = json!(null);
    assert_eq!(apply::stage(&item, Some(&legacy), None), Stage::Planned);
    let h = held(&item, &legacy);
    assert_eq!(apply::stage(&item, Some(&h), None), Stage::Held);
    let obs = created(&item, json!(["Observe"]));
    assert_eq!(apply::stage(&item, Some(&h), Some(&obs)), Stage::Observing);
    let done = created(&item, fin);
    assert_eq!(apply::stage(&item, Some(&h), Some(&done)), Stage::Switched { deleting: false });
    let mut deleting = h.clone();
    deleting["metadata"]["deletionTimestamp"] = json!("2024-11-30T12:00:00Z");
    assert_eq!(apply::stage(&item, Some(&deleting), Some(&done)), Stage::Switched { deleting: true });
    assert_eq!(apply::stage(&item, None, Some(&done)), Stage::Done);
    // Changed since the plan, a name taken by another MR, a twin tracking another ID.
    let changed = with(legacy.clone(), "/metadata/generation", json!(4));
    assert!(
        matches!(apply::stage(&item, Some(&changed), None), Stage::Changed(w) if w.contains("spec changed since the plan"))
    );
    let mut stranger = obs.clone();
    stranger["metadata"]["annotations"].as_object_mut().unwrap().remove(MIGRATED_FROM);
    assert!(
        matches!(apply::stage(&item, Some(&legacy), Some(&stranger)), Stage::Changed(w) if w.contains("the name is taken"))
    );
    // The rollback puts the planned values back and removes the mark.
    let mut back = h.clone();
    crate::patch::apply_merge_patch(&mut back, &apply::rollback_patch(&item));
    assert_eq!(back, legacy);
}

/// A twin the plan found in place (a hand migration, parked): the legacy MR is held first, then
/// deleted; the twin is never written.
#[test]
fn a_twin_found_in_place_is_finished_around() {
    let mut legacy = subnet("a");
    legacy["metadata"]["annotations"]["crossplane.io/paused"] = json!("true");
    legacy["spec"]["deletionPolicy"] = json!("Orphan");
    let mut item = one(legacy.clone()).unwrap();
    let mut twin = created(&item, json!(["*"]));
    twin["metadata"]["annotations"].as_object_mut().unwrap().remove(MIGRATED_FROM);
    assert!(
        matches!(apply::stage(&item, Some(&legacy), Some(&twin)), Stage::Changed(w) if w.contains("the name is taken"))
    );
    item.twin_exists = true;
    item.final_policies = Some(vec!["*".into()]);
    assert_eq!(apply::stage(&item, Some(&legacy), Some(&twin)), Stage::Planned);
    let h = held(&item, &legacy);
    assert_eq!(apply::stage(&item, Some(&h), Some(&twin)), Stage::Switched { deleting: false });
    assert_eq!(apply::stage(&item, None, Some(&twin)), Stage::Done);
    let changed = with(legacy.clone(), "/metadata/generation", json!(4));
    assert!(
        matches!(apply::stage(&item, Some(&changed), Some(&twin)), Stage::Changed(w) if w.contains("spec changed"))
    );
}

/// An observe-only legacy MR: its twin is created with its final policies, yet it is not
/// switched (nor the legacy MR deleted) until step d marks its Observe confirmed.
#[test]
fn an_observe_only_twin_waits_for_its_observe() {
    let legacy = with(subnet("a"), "/spec/managementPolicies", json!(["Observe"]));
    let item = one(legacy.clone()).unwrap();
    assert_eq!(item.final_policies, Some(vec!["Observe".to_string()]));
    let h = held(&item, &legacy);
    let mut twin = created(&item, json!(["Observe"]));
    assert_eq!(apply::stage(&item, Some(&h), Some(&twin)), Stage::Observing);
    assert_eq!(apply::stage(&item, None, Some(&twin)), Stage::Observing, "not done before its Observe");
    crate::patch::apply_merge_patch(&mut twin, &apply::switch_patch(&item, "t"));
    assert_eq!(apply::stage(&item, Some(&h), Some(&twin)), Stage::Switched { deleting: false });
    assert_eq!(apply::stage(&item, None, Some(&twin)), Stage::Done);
}

/// The plan from JSON text (a snapshot, decoded MR by MR) is the plan from the decoded objects.
#[test]
fn a_plan_from_json_text_is_the_plan_from_objects() {
    let mut other = subnet("b");
    other["spec"]["publishConnectionDetailsTo"] = json!({"name": "x"});
    let objs = [subnet("a"), other, subnet("c")];
    let text: Vec<String> = objs.iter().map(Value::to_string).collect();
    let from_text = super::build_plan_from_json(&text, &targets(), &opts());
    assert_eq!(from_text, plan_of(&objs, &opts()));
    assert_eq!((from_text.items.len(), from_text.refused.len()), (2, 1));
}

#[test]
fn plans_round_trip_and_bad_plans_are_named() {
    let p = plan_of(&[subnet("a"), subnet("b")], &opts());
    let text = serde_json::to_string(&p).unwrap();
    assert_eq!(parse(&text).unwrap(), p);
    assert!(parse("{}").unwrap_err().starts_with("not a migration plan"));
    let mut twice = p.clone();
    twice.items[1] = twice.items[0].clone();
    assert!(parse(&serde_json::to_string(&twice).unwrap()).unwrap_err().contains("listed twice"));
}
