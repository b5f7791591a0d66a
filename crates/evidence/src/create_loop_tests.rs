use super::*;
use crate::logs::{LogScan, Retention, scan_slice};

const UID: &str = "93250b67-47e4-4feb-81bc-e15b4a2329a1";

fn requested(t: &str, name: &str) -> String {
    format!(
        "{t}\tDEBUG\tprovider-gcp\tSuccessfully requested creation of external resource\t{{\"controller\": \"managed/dns.gcp.upbound.io/v1beta1, kind=recordset\", \"request\": {{\"name\":\"rs\"}}, \"uid\": \"{UID}\", \"version\": \"1\", \"external-name\": \"{name}\", \"external-name\": \"{name}\"}}\n"
    )
}

fn ended(t: &str, error: &str) -> String {
    format!(
        "{t}\tDEBUG\tprovider-gcp\tAsync create ended.\t{{\"trackerUID\": \"{UID}\", \"resourceName\": \"rs\", \"tfID\": \"\", \"error\": \"{error}\"}}\n"
    )
}

fn scanned(log: &str, retention: Retention) -> Vec<Evidence> {
    let mut scan = LogScan::with_retention(retention);
    scan_slice(log.as_bytes(), "l", &mut scan);
    scan.take_evidence()
}

fn attempts(log: &str) -> CreateAttempts {
    let evidence = scanned(log, Retention::Full);
    create_attempts(&evidence.iter().collect::<Vec<_>>(), &[])
}

fn at(s: &str) -> Option<GoTime> {
    GoTime::parse_rfc3339(s)
}

#[test]
fn counts_the_loop_and_whether_an_id_was_logged() {
    let exists = "googleapi: Error 409: The resource 'x' already exists, alreadyExists";
    let t = |m: u32| format!("2023-10-11T14:{m:02}:01Z");
    let looped: String = (0..4).map(|i| requested(&t(10 + 2 * i), "") + &ended(&t(11 + 2 * i), exists)).collect();
    for (name, log, want) in [
        (
            "four refused creates, external-name always empty",
            looped.clone(),
            CreateAttempts {
                requests: 4,
                already_exists: 4,
                first: at(&t(10)),
                last: at(&t(17)),
                id_logged: false,
                most_in_one_process: 4,
                interrupted: vec![],
            },
        ),
        (
            "one create that worked is no loop",
            requested(&t(10), "") + &ended(&t(11), ""),
            CreateAttempts {
                requests: 1,
                first: at(&t(10)),
                last: at(&t(10)),
                most_in_one_process: 1,
                ..CreateAttempts::default()
            },
        ),
        (
            "an external-name on a reconciler line counts as logged",
            requested(&t(10), "projects/p/managedZones/z/rrsets/rs./A") + &ended(&t(11), "other failure"),
            CreateAttempts {
                requests: 1,
                first: at(&t(10)),
                last: at(&t(10)),
                id_logged: true,
                most_in_one_process: 1,
                ..CreateAttempts::default()
            },
        ),
        ("no lines", String::new(), CreateAttempts::default()),
    ] {
        assert_eq!(attempts(&log), want, "{name}");
    }
    assert!(attempts(&looped).is_loop());
    assert!(!attempts(&(requested(&t(10), "") + &ended(&t(11), ""))).is_loop());
}

/// An SQS Queue's controller in upjet's Terraform CLI mode (upjet v0.11, provider-upjet-aws): a
/// provider process starts with controller-runtime's lines (`Controller.Start` in
/// `pkg/internal/controller/controller.go`; keys as provider-upjet-aws#612 shows them, no logger
/// name since the provider hands controller-runtime its unnamed zap logger).
mod cli {
    pub const UID: &str = "5a0e7b43-3c5e-4d1b-9f7a-2f1c0d9e8b71";
    const CONTROLLER: &str = r#""controller": "managed/sqs.aws.upbound.io/v1beta1, kind=queue", "controllerGroup": "sqs.aws.upbound.io", "controllerKind": "Queue""#;

    /// The three lines of one process start, in the order `Controller.Start` logs them.
    pub fn start(t: &str) -> String {
        format!(
            "{t}\tINFO\tStarting EventSource\t{{{CONTROLLER}, \"source\": \"kind source: *v1beta1.Queue\"}}\n\
             {t}\tINFO\tStarting Controller\t{{{CONTROLLER}}}\n\
             {t}\tINFO\tStarting workers\t{{{CONTROLLER}, \"worker count\": 10}}\n"
        )
    }

    /// crossplane-runtime's line after `Create` returned (upjet's `ApplyAsync` started), then
    /// upjet's workspace line running `terraform apply` in `/tmp/<uid>`.
    pub fn requested(t: &str) -> String {
        format!(
            "{t}\tDEBUG\tprovider-aws\tSuccessfully requested creation of external resource\t{{\"controller\": \"managed/sqs.aws.upbound.io/v1beta1, kind=queue\", \"request\": {{\"name\":\"orders\"}}, \"uid\": \"{UID}\", \"version\": \"7781\", \"external-name\": \"\", \"external-name\": \"\"}}\n\
             {t}\tDEBUG\tprovider-aws\tRunning terraform\t{{\"workspace\": \"/tmp/{UID}\", \"args\": [\"apply\", \"-auto-approve\", \"-input=false\", \"-lock=false\", \"-json\"]}}\n"
        )
    }

    /// upjet's `apply async ended`, its `out` the Terraform JSON UI of a create that finished.
    pub fn applied(t: &str, url: &str) -> String {
        let out = format!(
            "{{\"@level\":\"info\",\"@message\":\"aws_sqs_queue.orders: Creation complete after 25s [id={url}]\",\"@module\":\"terraform.ui\",\"hook\":{{\"resource\":{{\"addr\":\"aws_sqs_queue.orders\",\"resource_type\":\"aws_sqs_queue\",\"resource_name\":\"orders\"}},\"action\":\"create\",\"id_key\":\"id\",\"id_value\":\"{url}\",\"elapsed_seconds\":25}},\"type\":\"apply_complete\"}}\n"
        );
        let fields = serde_json::json!({"workspace": format!("/tmp/{UID}"), "out": out});
        format!("{t}\tDEBUG\tprovider-aws\tapply async ended\t{fields}\n")
    }
}

/// Three provider runs, the first two killed mid-create: two create requests, none refused, is
/// no loop against an existing object but two creates a restart cut short.
#[test]
fn three_process_starts_tell_the_creates_a_restart_cut_short() {
    let log = cli::start("2024-11-30T10:00:00Z")
        + &cli::requested("2024-11-30T10:00:05Z")
        + &cli::start("2024-11-30T10:00:20Z")
        + &cli::requested("2024-11-30T10:00:26Z")
        + &cli::start("2024-11-30T10:00:41Z");
    for retention in [Retention::Full, Retention::Compact] {
        let evidence = scanned(&log, retention.clone());
        let starts = evidence.iter().filter(|e| e.kind == EvidenceKind::ProcessStarted).count();
        assert_eq!(starts, 3, "one piece of evidence per process start ({retention:?})");
        let got = create_attempts(&evidence.iter().collect::<Vec<_>>(), &[]);
        assert!(!got.is_loop(), "{got:?}");
        assert_eq!((got.requests, got.already_exists, got.most_in_one_process), (2, 0, 1));
        let want = vec![
            Interrupted {
                requested: at("2024-11-30T10:00:05Z").unwrap(),
                restarted: at("2024-11-30T10:00:20Z").unwrap(),
                again: at("2024-11-30T10:00:26Z"),
            },
            Interrupted {
                requested: at("2024-11-30T10:00:26Z").unwrap(),
                restarted: at("2024-11-30T10:00:41Z").unwrap(),
                again: None,
            },
        ];
        assert_eq!(got.interrupted, want, "{retention:?}");
    }
}

/// A create whose `apply async ended` came before the next process start was not cut short; a
/// restart known only from the pods counts as one from the log does.
#[test]
fn a_create_that_ended_before_the_restart_was_not_cut_short() {
    let url = "https://sqs.eu-west-1.amazonaws.com/123456789012/orders";
    let log = cli::start("2024-11-30T10:00:00Z")
        + &cli::requested("2024-11-30T10:00:05Z")
        + &cli::applied("2024-11-30T10:00:30Z", url)
        + &cli::start("2024-11-30T10:05:00Z");
    assert_eq!(attempts(&log).interrupted, vec![]);
    let without_starts = cli::requested("2024-11-30T10:00:05Z");
    let evidence = scanned(&without_starts, Retention::Full);
    let pod_restart = [at("2024-11-30T10:00:20Z").unwrap()];
    let got = create_attempts(&evidence.iter().collect::<Vec<_>>(), &pod_restart);
    assert_eq!(got.interrupted.len(), 1, "{got:?}");
}

/// Identical create requests merge into one run only within one process: the restart between
/// two keeps them apart, so neither is read as a loop.
#[test]
fn a_restart_breaks_a_run_of_identical_requests() {
    let log = cli::requested("2024-11-30T10:00:05Z")
        + &cli::start("2024-11-30T10:00:20Z")
        + &cli::requested("2024-11-30T10:00:26Z");
    let evidence = scanned(&log, Retention::Compact);
    let runs = evidence.iter().filter(|e| e.kind == EvidenceKind::CreateRequested).count();
    assert_eq!(runs, 2, "{evidence:?}");
    let same_process = cli::requested("2024-11-30T10:00:05Z") + &cli::requested("2024-11-30T10:00:26Z");
    let got = attempts(&same_process);
    assert_eq!((got.requests, got.most_in_one_process, got.is_loop()), (2, 2, true));
}

/// The object the first create made, named from the cloud's audit record (a create call by the
/// provider between that request and the restart), tracked or not.
#[test]
fn the_cloud_s_record_names_the_object_the_cut_short_create_made() {
    use std::sync::Arc;
    use upjet_core::cloud_audit::{CloudCall, MrCloudAudit, Observed};
    let log = cli::start("2024-11-30T10:00:00Z")
        + &cli::requested("2024-11-30T10:00:05Z")
        + &cli::start("2024-11-30T10:00:20Z")
        + &cli::requested("2024-11-30T10:00:26Z");
    let got = attempts(&log);
    let made = |raw: &str, at: &str, tracked: bool| Observed {
        call: Arc::new(CloudCall::aws_test("sqs.amazonaws.com", "CreateQueue", at)),
        id: None,
        raw_id: Some(raw.into()),
        by: "its crossplane-name tag".into(),
        tracked,
    };
    let record = MrCloudAudit {
        creates: vec![
            made("https://sqs.eu-west-1.amazonaws.com/123456789012/orders-a", "2024-11-30T10:00:04Z", false),
            made("https://sqs.eu-west-1.amazonaws.com/123456789012/orders-b", "2024-11-30T10:00:25Z", true),
        ],
        ..MrCloudAudit::default()
    };
    let said = cut_short(&got, Some(&record), None).join("\n");
    assert!(
        said.contains(
            "the create requested at 2024-11-30T10:00:05Z made \"https://sqs.eu-west-1.amazonaws.com/123456789012/orders-a\", which nothing tracks: the cloud's audit record shows its CreateQueue at 2024-11-30T10:00:04Z"
        ),
        "{said}"
    );
    assert!(!said.contains("orders-b\", which nothing"), "{said}");
    assert!(cut_short(&got, None, None).iter().all(|l| !l.contains(" made \"")), "nothing names an object");
}
