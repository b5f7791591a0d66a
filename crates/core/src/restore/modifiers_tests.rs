use super::*;
use serde_json::json;

fn t(gr: &str, ns: Option<&str>, name: &str, patch: Value) -> Target {
    Target { group_resource: gr.into(), namespace: ns.map(Into::into), name: name.into(), patch }
}

#[test]
fn names_are_anchored_and_escaped_like_go_s_quote_meta() {
    for (name, want) in
        [("main", "^main$"), ("vpc.main-1", r"^vpc\.main-1$"), ("a+b(c)", r"^a\+b\(c\)$"), ("x$^|", r"^x\$\^\|$")]
    {
        assert_eq!(exact_name(name), want);
    }
}

#[test]
fn one_rule_per_mr_or_per_kind_when_the_whole_kind_shares_the_patch() {
    let observe = json!({"spec": {"managementPolicies": ["Observe"]}, "metadata": {"annotations": {"crossplane.io/paused": "true"}}});
    let with_id = json!({"spec": {"managementPolicies": ["Observe"]}, "metadata": {"annotations": {"crossplane.io/external-name": "k-1"}}});
    let targets = [
        t("keys.kms.aws.upbound.io", None, "a", with_id.clone()),
        t("keys.kms.aws.upbound.io", None, "b", observe.clone()),
        t("topics.sns.aws.m.upbound.io", Some("team-a"), "x", observe.clone()),
        t("topics.sns.aws.m.upbound.io", Some("team-b"), "y", observe.clone()),
    ];
    let counts =
        BTreeMap::from([("keys.kms.aws.upbound.io".to_string(), 5), ("topics.sns.aws.m.upbound.io".to_string(), 2)]);
    let m = rules(&targets, &counts);
    validate(&m).unwrap();
    let got: Vec<(&str, Vec<String>, Option<&str>)> = m
        .resource_modifier_rules
        .iter()
        .map(|r| {
            (
                r.conditions.group_resource.as_str(),
                r.conditions.namespaces.clone(),
                r.conditions.resource_name_regex.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            ("keys.kms.aws.upbound.io", vec![], Some("^a$")),
            ("keys.kms.aws.upbound.io", vec![], Some("^b$")),
            ("topics.sns.aws.m.upbound.io", vec!["team-a".to_string(), "team-b".to_string()], None),
        ],
        "keys: 2 of 5 at risk, one rule each; topics: every one shares the patch, one rule"
    );
    assert_eq!(
        serde_json::from_str::<Value>(&m.resource_modifier_rules[0].merge_patches[0].patch_data).unwrap(),
        with_id
    );
    let counts = BTreeMap::from([("topics.sns.aws.m.upbound.io".to_string(), 3)]);
    assert_eq!(
        rules(&targets[2..], &counts).resource_modifier_rules.len(),
        2,
        "a third topic is safe: no kind-wide rule"
    );
}

#[test]
fn the_rules_read_back_as_velero_reads_them() {
    let m = rules(
        &[t("vpcs.ec2.aws.upbound.io", None, "main", json!({"spec": {"managementPolicies": ["Observe"]}}))],
        &BTreeMap::new(),
    );
    let body = to_yaml(&m).unwrap();
    assert!(body.starts_with("version: v1\n") && body.contains("resourceModifierRules:"), "{body}");
    assert_eq!(parse(&body).unwrap(), m);
}

/// Velero `internal/resourcemodifiers/resource_modifiers.go` `Validate` and the strict decoding of
/// the ConfigMap (`yaml.UnmarshalStrict`, exactly one data key).
#[test]
fn velero_s_checks_refuse_what_velero_refuses() {
    let cm = |body: &str| {
        format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  m.yaml: |\n{}",
            body.lines().map(|l| format!("    {l}\n")).collect::<String>()
        )
    };
    let rule =
        "- conditions:\n    groupResource: vpcs.ec2.aws.upbound.io\n  mergePatches:\n  - patchData: '{\"spec\":{}}'\n";
    assert!(from_config_map(&cm(&format!("version: v1\nresourceModifierRules:\n{rule}"))).is_ok());
    for (body, why) in [
        (format!("version: v2\nresourceModifierRules:\n{rule}"), "unsupported version"),
        ("version: v1\nresourceModifierRules: []\n".to_string(), "cannot be empty"),
        (
            format!("version: v1\nresourceModifierRules:\n{}", rule.replace("vpcs.ec2.aws.upbound.io", "''")),
            "groupResource cannot be empty",
        ),
        (
            format!("version: v1\nresourceModifierRules:\n{rule}  strategicPatches:\n  - patchData: '{{}}'\n"),
            "exactly one of",
        ),
        ("version: v1\nresourceModifierRules:\n- conditions:\n    groupResource: x\n".to_string(), "exactly one of"),
        (format!("version: v1\nextra: 1\nresourceModifierRules:\n{rule}"), "not valid"),
        (
            format!("version: v1\nresourceModifierRules:\n{}", rule.replace("'{\"spec\":{}}'", "'[1]'")),
            "not a JSON object",
        ),
    ] {
        let err = from_config_map(&cm(&body)).unwrap_err();
        assert!(err.contains(why), "{body}: {err}");
    }
    let two = "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: x\n  b: y\n";
    assert!(from_config_map(two).unwrap_err().contains("exactly one"));
}
