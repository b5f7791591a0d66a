//! Parser tables over events written here in the documented `audit.k8s.io/v1` schema
//! (k8s.io/apiserver `pkg/apis/audit/v1/types.go`), wrapped as GKE Cloud Logging entries and EKS
//! CloudWatch exports are, plus every kind of bad input.

use super::*;
use std::io::Write;
use upjet_core::audit::{AuditLevel, Body};

const GROUP: &str = "ec2.aws.upbound.io";

fn event(stage: &str, verb: &str, group: &str, level: &str) -> String {
    format!(
        r#"{{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"{level}","auditID":"a-1","stage":"{stage}","requestURI":"/apis/{group}/v1beta1/vpcs/v","verb":"{verb}","user":{{"username":"alice@example.com","groups":["system:authenticated"]}},"sourceIPs":["192.0.2.1"],"userAgent":"kubectl/v1.31.2","objectRef":{{"resource":"vpcs","name":"v","apiGroup":"{group}","apiVersion":"v1beta1"}},"responseStatus":{{"metadata":{{}},"code":200}},"requestObject":{{"metadata":{{"annotations":{{"crossplane.io/external-name":"vpc-2","crossplane.io/external-create-pending":null}}}}}},"requestReceivedTimestamp":"2024-11-30T10:00:00.000001Z","stageTimestamp":"2024-11-30T10:00:00.000002Z"}}"#
    )
}

fn patch() -> String {
    event("ResponseComplete", "patch", GROUP, "Request")
}

fn gke() -> String {
    r#"{"insertId":"abc","logName":"projects/p/logs/cloudaudit.googleapis.com%2Factivity","protoPayload":{"@type":"type.googleapis.com/google.cloud.audit.AuditLog","serviceName":"k8s.io","methodName":"io.upbound.aws.ec2.v1beta1.vpcs.update","resourceName":"ec2.aws.upbound.io/v1beta1/vpcs/v","authenticationInfo":{"principalEmail":"system:serviceaccount:crossplane-system:provider-aws-ec2"},"requestMetadata":{"callerIp":"10.0.0.9","callerSuppliedUserAgent":"provider-aws-ec2/v1.16.0"},"request":{"@type":"ec2.aws.upbound.io/v1beta1.VPC","metadata":{"name":"v","uid":"u-1","annotations":{"crossplane.io/external-name":"vpc-1"}}},"response":{"@type":"ec2.aws.upbound.io/v1beta1.VPC","metadata":{"name":"v","uid":"u-1","annotations":{"crossplane.io/external-name":"vpc-1"}},"spec":{"managementPolicies":["Observe"]}},"status":{}},"resource":{"type":"k8s_cluster","labels":{"cluster_name":"c"}},"timestamp":"2024-11-30T10:00:01.5Z","severity":"NOTICE"}"#.to_string()
}

fn cloudwatch_event(inner: &str) -> String {
    format!(
        r#"{{"logStreamName":"kube-apiserver-audit-1","timestamp":1732960800000,"message":{},"ingestionTime":1732960801000,"eventId":"1"}}"#,
        serde_json::to_string(inner).unwrap()
    )
}

fn read_str(s: &str) -> (AuditRead, Vec<upjet_core::audit::AuditWrite>) {
    read_slice(s.as_bytes(), "f", &Groups::of([GROUP.to_string()]))
}

/// (case, input, writes kept, a counter that must be 1)
type Case = (&'static str, fn() -> String, usize, fn(&AuditRead) -> u64);

const CASES: &[Case] = &[
    ("plain JSONL", || patch() + "\n", 1, |r| r.plain),
    (
        "RequestReceived + ResponseComplete count once",
        || format!("{}\n{}\n", event("RequestReceived", "patch", GROUP, "Request"), patch()),
        1,
        |r| r.prefiltered,
    ),
    (
        "ResponseStarted and Panic ignored",
        || {
            format!(
                "{}\n{}\n",
                event("ResponseStarted", "patch", GROUP, "Request"),
                event("Panic", "patch", GROUP, "Request")
            )
        },
        0,
        |r| (r.prefiltered == 2) as u64,
    ),
    ("reads skipped", || event("ResponseComplete", "get", GROUP, "Metadata") + "\n", 0, |r| r.prefiltered),
    ("other API group", || event("ResponseComplete", "patch", "apps", "Request") + "\n", 0, |r| r.prefiltered),
    (
        "another group naming ours in a value",
        || event("ResponseComplete", "patch", "x.example.com", "Request").replace("alice", GROUP) + "\n",
        0,
        |r| r.other_group,
    ),
    ("level None", || event("ResponseComplete", "patch", GROUP, "None") + "\n", 0, |r| r.level_none),
    (
        "Metadata level kept, no bodies",
        || event("ResponseComplete", "patch", GROUP, "Metadata") + "\n",
        1,
        |r| r.metadata_level,
    ),
    ("truncated line", || patch()[..300].to_string() + "\n" + &patch() + "\n", 1, |r| r.malformed),
    ("non-audit JSON", || format!("{{\"msg\":\"ResponseComplete {GROUP} verb: patch\"}}\n"), 0, |r| r.not_audit),
    ("not JSON at all", || "hello world\n".into(), 0, |r| r.malformed),
    ("GKE Cloud Logging JSONL", || gke() + "\n", 1, |r| r.gke),
    ("gcloud --format=json array, pretty", || format!("[\n  {},\n  {}\n]\n", gke(), patch()), 2, |r| r.gke),
    (
        "CloudWatch filter-log-events document",
        || format!("{{\n  \"events\": [\n    {}\n  ],\n  \"searchedLogStreams\": []\n}}\n", cloudwatch_event(&patch())),
        1,
        |r| r.cloudwatch,
    ),
    ("CloudWatch events one per line", || cloudwatch_event(&patch()) + "\n", 1, |r| r.cloudwatch),
    (
        "CloudWatch --query events[].message",
        || format!("[\n{}\n]\n", serde_json::to_string(&patch()).unwrap()),
        1,
        |r| r.cloudwatch,
    ),
    (
        "CloudWatch [Truncated...]",
        || cloudwatch_event(&(patch()[..400].to_string() + "[Truncated...]")) + "\n",
        0,
        |r| r.truncated,
    ),
    ("S3 export line", || format!("2024-11-30T10:00:00.000Z {}\n", patch()), 1, |r| r.s3_prefixed),
    (
        "pretty-printed single event",
        || serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(&patch()).unwrap()).unwrap(),
        1,
        |r| r.plain,
    ),
    (
        "truncated JSON array",
        || format!("[\n  {},\n  {{\"protoPayload\": {{", patch()),
        1,
        |r| r.ended_early.is_some() as u64,
    ),
];

#[test]
fn formats_and_bad_input() {
    for (name, input, writes, counter) in CASES {
        let (r, w) = read_str(&input());
        assert_eq!(w.len(), *writes, "{name}: {r:?}");
        assert_eq!(counter(&r), 1, "{name}: {r:?}");
    }
}

#[test]
fn a_patch_at_request_level_records_the_patch_itself() {
    let (_, w) = read_str(&patch());
    let w = &w[0];
    assert_eq!(
        (w.verb.as_str(), w.level, w.user.as_str(), w.code),
        ("patch", AuditLevel::Request, "alice@example.com", Some(200))
    );
    assert_eq!((w.source.as_str(), w.time.as_deref()), ("f:1", Some("2024-11-30T10:00:00.000002Z")));
    let Some(Body::Patch(p)) = &w.request else { panic!("a patch body: {:?}", w.request) };
    assert_eq!(p.fields["crossplane.io/external-name"].as_deref(), Some("vpc-2"));
    assert_eq!(p.fields["crossplane.io/external-create-pending"], None, "null removes");
}

#[test]
fn gke_entries_map_onto_the_event_fields() {
    let (_, w) = read_str(&gke());
    let w = &w[0];
    assert_eq!(
        (w.verb.as_str(), w.level, w.uid.as_deref(), w.code),
        ("update", AuditLevel::RequestResponse, Some("u-1"), Some(200))
    );
    assert!(w.by_provider(), "{}", w.user);
    assert_eq!(w.response.as_ref().and_then(|r| r.management_policies.as_deref()), Some(r#"["Observe"]"#));
    assert_eq!((w.target.resource.as_str(), w.target.name.as_str()), ("vpcs", "v"));
}

#[test]
fn non_utf8_is_counted_not_fatal() {
    let mut bytes = patch().replace("alice", "al\u{1}ce").into_bytes();
    let at = bytes.iter().position(|&c| c == 1).unwrap();
    bytes[at] = 0xff;
    bytes.extend_from_slice(format!("\n{}\n", patch()).as_bytes());
    let (r, w) = read_slice(&bytes, "f", &Groups::of([GROUP.to_string()]));
    assert_eq!((r.malformed, w.len()), (1, 1), "{r:?}");
}

#[test]
fn absurd_lines_are_skipped_unread() {
    let big = format!("{{\"x\":\"{}\"}}\n{}\n", "a".repeat(MAX_EVENT_BYTES + 10), patch());
    let (r, w) = read_str(&big);
    assert_eq!((r.too_long, w.len()), (1, 1));
}

#[test]
fn gzip_and_a_gzip_that_ends_early() {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    for _ in 0..50 {
        writeln!(gz, "{}", patch()).unwrap();
    }
    let bytes = gz.finish().unwrap();
    let groups = Groups::of([GROUP.to_string()]);
    let (r, w) = read_slice(&bytes, "f.gz", &groups);
    // Fifty identical patches by one writer: one kept, forty-nine folded into its run.
    assert_eq!((w.len() as u64 + r.folded, r.folded, r.ended_early.is_none()), (50, 49, true));
    let (r, _) = read_slice(&bytes[..bytes.len() / 2], "f.gz", &groups);
    assert!(r.ended_early.as_deref().is_some_and(|e| e.contains("gzip")), "{r:?}");
}

#[test]
fn without_known_groups_any_crd_group_is_kept() {
    let any = Groups::any_dotted();
    assert!(any.wants(GROUP) && !any.wants("apps") && !any.wants("") && !any.wants("rbac.authorization.k8s.io"));
    let (_, w) = read_slice(patch().as_bytes(), "f", &any);
    assert_eq!(w.len(), 1);
}

#[test]
fn a_file_that_is_no_audit_log_says_so() {
    let (r, w) = read_str("2024-11-30T10:00:00Z INFO provider started\n{\"level\":\"info\",\"msg\":\"hi\"}\n");
    assert_eq!((r.documents, r.malformed, w.len()), (2, 1, 0), "{r:?}");
    assert!(r.note().contains("none of its first 2 documents is an audit event"), "{}", r.note());
    let (r, _) = read_str(&patch());
    assert!(!r.note().contains("none of its"), "{}", r.note());
    // A log of other groups only is still an audit log.
    let (r, _) = read_str(&patch().replace(GROUP, "apps"));
    assert!(!r.note().contains("none of its"), "{}", r.note());
}

#[test]
fn a_document_keeps_reading_past_an_element_over_the_cap_and_stops_at_a_break() {
    let big = format!("[{{\"x\":\"{}\"}},\n{}]\n", "a".repeat(MAX_EVENT_BYTES + 10), patch());
    let (r, w) = read_str(&big);
    assert_eq!((r.too_long, w.len(), r.ended_early.is_none()), (1, 1, true), "{r:?}");
    let broken = format!("[\n{},\n{{\"x\":\"cut\n\"}},\n{}\n]\n", patch(), patch());
    let (r, w) = read_str(&broken);
    assert_eq!((r.malformed, w.len()), (1, 1), "{r:?}");
    assert!(r.ended_early.as_deref().is_some_and(|e| e.contains("line 3")), "{r:?}");
}
