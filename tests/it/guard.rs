//! The guard's identity rules and lock, evaluated as the API server evaluates them
//! (`support::guard_cel`, cel-rust) over fixtures for every path that lets a write through and
//! every path that refuses it; the other rules are in `guard_rules.rs`, the printed objects'
//! shape in `guard_manifests.rs`.

use crate::support::guard_cel::{Compiled, Outcome, Params, Request};
use serde_json::{Value, json};
use upjet_core::guard::kind::GuardKind;
use upjet_core::guard::lock::key::LockKey;
use upjet_core::guard::lock::merge::{Change, merge};
use upjet_core::guard::lock::{crd, shard::Shard};
use upjet_core::guard::rule::GuardRule;
use upjet_core::guard::settings::GuardSettings;
use upjet_core::guard::{GuardSet, build};

pub const EXT: &str = "crossplane.io/external-name";
pub const SUCCEEDED: &str = "crossplane.io/external-create-succeeded";
pub const CHANGE: &str = "kubectl-upjet.io/identity-change";

/// An MR object: a legacy cluster-scoped VPC, or its namespaced `.m.` twin.
#[derive(Clone)]
pub struct M(pub Value);

impl M {
    pub fn cluster(name: &str) -> M {
        M(json!({"apiVersion": "ec2.aws.upbound.io/v1beta1", "kind": "VPC",
            "metadata": {"name": name}, "spec": {"forProvider": {"region": "eu-west-1"}}}))
    }
    pub fn namespaced(ns: &str, name: &str) -> M {
        M(json!({"apiVersion": "ec2.aws.m.upbound.io/v1beta1", "kind": "VPC",
            "metadata": {"name": name, "namespace": ns}, "spec": {"forProvider": {"region": "eu-west-1"}}}))
    }
    pub fn ann(mut self, k: &str, v: &str) -> M {
        self.0["metadata"]["annotations"][k] = json!(v);
        self
    }
    pub fn ext(self, v: &str) -> M {
        self.ann(EXT, v)
    }
    pub fn ready(mut self) -> M {
        self.0["status"]["conditions"] =
            json!([{"type": "Synced", "status": "True"}, {"type": "Ready", "status": "True"}]);
        self
    }
    pub fn at_provider(mut self, id: &str) -> M {
        self.0["status"]["atProvider"] = json!({"id": id});
        self
    }
    pub fn label(mut self, k: &str, v: &str) -> M {
        self.0["metadata"]["labels"][k] = json!(v);
        self
    }
    pub fn set(mut self, pointer: &str, v: Value) -> M {
        let parts: Vec<&str> = pointer.split('/').skip(1).collect();
        let mut at = &mut self.0;
        for p in parts {
            at = &mut at[p];
        }
        *at = v;
        self
    }
    pub fn plural(&self) -> &'static str {
        match self.0["kind"].as_str() {
            Some("RecordSet") => "recordsets",
            _ => "vpcs",
        }
    }
    pub fn create(&self) -> Request {
        Request::create(self.0.clone(), self.plural())
    }
    pub fn update_to(&self, new: &M) -> Request {
        Request::update(self.0.clone(), new.0.clone(), self.plural())
    }
}

pub fn kinds() -> Vec<GuardKind> {
    vec![
        GuardKind::new("ec2.aws.upbound.io", "VPC", "vpcs", false),
        GuardKind::new("ec2.aws.m.upbound.io", "VPC", "vpcs", true),
    ]
}

/// The outcome of `rule`'s validating policy for `req`.
pub fn judge(set: &GuardSet, rule: GuardRule, shards: &[Value], req: &Request) -> Outcome {
    let p = set.validating.iter().find(|p| p.rule == rule).unwrap_or_else(|| panic!("no {rule} policy"));
    Compiled::new(&p.policy).validate(&p.binding, &Params::new(shards), req)
}

/// Asserts a refusal with its message expression's text, holding every `parts`.
pub fn refused(outcome: &Outcome, action: &str, parts: &[&str]) {
    let Outcome::Failed { actions, message, from_expression, .. } = outcome else { panic!("not refused: {outcome:?}") };
    assert_eq!(actions, &[action.to_string()], "{message}");
    assert!(from_expression, "the message expression failed, the fallback was used: {message}");
    for p in parts {
        assert!(message.contains(p), "{p:?} not in {message}");
    }
}

fn guard() -> GuardSet {
    build(&kinds(), &GuardSettings::default(), &[])
}

const CREATED_MARK: &str = "2024-11-30T10:53:06Z";

#[test]
fn identity_kept_refuses_losing_or_replacing_the_id_of_an_mr_that_created_its_object() {
    let set = guard();
    let marked = M::cluster("main").ext("vpc-0abc").ann(SUCCEEDED, CREATED_MARK);
    let observed = M::namespaced("team-a", "main").ext("vpc-0abc").at_provider("vpc-0abc");
    let ready = M::cluster("main").ext("vpc-0abc").ready();
    let mut bare = marked.clone();
    bare.0["metadata"]["annotations"].as_object_mut().unwrap().remove(EXT);
    let removed = judge(&set, GuardRule::IdentityKept, &[], &marked.update_to(&bare));
    refused(
        &removed,
        "Deny",
        &[
            "removes crossplane.io/external-name of vpcs.ec2.aws.upbound.io/main",
            "\"vpc-0abc\"",
            "kubectl upjet adopt vpcs.ec2.aws.upbound.io/main --id NEW_ID",
        ],
    );
    let changed = judge(&set, GuardRule::IdentityKept, &[], &observed.update_to(&observed.clone().ext("vpc-0def")));
    refused(&changed, "Deny", &["changes", "vpcs.ec2.aws.m.upbound.io/main -n team-a", "this write: \"vpc-0def\""]);
    let to_stub = judge(&set, GuardRule::IdentityKept, &[], &ready.update_to(&ready.clone().ext("sgr-stub")));
    refused(&to_stub, "Deny", &["\"vpc-0abc\""]);
    let Outcome::Failed { reason, .. } = to_stub else { unreachable!() };
    assert_eq!(reason, "Forbidden");
}

#[test]
fn identity_kept_lets_every_other_write_through() {
    let set = guard();
    let created = M::cluster("main").ext("vpc-0abc").ann(SUCCEEDED, CREATED_MARK);
    let cases: Vec<(&str, Request)> = vec![
        ("another field", created.update_to(&created.clone().label("team", "a"))),
        ("a placeholder was no identity", {
            let stub = M::cluster("main").ext("sgr-stub").ready();
            stub.update_to(&stub.clone().ext("sgr-0123"))
        }),
        ("no external-name before", {
            let fresh = M::cluster("main").ready();
            fresh.update_to(&fresh.clone().ext("vpc-0abc"))
        }),
        ("never created: no mark, empty atProvider, not Ready", {
            let named = M::cluster("main").ext("main").set("/status/atProvider", json!({}));
            named.update_to(&named.clone().ext("vpc-0abc"))
        }),
        (
            "a repair declaring the ID it writes",
            created.update_to(&created.clone().ext("vpc-0def").ann(CHANGE, "vpc-0def")),
        ),
    ];
    for (what, req) in cases {
        assert_eq!(judge(&set, GuardRule::IdentityKept, &[], &req), Outcome::Allowed, "{what}");
    }
    let stray = created.update_to(&created.clone().ext("vpc-0def").ann(CHANGE, "vpc-0zzz"));
    refused(&judge(&set, GuardRule::IdentityKept, &[], &stray), "Deny", &["vpc-0def"]);
    let mut bare = created.clone();
    bare.0["metadata"]["annotations"].as_object_mut().unwrap().remove(EXT);
    let empty_declaration = created.update_to(&bare.ann(CHANGE, ""));
    refused(&judge(&set, GuardRule::IdentityKept, &[], &empty_declaration), "Deny", &["removes"]);
}

#[test]
fn providers_and_allowed_subjects_are_never_refused_and_delete_is_never_matched() {
    let mut settings = GuardSettings::default();
    settings.exempt_service_account("crossplane-system", "provider-aws-ec2-1a2b3c");
    settings.groups.insert("platform:break-glass".into());
    let set = build(&kinds(), &settings, &[]);
    let created = M::cluster("main").ext("vpc-0abc").ann(SUCCEEDED, CREATED_MARK);
    let change = created.update_to(&created.clone().ext("vpc-0def"));
    let provider = change.clone().by("system:serviceaccount:crossplane-system:provider-aws-ec2-1a2b3c", &[]);
    assert_eq!(judge(&set, GuardRule::IdentityKept, &[], &provider), Outcome::Skipped);
    let break_glass = change.clone().by("bob", &["system:authenticated", "platform:break-glass"]);
    assert_eq!(judge(&set, GuardRule::IdentityKept, &[], &break_glass), Outcome::Skipped);
    let no_groups = change.clone().by("system:serviceaccount:crossplane-system:other", &[]);
    refused(&judge(&set, GuardRule::IdentityKept, &[], &no_groups), "Deny", &["vpc-0abc"]);
    for p in set.validating.iter().chain(&set.mutating) {
        let rules = p.policy["spec"]["matchConstraints"]["resourceRules"].as_array().unwrap();
        assert!(rules.iter().all(|r| !r["operations"].as_array().unwrap().iter().any(|o| o == "DELETE" || o == "*")));
        assert_eq!(p.policy["spec"]["failurePolicy"], "Ignore", "{}", p.rule);
    }
}

/// The lock as `guard lock` would write it, as objects.
pub fn lock(entries: &[(LockKey, &str)]) -> Vec<Value> {
    let change = Change { add: entries.iter().map(|(k, v)| (k.clone(), v.to_string())).collect(), ..Change::default() };
    merge(&[], &change).writes.iter().map(|w| crd::shard_object(w.shard(), false)).collect()
}

fn locked() -> Vec<Value> {
    lock(&[
        (LockKey::new("ec2.aws.upbound.io", "VPC", None, "main"), "vpc-0abc"),
        (LockKey::new("ec2.aws.m.upbound.io", "VPC", Some("team-a"), "web"), "vpc-0def"),
        (LockKey::new("ec2.aws.upbound.io", "VPC", None, "named"), "named"),
    ])
}

#[test]
fn identity_locked_refuses_a_create_without_the_recorded_id() {
    let set = guard();
    let shards = locked();
    let bare = judge(&set, GuardRule::IdentityLocked, &shards, &M::cluster("main").create());
    refused(
        &bare,
        "Deny",
        &[
            "vpcs.ec2.aws.upbound.io/main is created without crossplane.io/external-name",
            "Recorded ID: \"vpc-0abc\"",
            "kubectl upjet guard unlock vpcs.ec2.aws.upbound.io/main",
            "kubectl-upjet-lock-0000",
        ],
    );
    let other =
        judge(&set, GuardRule::IdentityLocked, &shards, &M::namespaced("team-a", "web").ext("vpc-0new").create());
    refused(&other, "Deny", &["with another crossplane.io/external-name", "-n team-a", "this create: \"vpc-0new\""]);
    let stub = judge(&set, GuardRule::IdentityLocked, &shards, &M::cluster("main").ext("sgr-stub").create());
    refused(&stub, "Deny", &["vpc-0abc"]);
}

#[test]
fn identity_locked_lets_every_other_create_through() {
    let set = guard();
    let shards = locked();
    let allowed: Vec<(&str, Request, &[Value])> = vec![
        ("the recorded ID", M::cluster("main").ext("vpc-0abc").create(), &shards),
        ("a key the lock does not hold", M::cluster("other").create(), &shards),
        ("the same name in another namespace", M::namespaced("team-b", "web").create(), &shards),
        ("the initializer gives the recorded name", M::cluster("named").create(), &shards),
        ("a declared repair", M::cluster("main").ext("vpc-0new").ann(CHANGE, "vpc-0new").create(), &shards),
    ];
    for (what, req, params) in allowed {
        assert_eq!(judge(&set, GuardRule::IdentityLocked, params, &req), Outcome::Allowed, "{what}");
    }
    assert_eq!(
        judge(&set, GuardRule::IdentityLocked, &[], &M::cluster("main").create()),
        Outcome::NoParams,
        "no lock yet"
    );
    let hand_edited = vec![json!({"apiVersion": crd::API_VERSION, "kind": crd::KIND,
        "metadata": {"name": "kubectl-upjet-lock-0000", "labels": crd::shard_labels()}})];
    assert_eq!(judge(&set, GuardRule::IdentityLocked, &hand_edited, &M::cluster("main").create()), Outcome::Allowed);
    let update = M::cluster("main").ext("vpc-0abc");
    assert_eq!(
        judge(&set, GuardRule::IdentityLocked, &shards, &update.update_to(&M::cluster("main"))),
        Outcome::NotMatched
    );
}

#[test]
fn every_shard_is_a_parameter_and_only_the_one_holding_the_key_refuses() {
    let keys: Vec<(LockKey, String)> = (0..8000)
        .map(|i| (LockKey::new("ec2.aws.upbound.io", "VPC", None, &format!("vpc-{i:05}")), format!("vpc-0{i:016x}")))
        .collect();
    let shards = lock(&keys.iter().map(|(k, v)| (k.clone(), v.as_str())).collect::<Vec<_>>());
    assert!(shards.len() >= 2, "{} shards", shards.len());
    let set = guard();
    let last = judge(&set, GuardRule::IdentityLocked, &shards, &M::cluster("vpc-07999").create());
    refused(&last, "Deny", &["vpc-00000000000001f3f", "kubectl-upjet-lock-0002"]);
    let right = M::cluster("vpc-07999").ext("vpc-00000000000001f3f").create();
    assert_eq!(judge(&set, GuardRule::IdentityLocked, &shards, &right), Outcome::Allowed);
    for s in &shards {
        let stored = serde_json::to_string(s).unwrap().len();
        assert!(stored < 256 * 1024, "a shard of {stored} bytes does not fit kubectl apply's annotation");
        assert!(Shard::from_object(s).unwrap().bytes() <= upjet_core::guard::lock::shard::BUDGET);
    }
}

#[test]
fn mutate_puts_the_locked_id_back_and_says_so() {
    let settings = GuardSettings { mutate: true, ..GuardSettings::default() };
    let set = build(&kinds(), &settings, &[]);
    let m = set.mutating.as_ref().expect("--mutate prints the mutating policy");
    assert_eq!(
        (m.policy["kind"].as_str(), m.policy["spec"]["reinvocationPolicy"].as_str()),
        (Some("MutatingAdmissionPolicy"), Some("Never"))
    );
    let program = Compiled::new(&m.policy);
    let shards = Params::new(&locked());
    for (req, carried) in [
        (M::cluster("main").create(), None),
        (M::cluster("main").label("team", "a").ann("note", "x").ext("vpc-0new").create(), Some("vpc-0new")),
    ] {
        let (object, applied) = program.mutate(&m.binding, &shards, &req);
        assert_eq!(applied, 1, "one shard holds the key");
        assert_eq!(object["metadata"]["annotations"][EXT], "vpc-0abc");
        let note = object["metadata"]["annotations"]["kubectl-upjet.io/identity-restored"].as_str().unwrap();
        assert!(note.contains("kubectl-upjet-lock-0000"), "{note}");
        assert_eq!(note.contains("vpc-0new"), carried.is_some(), "{note}");
        let after = Request { object, ..req.clone() };
        assert_eq!(
            judge(&set, GuardRule::IdentityLocked, &locked(), &after),
            Outcome::Allowed,
            "the validating policy agrees"
        );
    }
    for untouched in [
        M::cluster("main").ext("vpc-0abc").create(),
        M::cluster("named").create(),
        M::cluster("other").create(),
        M::cluster("main").ext("vpc-0new").ann(CHANGE, "vpc-0new").create(),
    ] {
        assert_eq!(program.mutate(&m.binding, &shards, &untouched).1, 0, "{:?}", untouched.object);
    }
}

/// `guard --authorize-declarations`: a repair's declaration counts only for a user the API
/// server's authorizer allows `declare` on identitychanges of the guard's group — cluster-wide,
/// or in the MR's namespace for a namespaced MR. The authorizer is the one cel-rust binds
/// (`support::guard_cel`), asked both ways; a refused declaration names the permission, the
/// role and the binding; no message expression reads `authorizer` (the API server gives them
/// none); the one check per policy stays within the cost limits.
#[test]
fn with_authorize_declarations_a_declaration_counts_only_for_a_user_allowed_to_declare() {
    use upjet_core::guard::cel::{AUTHZ_CHECK, limit};
    use upjet_core::guard::lock::crd::GROUP;
    let settings = GuardSettings { authorize_declarations: true, ..GuardSettings::default() };
    let set = build(&kinds(), &settings, &[]);
    let grant = |req: Request, ns: Option<&str>| req.granted("declare", GROUP, "identitychanges", ns);

    // identity-kept: an adoption's write, declared.
    let created = M::cluster("main").ext("vpc-0abc").ann(SUCCEEDED, CREATED_MARK);
    let adoption = created.update_to(&created.clone().ext("vpc-0new").ann(CHANGE, "vpc-0new"));
    refused(
        &judge(&set, GuardRule::IdentityKept, &[], &adoption),
        "Deny",
        &[
            "changes crossplane.io/external-name of vpcs.ec2.aws.upbound.io/main",
            "The write declares it (kubectl-upjet.io/identity-change), but the guard counts a declaration only from a user allowed to declare identity changes, and alice@example.com is not",
            "missing permission: declare on identitychanges (guard.kubectl-upjet.io); the ClusterRole kubectl-upjet-guard-declare (deploy/clusterrole-guard-declare.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-guard-declare --clusterrole=kubectl-upjet-guard-declare --user=alice@example.com",
        ],
    );
    assert_eq!(judge(&set, GuardRule::IdentityKept, &[], &grant(adoption.clone(), None)), Outcome::Allowed);
    for other in [
        adoption.clone().granted("update", GROUP, "identitychanges", None),
        adoption.clone().granted("declare", GROUP, "identitylocks", None),
        adoption.clone().granted("declare", "ec2.aws.upbound.io", "identitychanges", None),
        grant(adoption.clone(), Some("team-a")),
    ] {
        refused(&judge(&set, GuardRule::IdentityKept, &[], &other), "Deny", &["missing permission: declare"]);
    }
    let wildcard = adoption.clone().granted("*", "*", "*", None);
    assert_eq!(judge(&set, GuardRule::IdentityKept, &[], &wildcard), Outcome::Allowed, "a cluster admin may");
    // Without a declaration the refusal says nothing of the permission.
    let bare = created.update_to(&created.clone().ext("vpc-0new"));
    let Outcome::Failed { message, .. } = judge(&set, GuardRule::IdentityKept, &[], &bare) else { panic!("refused") };
    assert!(!message.contains("missing permission"), "{message}");

    // identity-locked, a namespaced MR: a RoleBinding in its namespace suffices, another's not.
    let twin = M::namespaced("team-a", "web").ext("vpc-0mig").ann(CHANGE, "vpc-0mig").create();
    refused(
        &judge(&set, GuardRule::IdentityLocked, &locked(), &twin),
        "Deny",
        &[
            "missing permission: declare on identitychanges (guard.kubectl-upjet.io) in namespace team-a; the ClusterRole kubectl-upjet-guard-declare (deploy/clusterrole-guard-declare.yaml) grants it: kubectl create rolebinding kubectl-upjet-guard-declare -n team-a --clusterrole=kubectl-upjet-guard-declare --user=alice@example.com",
        ],
    );
    refused(
        &judge(&set, GuardRule::IdentityLocked, &locked(), &grant(twin.clone(), Some("team-b"))),
        "Deny",
        &["team-a"],
    );
    for allowed in [grant(twin.clone(), Some("team-a")), grant(twin, None)] {
        assert_eq!(judge(&set, GuardRule::IdentityLocked, &locked(), &allowed), Outcome::Allowed);
    }

    // Without the flag a declaration counts for anyone who may write, as before.
    assert_eq!(judge(&guard(), GuardRule::IdentityKept, &[], &adoption), Outcome::Allowed);

    for p in &set.validating {
        for v in p.policy["spec"]["validations"].as_array().unwrap() {
            assert!(!v["messageExpression"].as_str().unwrap().contains("authorizer"), "{}", p.rule);
        }
        assert!(p.cost.within_limits(), "{:?}", p.cost);
        let checks = serde_json::to_string(&p.policy).unwrap().matches(".check(").count();
        assert!(checks <= 1, "{}: one authorization check per policy", p.rule);
        if matches!(p.rule, GuardRule::IdentityKept | GuardRule::IdentityLocked) {
            assert_eq!(checks, 1, "{}", p.rule);
            assert!(p.cost.worst_cost >= AUTHZ_CHECK && p.cost.worst_cost <= limit::PER_CALL, "{:?}", p.cost);
        }
    }
}
