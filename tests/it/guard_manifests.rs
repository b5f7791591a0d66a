//! What `guard` prints, as objects: each passes Kubernetes v1.36's strict JSON Schema of its
//! kind (fetched by `scripts/fetch-k8s-schema.sh`), carries every field the API server would
//! default, prints the same bytes twice, parses as CEL and stays within the API server's cost
//! limits.

use crate::guard::{kinds, lock};
use crate::support::cel_types::{Ty, check_expression, mixed_literals};
use crate::support::guard_cel::{Compiled, parses};
use serde_json::{Value, json};
use upjet_core::guard::admission::DEFAULTED;
use upjet_core::guard::cel::limit;
use upjet_core::guard::lock::key::LockKey;
use upjet_core::guard::lock::shard::Shard;
use upjet_core::guard::rule::{Action, GuardRule};
use upjet_core::guard::settings::GuardSettings;
use upjet_core::guard::{GuardSet, build};
use upjet_core::identity::Template;
use upjet_output::guard::{GuardFormat, write};

const SCHEMAS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/target/k8s-schema/v1.36.0");

/// One schema file, fetched by the project's script the first time a machine runs the test.
fn schema(file: &str) -> Value {
    static FETCH: std::sync::Once = std::sync::Once::new();
    FETCH.call_once(|| {
        if !std::path::Path::new(&format!("{SCHEMAS}/_definitions.json")).exists() {
            let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/fetch-k8s-schema.sh");
            let status = std::process::Command::new("bash").arg(script).status();
            assert!(status.is_ok_and(|s| s.success()), "{script} could not fetch the Kubernetes schemas");
        }
    });
    let path = format!("{SCHEMAS}/{file}");
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))).unwrap()
}

/// Serves the schemas' shared definitions (`$ref: /api/_definitions.json#…`) from disk.
struct Definitions(Value);

impl jsonschema::Retrieve for Definitions {
    fn retrieve(&self, uri: &jsonschema::Uri<String>) -> Result<Value, Box<dyn std::error::Error + Send + Sync>> {
        match uri.as_str() {
            "https://kubernetes.io/api/_definitions.json" => Ok(self.0.clone()),
            other => Err(format!("no schema {other}").into()),
        }
    }
}

pub(crate) fn validator(file: &str) -> jsonschema::Validator {
    jsonschema::options().with_retriever(Definitions(schema("_definitions.json"))).build(&schema(file)).unwrap()
}

fn full_set() -> GuardSet {
    let mut ks = kinds();
    ks[0].id_templates = vec![Template::parse("vpc-{name}").unwrap()];
    let mut settings = GuardSettings { mutate: true, ..GuardSettings::default() };
    settings.exempt_service_account("crossplane-system", "provider-aws-ec2-1a2b3c");
    settings.groups.insert("platform:break-glass".into());
    settings.actions.insert(GuardRule::Placeholder, Action::Deny);
    let shards: Vec<Shard> = lock(&[(LockKey::new("ec2.aws.upbound.io", "VPC", None, "main"), "vpc-0abc")])
        .iter()
        .map(|s| Shard::from_object(s).unwrap())
        .collect();
    build(&ks, &settings, &shards)
}

pub(crate) fn schema_file(kind: &str) -> &'static str {
    match kind {
        "ValidatingAdmissionPolicy" => "validatingadmissionpolicy-admissionregistration-v1.json",
        "ValidatingAdmissionPolicyBinding" => "validatingadmissionpolicybinding-admissionregistration-v1.json",
        "MutatingAdmissionPolicy" => "mutatingadmissionpolicy-admissionregistration-v1.json",
        "MutatingAdmissionPolicyBinding" => "mutatingadmissionpolicybinding-admissionregistration-v1.json",
        "CustomResourceDefinition" => "customresourcedefinition-apiextensions-v1.json",
        other => panic!("no schema for {other}"),
    }
}

#[test]
fn every_printed_object_passes_its_kubernetes_schema() {
    let set = full_set();
    let mut kinds_seen = std::collections::BTreeSet::new();
    for obj in set.objects() {
        let kind = obj["kind"].as_str().unwrap();
        if kind == "IdentityLock" {
            let crd_schema = &set.crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
            let v = jsonschema::validator_for(crd_schema).unwrap();
            assert!(v.is_valid(obj), "a shard its own CRD refuses: {obj}");
            assert!(!v.is_valid(&json!({"spec": {"entries": {"k": 1}}})));
            continue;
        }
        kinds_seen.insert(kind);
        let v = validator(schema_file(kind));
        let errors: Vec<String> = v.iter_errors(obj).map(|e| format!("{e} at {}", e.instance_path())).collect();
        assert!(errors.is_empty(), "{kind} {}: {errors:#?}", obj["metadata"]["name"]);
    }
    assert_eq!(kinds_seen.len(), 5, "{kinds_seen:?}");
    // The strict schemas refuse what Kubernetes refuses, or the check above proves nothing.
    let mut typo = set.validating[0].policy.clone();
    typo["spec"]["matchConstraints"]["resourceRules"][0]["scopes"] = json!("*");
    assert!(!validator(schema_file("ValidatingAdmissionPolicy")).is_valid(&typo));
    let mut no_actions = set.validating[0].binding.clone();
    no_actions["spec"].as_object_mut().unwrap().remove("validationActions");
    assert!(!validator(schema_file("ValidatingAdmissionPolicyBinding")).is_valid(&no_actions));
}

/// The value at a dotted path, `[]` meaning every element of a list.
fn at<'a>(v: &'a Value, path: &str) -> Vec<&'a Value> {
    let mut here = vec![v];
    for part in path.split('.') {
        here = here
            .into_iter()
            .flat_map(|v| match part.strip_suffix("[]") {
                Some(name) => v[name].as_array().map(|a| a.iter().collect()).unwrap_or_default(),
                None => vec![&v[part]],
            })
            .collect();
    }
    here
}

/// Asserts that `obj` carries every field the API server defaults on its kind
/// (`admission::DEFAULTED`), each with the default where the guard does not choose another;
/// returns how many values it checked.
pub(crate) fn assert_defaulted(obj: &Value) -> usize {
    let mut checked = 0;
    for (kind, path, default) in DEFAULTED.iter().filter(|(k, _, _)| *k == obj["kind"]) {
        let found = at(obj, path);
        assert!(!found.is_empty() && found.iter().all(|v| !v.is_null()), "{kind} lacks {path}");
        checked += found.len();
        // Set on purpose: Ignore (fail open) and each group's own scope.
        if !path.ends_with("failurePolicy") && !path.ends_with("scope") {
            let want: Value = serde_json::from_str(default).unwrap_or(json!(default));
            assert!(found.iter().all(|v| **v == want), "{kind} {path}: {found:?}");
        }
    }
    checked
}

#[test]
fn every_field_the_api_server_defaults_is_printed_so_a_second_apply_is_unchanged() {
    let set = full_set();
    let checked: usize = set.objects().into_iter().map(assert_defaulted).sum();
    assert!(checked > 20, "{checked}");
    // apiextensions v1 SetDefaults_CustomResourceDefinitionSpec.
    let names = &set.crd["spec"]["names"];
    assert_eq!(
        (names["singular"].as_str(), names["listKind"].as_str()),
        (Some("identitylock"), Some("IdentityLockList"))
    );
    assert_eq!(set.crd["spec"]["conversion"], json!({"strategy": "None"}));
    // An empty list is dropped by the server: printing one would be a diff on every apply.
    fn no_empty_lists(v: &Value, path: &str) {
        match v {
            Value::Array(a) => {
                assert!(!a.is_empty(), "an empty list at {path}");
                a.iter().for_each(|x| no_empty_lists(x, path));
            }
            Value::Object(m) => m.iter().for_each(|(k, x)| no_empty_lists(x, &format!("{path}.{k}"))),
            _ => {}
        }
    }
    set.objects().iter().for_each(|o| no_empty_lists(o, o["kind"].as_str().unwrap()));
}

fn printed(set: &GuardSet, format: GuardFormat) -> String {
    let mut out = Vec::new();
    write(&mut out, set, format).unwrap();
    String::from_utf8(out).unwrap()
}

#[test]
fn the_output_is_one_list_the_same_every_time_in_yaml_and_json() {
    let (a, b) = (full_set(), full_set());
    let yaml = printed(&a, GuardFormat::Yaml);
    assert_eq!(yaml, printed(&b, GuardFormat::Yaml), "nothing varies between runs");
    let from_yaml: Value = serde_saphyr::from_str(&yaml).unwrap();
    let from_json: Value = serde_json::from_str(&printed(&a, GuardFormat::Json)).unwrap();
    assert_eq!(from_yaml, from_json);
    assert_eq!((from_json["apiVersion"].as_str(), from_json["kind"].as_str()), (Some("v1"), Some("List")));
    let kinds: Vec<&str> = from_json["items"].as_array().unwrap().iter().map(|i| i["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds[..2], ["CustomResourceDefinition", "IdentityLock"], "the CRD, then its objects");
    assert_eq!(kinds.iter().filter(|k| k.ends_with("Binding")).count(), 8);
    for item in from_json["items"].as_array().unwrap() {
        let labels = &item["metadata"]["labels"];
        assert_eq!(
            (labels["app.kubernetes.io/name"].as_str(), labels["app.kubernetes.io/component"].as_str()),
            (Some("kubectl-upjet"), Some("guard"))
        );
    }
    insta::assert_snapshot!("guard_yaml", yaml);
}

#[test]
fn every_expression_parses_and_every_policy_stays_within_the_cost_limits() {
    let set = full_set();
    for p in set.validating.iter().chain(&set.mutating) {
        Compiled::new(&p.policy);
        for v in p.policy["spec"]["validations"].as_array().into_iter().flatten() {
            assert!(!v["message"].as_str().unwrap().contains('\n'), "a message must be one line");
            parses(v["messageExpression"].as_str().unwrap()).unwrap();
        }
        assert!(p.cost.within_limits(), "{:?}", p.cost);
        assert!(p.cost.worst_cost > 0 && p.cost.worst_cost <= limit::PER_CALL, "{:?}", p.cost);
    }
    let worst = set.worst().unwrap();
    assert!(worst.worst_cost < limit::PER_CALL, "{worst:?}");
    // With many exempt groups and 2,000 kinds of formats the estimate still holds.
    let mut settings = GuardSettings::default();
    settings.groups.extend((0..200).map(|i| format!("group-{i}")));
    let many: Vec<_> = (0..2000)
        .map(|i| {
            let mut k = upjet_core::guard::kind::GuardKind::new(
                &format!("g{}.example.io", i % 150),
                &format!("Kind{i}"),
                &format!("kind{i}s"),
                i % 2 == 0,
            );
            k.id_templates = vec![Template::parse(&format!("arn:aws:svc:eu-west-1:{i}:thing/{{name}}")).unwrap()];
            k
        })
        .collect();
    let big = build(&many, &settings, &[]);
    assert!(big.validating.iter().all(|p| p.cost.within_limits()), "{:?}", big.worst());
}

/// The check below finds what the API server refuses, and lets through what it accepts, or it
/// proves nothing: a `dyn` field beside a string, a variable typed `dyn` by older releases beside
/// a string; `string()` making them one; two `dyn` values; the macros' own accumulators.
#[test]
fn the_literal_check_refuses_what_kubernetes_refuses() {
    let none = std::collections::HashMap::new();
    let mixed = |text: &str, vars: &std::collections::HashMap<String, Ty>| check_expression(text, vars).unwrap().1;
    assert_eq!(mixed("{'a': params.spec.x, 'b': 'note'}", &none)[0].1, Ty::Dyn);
    assert!(!mixed("[object.metadata.name, request.userInfo.username]", &none).is_empty());
    assert!(!mixed("[size(object.x), 'a']", &none).is_empty());
    assert!(!mixed("[variables.unknownToTheCheck, variables.unknownToTheCheck]", &none).is_empty());
    for fine in [
        "{'a': string(params.spec.x), 'b': 'note'}",
        "[object.a, oldObject.b, params.c]",
        "['x' + object.a, request.kind.group]",
        "(has(object.a) ? object.a : ['*']).exists(p, p in ['Observe', '*'])",
        "object.l.map(x, x.name).filter(n, n != '')",
        "[['t', 'vpc-{name}'], ['l', 'vpc-'], ['name']]",
        "{'a': true, 'b': size(object.l) > 0}",
    ] {
        assert_eq!(mixed(fine, &none), vec![], "{fine}");
    }
    let typed: std::collections::HashMap<String, Ty> = [("note".to_string(), Ty::String)].into();
    assert_eq!(mixed("{'a': variables.note, 'b': 'x'}", &typed), vec![]);
    let dyn_vars: std::collections::HashMap<String, Ty> = [("note".to_string(), Ty::Dyn)].into();
    assert!(!mixed("{'a': variables.note, 'b': 'x'}", &dyn_vars).is_empty());
}

/// Kubernetes compiles every admission expression with homogeneous aggregate literals: a list's
/// elements, a map's keys and its values must each have one type, or `kubectl apply` refuses the
/// policy. cel-rust does not enforce it, so every list and map literal of every printed
/// expression — validating and mutating, variables, match conditions, validations and their
/// messages, the patch — is checked here, under every setting that changes what is printed
/// (exemptions, `--mutate`, `--authorize-declarations`).
#[test]
fn every_list_and_map_literal_of_every_expression_has_one_type() {
    let mut settings = GuardSettings { mutate: true, ..GuardSettings::default() };
    settings.groups.insert("platform:break-glass".into());
    let mut sets = vec![full_set(), build(&kinds(), &settings, &[])];
    let bare = GuardSettings { mutate: true, ..GuardSettings::default() };
    sets.push(build(&kinds(), &bare, &[]));
    let authorized = GuardSettings { authorize_declarations: true, ..bare };
    sets.push(build(&kinds(), &authorized, &[]));
    let mut checked = 0;
    for set in &sets {
        for p in set.validating.iter().chain(&set.mutating) {
            let (mixed, literals) = mixed_literals(&p.policy).unwrap();
            assert!(mixed.is_empty(), "{}: literals the API server refuses: {mixed:#?}", p.rule);
            checked += literals;
        }
    }
    assert!(checked > 20, "only {checked} literals of two elements or more were checked");
}

#[test]
fn docs_name_every_rule_with_its_default_action() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/guard.md")).unwrap();
    for rule in GuardRule::ALL {
        let action = format!("{:?}", rule.default_action());
        let row = format!("| `{}` | {action} |", rule.name());
        assert!(docs.contains(&row), "docs/guard.md lacks the row {row}");
    }
}
