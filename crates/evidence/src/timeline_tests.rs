use super::*;
use crate::correlate::LogEvidence;
use crate::logs::{LogScan, scan_slice};
use upjet_core::reconcile_timeout::JudgedAt;
use upjet_core::rules::{MrEvidence, ProviderStarts, findings_with};
use upjet_core::testing::Mr;

fn mr() -> ManagedResource {
    Mr::new("Key", "k")
        .annotation(keys::CREATE_PENDING, "2024-11-30T11:00:05Z")
        .annotation(keys::CREATE_SUCCEEDED, "2024-11-30T11:00:00Z")
        .external_name("mrk-2")
        .cond("Synced", "False", "ReconcileError", "cannot determine creation result")
        .build()
}

fn pod() -> ProviderPod {
    ProviderPod {
        provider: "provider-aws-kms".into(),
        namespace: "crossplane-system".into(),
        name: "provider-aws-kms-1".into(),
        container: "package-runtime".into(),
        pod_started: GoTime::parse_rfc3339("2024-11-30T11:00:30Z"),
        container_started: GoTime::parse_rfc3339("2024-11-30T11:00:30Z"),
        restart_count: 0,
        last_termination: None,
        changelog: None,
        revision: None,
        image: None,
        service_account: "default".into(),
    }
}

fn event() -> EventRecord {
    EventRecord {
        type_: "Warning".into(),
        reason: "CannotInitializeManagedResource".into(),
        message: "cannot determine creation result".into(),
        first: Some("2024-11-30T11:01:00Z".into()),
        last: Some("2024-11-30T11:01:00Z".into()),
        count: 1,
        external_name: Some("mrk-1".into()),
    }
}

fn logs() -> LogEvidence {
    let log = "2024-11-30T11:00:09Z\tDEBUG\tprovider-aws\tAsync create ended.\t{\"trackerUID\": \"uid-k\", \"tfID\": \"mrk-9\"}\n";
    let mut scan = LogScan::new();
    scan_slice(log.as_bytes(), "l", &mut scan);
    LogEvidence::new(scan.take_evidence(), Vec::new())
}

const ORDER: &[Source] = &[
    Source::Object,
    Source::Condition,
    Source::Annotation,
    Source::Annotation,
    Source::Log,
    Source::Pod,
    Source::Event,
    Source::Workspace,
];

#[test]
fn orders_everything_and_points_at_what_matters() {
    let (mr, pod, events, logs) = (mr(), pod(), vec![event()], logs());
    let starts = ProviderStarts { provider: pod.provider.clone(), starts: pod.starts(), package: None };
    let evidence: MrEvidence = crate::sources::mr_evidence(&mr, &[&logs, &starts]);
    let now = GoTime::parse_rfc3339("2024-11-30T11:05:00Z").unwrap();
    let findings = findings_with(&mr, Some(&evidence), JudgedAt::upjet(now));
    let ws = WorkspaceState { pod: "p".into(), id: Some("mrk-2".into()), lineage: None };
    let inputs = Inputs {
        events: &events,
        pods: std::slice::from_ref(&pod),
        logs: logs.about(&mr),
        workspace: Some(&ws),
        events_read: true,
        findings: &findings,
        candidates: &[],
        ..Inputs::default()
    };
    let t = build(&mr, &inputs);
    let order: Vec<Source> = t.entries.iter().map(|e| e.source).collect();
    assert_eq!(order, ORDER);
    let h = t.highlights.join("\n");
    assert!(h.contains("creation incomplete"), "{h}");
    assert!(h.contains("provider restarted at 2024-11-30T11:00:30Z, between create-pending"), "{h}");
    assert!(h.contains("create ended with tfID \"mrk-9\" but the external-name is \"mrk-2\""), "{h}");
    assert!(h.contains("external-name took 2 values"), "{h}");
    assert!(!h.contains("Terraform workspace holds"), "workspace agrees with the external-name: {h}");
}
