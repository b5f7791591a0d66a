use super::*;

#[test]
fn decodes_only_what_matters() {
    let raw = r#"{"apiVersion":"route53.aws.upbound.io/v1beta1","kind":"Record","metadata":{"name":"www","uid":"u1",
        "generation":3,"resourceVersion":"42","annotations":{"crossplane.io/external-name":"Z1_www_A",
        "upjet.crossplane.io/provider-meta":"{\"huge\":1}","kubectl.kubernetes.io/last-applied-configuration":"{}"},
        "labels":{"crossplane.io/composite":"xdns-1"}},
        "spec":{"forProvider":{"name":"www"},"providerConfigRef":{"name":"prod"},"managementPolicies":["Observe","Create"],"deletionPolicy":"Delete"},
        "status":{"atProvider":{"id":"Z1_www_A","fqdn":"www.example.com"},"observedGeneration":2,
        "conditions":[{"type":"Ready","status":"True","reason":"Available","lastTransitionTime":"2024-01-01T00:00:00Z","observedGeneration":3}]}}"#;
    let mr = ManagedResource::from_json(raw).unwrap();
    assert_eq!(mr.group(), "route53.aws.upbound.io");
    assert_eq!(mr.external_name(), Some("Z1_www_A"));
    assert_eq!(mr.annotations.len(), 1, "non-crossplane annotations are dropped");
    assert_eq!(mr.management_policies.as_deref(), Some(&["Observe".to_string(), "Create".to_string()][..]));
    assert_eq!(mr.status_observed_generation, Some(2));
    assert_eq!(mr.at_provider_id.as_deref(), Some("Z1_www_A"));
    assert_eq!(mr.composite.as_deref(), Some("xdns-1"));
    assert_eq!(mr.provider_config, Some(ProviderConfigKey::cluster_scoped("prod")));
    assert_eq!(mr.for_provider.get("name").map(String::as_str), Some("www"));
    assert_eq!(mr.reference(), "record.route53.aws.upbound.io/www");
    assert!(mr.is_true("Ready"));
}

#[test]
fn finalizers_are_crossplane_s_own_and_the_others() {
    let mr =
        |f: &str| ManagedResource::from_json(&format!(r#"{{"metadata":{{"name":"x","finalizers":{f}}}}}"#)).unwrap();
    let both = mr(r#"["finalizer.managedresource.crossplane.io","backup.example.com/pre-delete"]"#);
    assert!(both.own_finalizer);
    assert_eq!(both.other_finalizers, ["backup.example.com/pre-delete"]);
    assert_eq!(both.finalizer_count(), 2);
    let own = mr(r#"["finalizer.managedresource.crossplane.io"]"#);
    assert!(own.own_finalizer && own.other_finalizers.is_empty() && own.other_finalizers.capacity() == 0);
    let none = ManagedResource::from_json(r#"{"metadata":{"name":"x"}}"#).unwrap();
    assert_eq!((none.own_finalizer, none.finalizer_count()), (false, 0));
    assert_eq!(mr("null").finalizer_count(), 0);
}

#[test]
fn long_for_provider_strings_are_not_kept() {
    let policy = format!("{{\\\"Statement\\\":[{}]}}", "{}".repeat(300));
    let raw = format!(
        r#"{{"metadata":{{"name":"p"}},"spec":{{"forProvider":{{"name":"role","policy":"{policy}","arn":"{}"}}}}}}"#,
        "a".repeat(MAX_SCALAR)
    );
    let mr = ManagedResource::from_json(&raw).unwrap();
    assert_eq!(mr.for_provider.get("name").map(String::as_str), Some("role"));
    assert_eq!(mr.for_provider.get("arn").map(String::len), Some(MAX_SCALAR), "512 bytes are kept");
    assert!(mr.for_provider.get("policy").is_none(), "a policy document is not an ID");
}

#[test]
fn wrong_types_are_errors_with_the_name() {
    let err = ManagedResource::from_json(r#"{"metadata":{"name":"x","annotations":{"crossplane.io/paused":true}}}"#)
        .unwrap_err();
    assert_eq!(err.name.as_deref(), Some("x"));
    assert!(ManagedResource::from_json(r#"{"metadata":{"name":"x"},"status":{"conditions":"nope"}}"#).is_err());
    assert!(ManagedResource::from_json(r#"[1,2]"#).is_err());
    assert!(ManagedResource::from_json(r#"{"metadata":{}}"#).is_err());
}

#[test]
fn tolerates_nulls_and_absent_sections() {
    let mr = ManagedResource::from_json(
        r#"{"apiVersion":"v","kind":"K","metadata":{"name":"x","annotations":null,"namespace":""},"spec":null,"status":{"atProvider":{"id":""}}}"#,
    )
    .unwrap();
    assert!(mr.annotations.is_empty() && mr.namespace.is_none() && mr.at_provider_id.is_none());
    let mr = ManagedResource::from_json(r#"{"metadata":{"name":"x"},"status":{"atProvider":{"id":12}}}"#).unwrap();
    assert_eq!(mr.at_provider_id.as_deref(), Some("12"));
}

/// crossplane-runtime apis/common/v2/resource.go `ManagedResourceSpec.ProviderConfigReference`
/// (`+kubebuilder:default={"kind": "ClusterProviderConfig", "name": "default"}`) and
/// apis/common/v1 (legacy, `{name}` only): (namespace, reference JSON, key in words).
#[test]
fn provider_config_keys_by_kind_namespace_and_name() {
    for (ns, reference, want) in [
        (None, r#"{"name":"prod"}"#, Some("prod")),
        (Some("team-a"), r#"{"kind":"ProviderConfig","name":"default"}"#, Some("ProviderConfig team-a/default")),
        (Some("team-a"), r#"{"kind":"ClusterProviderConfig","name":"default"}"#, Some("ClusterProviderConfig default")),
        (Some("team-a"), r#"{"name":"default"}"#, Some("ClusterProviderConfig default")),
        (Some("team-a"), r#"{"kind":"","name":""}"#, None),
    ] {
        let ns_json = ns.map(|n| format!(r#","namespace":"{n}""#)).unwrap_or_default();
        let raw = format!(r#"{{"metadata":{{"name":"x"{ns_json}}},"spec":{{"providerConfigRef":{reference}}}}}"#);
        let mr = ManagedResource::from_json(&raw).unwrap();
        assert_eq!(mr.provider_config.as_ref().map(ToString::to_string).as_deref(), want, "{reference}");
    }
    let team_a = ManagedResource::from_json(
        r#"{"metadata":{"name":"x","namespace":"team-a"},"spec":{"providerConfigRef":{"kind":"ProviderConfig","name":"default"}}}"#,
    )
    .unwrap();
    let cluster = ManagedResource::from_json(r#"{"metadata":{"name":"x","namespace":"team-a"}}"#).unwrap();
    assert_ne!(team_a.provider_config_or_default(), cluster.provider_config_or_default());
    assert_eq!(cluster.provider_config_or_default().to_string(), "ClusterProviderConfig default");
}

#[test]
fn at_provider_arn_is_kept_only_when_arn_shaped() {
    for (arn, want) in
        [(r#""arn:aws:sqs:us-east-1:1:q""#, Some("arn:aws:sqs:us-east-1:1:q")), (r#""""#, None), ("7", None)]
    {
        let raw = format!(r#"{{"metadata":{{"name":"x"}},"status":{{"atProvider":{{"arn":{arn}}}}}}}"#);
        assert_eq!(ManagedResource::from_json(&raw).unwrap().at_provider_arn.as_deref(), want, "{arn}");
    }
}
