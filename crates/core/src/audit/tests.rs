//! The write history's before/after and highlights, case by case.

use super::*;
use crate::managed::keys;
use crate::testing::Mr;
use std::collections::BTreeMap;

fn write(verb: &str, user: &str, level: AuditLevel, request: Option<Body>, response: Option<Snapshot>) -> AuditWrite {
    AuditWrite {
        at: None,
        time: Some("T".into()),
        source: "a.log:1".into(),
        audit_id: "x".into(),
        verb: verb.into(),
        subresource: None,
        user: user.into(),
        impersonated: None,
        user_agent: None,
        source_ips: Vec::new(),
        code: Some(200),
        level,
        target: AuditTarget::default(),
        uid: Some("uid-v".into()),
        request,
        response,
        repeats: None,
    }
}

fn obj(ann: &[(&str, &str)]) -> Snapshot {
    Snapshot { annotations: ann.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(), ..Snapshot::default() }
}

fn patch(fields: &[(&str, Option<&str>)]) -> Option<Body> {
    let fields: BTreeMap<String, Option<String>> =
        fields.iter().map(|(k, v)| (k.to_string(), v.map(str::to_owned))).collect();
    Some(Body::Patch(Patch { fields }))
}

const P: &str = keys::CREATE_PENDING;
const S: &str = keys::CREATE_SUCCEEDED;
const E: &str = keys::EXTERNAL_NAME;
const PROVIDER: &str = "system:serviceaccount:crossplane-system:provider-aws-ec2-1";

/// (case, writes, the changes of the last write as `field: before → after`, a highlight fragment)
type Case = (&'static str, fn() -> Vec<AuditWrite>, &'static [&'static str], &'static str);

const CASES: &[Case] = &[
    (
        "RequestResponse: exact before and after",
        || {
            vec![
                write("create", "argo", AuditLevel::RequestResponse, None, Some(obj(&[(E, "a")]))),
                write("update", PROVIDER, AuditLevel::RequestResponse, None, Some(obj(&[(E, "b")]))),
            ]
        },
        &[r#"crossplane.io/external-name: "a" → "b""#],
        r#"external-name changed from "a" to "b" by system:serviceaccount:crossplane-system:provider-aws-ec2-1 (the provider) at T (a.log:1)"#,
    ),
    (
        "Request-level patch after an unknown state: before unknown",
        || vec![write("patch", "alice", AuditLevel::Request, patch(&[(E, Some("b"))]), None)],
        &[r#"crossplane.io/external-name: <unknown> → "b""#],
        "the value before it is not known",
    ),
    (
        "pending removed by a person",
        || {
            vec![
                write("patch", PROVIDER, AuditLevel::Request, patch(&[(P, Some("2024-11-30T10:00:00Z"))]), None),
                write("patch", "alice", AuditLevel::Request, patch(&[(P, None)]), None),
            ]
        },
        &[r#"crossplane.io/external-create-pending: "2024-11-30T10:00:00Z" → <none>"#],
        "external-create-pending removed by alice (not the provider) at T (a.log:1)",
    ),
    (
        "deleted while the create was incomplete",
        || {
            vec![
                write(
                    "create",
                    "argo",
                    AuditLevel::RequestResponse,
                    None,
                    Some(obj(&[(P, "2024-11-30T10:00:00Z"), (S, "2024-11-30T09:00:00Z")])),
                ),
                write("delete", "bob", AuditLevel::Metadata, None, None),
            ]
        },
        &[],
        "MR deleted by bob at T (a.log:1) while its create was incomplete",
    ),
    (
        "Metadata level: who and when only",
        || vec![write("update", "alice", AuditLevel::Metadata, None, None)],
        &[],
        "1 write recorded at Metadata level: who and when only",
    ),
    (
        "a refused write changes nothing",
        || {
            let mut w = write("update", "alice", AuditLevel::RequestResponse, None, Some(obj(&[(E, "b")])));
            w.code = Some(409);
            vec![write("create", "argo", AuditLevel::RequestResponse, None, Some(obj(&[(E, "a")]))), w]
        },
        &[],
        "",
    ),
    (
        "recreated under the same name",
        || {
            let mut old = write("create", "argo", AuditLevel::RequestResponse, None, Some(obj(&[(E, "a")])));
            old.uid = Some("uid-old".into());
            vec![old, write("create", "velero", AuditLevel::RequestResponse, None, Some(obj(&[])))]
        },
        &[],
        r#"with a new UID uid-v (was uid-old); the previous one had external-name "a", this one has none"#,
    ),
];

#[test]
fn before_after_and_highlights() {
    let mr = Mr::new("VPC", "v").build();
    for (name, writes, changes, highlight) in CASES {
        let h = super::MrAudit::new(writes(), &mr).history;
        let last = h.writes.last().expect("a write");
        let got: Vec<String> =
            last.changes.iter().map(|c| format!("{}: {} → {}", c.field, c.before.shown(), c.after.shown())).collect();
        assert_eq!(got, *changes, "{name}");
        let all = h.highlights.join("\n");
        assert!(all.contains(highlight), "{name}: {all}");
    }
}

#[test]
fn the_provider_is_told_apart_by_service_account_or_user_agent() {
    let mut w = write("update", PROVIDER, AuditLevel::Metadata, None, None);
    assert!(w.by_provider());
    w.user = "alice".into();
    assert!(!w.by_provider());
    w.user_agent = Some("provider-aws-ec2/v1.16.0 (linux/amd64)".into());
    assert!(w.by_provider());
}

#[test]
fn plurals_match_kinds_offline() {
    for (resource, kind, want) in
        [("vpcs", "VPC", true), ("policies", "Policy", true), ("addresses", "Address", true), ("subnets", "VPC", false)]
    {
        assert_eq!(resource_matches_kind(resource, kind), want, "{resource} {kind}");
    }
}
