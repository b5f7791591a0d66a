//! Real provider logs (see /work/shared/fixtures/logs/SOURCES.md) through the log
//! evidence scanner. Every expected UID / ID / external-name below was read from the
//! fixture files by hand.

use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};
use upjet_evidence::logs::{
    Envelope, Evidence, EvidenceKind, Level, LogScan, RecordFormat, created_ids, decode_line, last_logged_ids, same_id,
    scan,
};

#[path = "../../benches/logs/measure.rs"]
mod measure;
#[path = "../../benches/logs/synthetic.rs"]
mod synthetic;

fn fixtures() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/fixtures/logs")).to_path_buf()
}

fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

fn scan_file(rel: &str) -> LogScan {
    let path = fixtures().join(rel);
    let f = File::open(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut sc = LogScan::new();
    scan(BufReader::new(f), rel, &mut sc).unwrap();
    assert_eq!(sc.lines, sc.parsed + sc.unknown + sc.too_long + sc.blank, "{rel}: counter invariant");
    assert_eq!(sc.bytes, std::fs::metadata(&path).unwrap().len(), "{rel}: every byte read");
    sc
}

fn newline_count(rel: &str) -> u64 {
    std::fs::read(fixtures().join(rel)).unwrap().iter().filter(|&&c| c == b'\n').count() as u64
}

fn of_kind(sc: &LogScan, kind: EvidenceKind) -> Vec<&Evidence> {
    sc.evidence().iter().filter(|e| e.kind == kind).collect()
}

const SIX11_UID: &str = "93250b67-47e4-4feb-81bc-e15b4a2329a1";
const SIX11_EXT: &str =
    "projects/sbx-31371-7bnts707l94ejkf4dv7n/managedZones/telco-zone-dns/rrsets/benchmarksix11.telco.orange.com./A";
const SIX11_CLI_ID: &str = "projects/REDACTED/managedZones/telco-zone-dns/rrsets/benchmarksix11.telco.orange.com./A";
const BUCKET_UID: &str = "839079d2-acf8-4acb-be41-596901317afb";
const BUCKET_NAME: &str = "bucketbenchone1929-e48s7z46a81t45";
const ARUMA_UID: &str = "d396e091-633f-4dce-a7ac-b8450f5f8204";
const ARUMA_NAME: &str = "benchmarkthree-aruma2-2075";
const ARUMA_TFID: &str = "projects/sbx-31371-hxctg7ma6kten29zme1l/managedZones/aruma-zone-dns2/rrsets/benchmarkthree-2075.aruma2.orange.com./A";

/// (file, line count, console-with-tabs lines, console-with-spaces lines, info lines)
const LOG_FILES: &[(&str, u64, u64, u64, u64)] = &[
    ("pagerduty-28-console-spaces.log", 2, 0, 2, 1),
    ("upjet-439-console.log", 5, 5, 0, 0),
    ("upjet-aws-1482-console.log", 5, 5, 0, 0),
    ("upjet-azure-802-authorization-console.log", 6, 6, 0, 1),
    ("upjet-azure-802-managedidentity-console.log", 6, 6, 0, 1),
    ("upjet-gcp-427-console-spaces.log", 2, 0, 2, 0),
    ("xbench-gcp-06-12-2023-aruma2-2075-console.log", 64, 64, 0, 0),
    ("xbench-gcp-18-10-2023-benchmarksix11-console.log", 82, 82, 0, 0),
    ("xbench-gcp-18-10-2023-bucketbenchone1929-console.log", 37, 37, 0, 0),
];

#[test]
fn every_log_fixture_line_is_recognised() {
    let mut listed: Vec<String> = std::fs::read_dir(fixtures())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".log"))
        .collect();
    listed.sort();
    let mut expected: Vec<String> = LOG_FILES.iter().map(|f| f.0.to_string()).collect();
    expected.sort();
    assert_eq!(listed, expected, "fixture set changed: update LOG_FILES");
    let mut total = 0;
    for &(file, lines, tabs, spaces, info) in LOG_FILES {
        let sc = scan_file(file);
        assert_eq!(sc.lines, lines, "{file}: lines");
        assert_eq!(sc.lines, newline_count(file), "{file}: one record per line");
        assert_eq!(sc.parsed, lines, "{file}: parsed");
        assert_eq!((sc.unknown, sc.too_long, sc.blank), (0, 0, 0), "{file}: no unknown line");
        assert_eq!(sc.formats.zap_console, tabs, "{file}: console lines");
        assert_eq!(sc.formats.zap_console_spaces, spaces, "{file}: space-separated lines");
        assert_eq!(sc.formats.zap_json, 0, "{file}");
        assert_eq!(sc.formats.bad_fields, 0, "{file}: every JSON tail parses");
        assert_eq!(sc.levels.info, info, "{file}: info lines");
        assert_eq!(sc.levels.debug, lines - info, "{file}: debug lines");
        assert!(sc.saw_debug, "{file}");
        total += sc.lines;
        // Each line also decodes on its own.
        let text = std::fs::read_to_string(fixtures().join(file)).unwrap();
        for (i, line) in text.lines().enumerate() {
            let rec = decode_line(line.as_bytes()).unwrap_or_else(|| panic!("{file}:{}: does not decode", i + 1));
            assert!(rec.time.is_some(), "{file}:{}", i + 1);
            assert!(!rec.msg.is_empty(), "{file}:{}", i + 1);
            assert!(!rec.bad_fields, "{file}:{}", i + 1);
        }
    }
    assert_eq!(total, 209, "SOURCES.md: 209 lines in 9 files");
}

#[test]
fn benchmarksix11_cli_mode() {
    let sc = scan_file("xbench-gcp-18-10-2023-benchmarksix11-console.log");
    assert_eq!(sc.earliest, Some(t("2023-10-11T14:05:47Z")));
    assert_eq!(sc.latest, Some(t("2023-10-11T16:00:51Z")));
    let ev = sc.evidence();
    assert!(ev.iter().all(|e| e.uid == SIX11_UID), "one MR only");
    assert!(ev.iter().all(|e| e.mr.name.as_deref() == Some("benchmarksix11")));

    // external-name is "" on reconciler lines up to and including 14:14:05, then the real ID.
    let rec: Vec<&Evidence> = ev.iter().filter(|e| e.kind == EvidenceKind::Reconciler).collect();
    for e in &rec {
        let empty = e.last_time.unwrap() <= t("2023-10-11T14:14:05Z");
        assert_eq!(e.id.as_deref() == Some(""), empty, "{e:?}");
        if !empty {
            assert_eq!(e.id.as_deref(), Some(SIX11_EXT));
            assert!(e.time.unwrap() >= t("2023-10-11T14:21:02Z"));
        }
    }
    let first_real = rec.iter().find(|e| e.id.as_deref() == Some(SIX11_EXT)).unwrap();
    assert_eq!(first_real.time, Some(t("2023-10-11T14:21:02Z")));
    assert_eq!(first_real.origin.line, 34);

    // Duplicate "external-name": "", "external-name": "" on the creation request.
    let req = of_kind(&sc, EvidenceKind::CreateRequested);
    assert_eq!(req.len(), 1);
    assert_eq!((req[0].id.as_deref(), req[0].time), (Some(""), Some(t("2023-10-11T14:08:01Z"))));

    // CLI apply: apply_complete hook id (REDACTED project), logged as created.
    let apply = of_kind(&sc, EvidenceKind::CliApply);
    assert_eq!(apply.len(), 1);
    assert_eq!(apply[0].time, Some(t("2023-10-11T14:08:05Z")));
    assert_eq!(apply[0].id.as_deref(), Some(SIX11_CLI_ID));
    assert_eq!(apply[0].created, vec![SIX11_CLI_ID.to_string()]);
    assert!(apply[0].source.contains("apply async ended"), "{}", apply[0].source);
    assert!(apply[0].source.chars().count() <= 300);

    // 8 `refresh ended` lines; the first (before creation) has no id.
    let refresh = of_kind(&sc, EvidenceKind::CliRefresh);
    assert_eq!(refresh.iter().map(|e| e.repeats as usize + 1).sum::<usize>(), 8);
    assert_eq!(refresh[0].id, None);
    assert!(refresh[1..].iter().all(|e| e.id.as_deref() == Some(SIX11_CLI_ID)));

    let crit = of_kind(&sc, EvidenceKind::CriticalAnnotationsUpdated);
    // Two writes (14:08:06, conflicted; 14:14:05) with only routine lines in between: one
    // merged item spanning both.
    assert_eq!(crit.len(), 1);
    assert_eq!(
        (crit[0].time, crit[0].last_time, crit[0].repeats),
        (Some(t("2023-10-11T14:08:06Z")), Some(t("2023-10-11T14:14:05Z")), 1)
    );
    assert_eq!(of_kind(&sc, EvidenceKind::DeleteRequested).len(), 1);
    assert_eq!(of_kind(&sc, EvidenceKind::Deleted)[0].time, Some(t("2023-10-11T15:54:07Z")));
    // Conflict on the annotation update is logged with its error.
    assert!(
        rec.iter().any(|e| e.msg == "Transient conflict error"
            && e.error.as_deref().unwrap().contains("the object has been modified"))
    );

    let last = last_logged_ids(ev);
    assert_eq!(last.len(), 1);
    assert_eq!(last[SIX11_UID].id, SIX11_EXT);
    assert_eq!(last[SIX11_UID].time, Some(t("2023-10-11T15:54:07Z")));
    assert_eq!(last[SIX11_UID].kind, EvidenceKind::Deleted);

    // The created ID differs textually from the external-name only by REDACTED.
    let created = created_ids(ev, SIX11_UID);
    assert_eq!(created.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), vec![SIX11_CLI_ID]);
    assert_ne!(created[0].id, SIX11_EXT);
    assert!(same_id(&created[0].id, SIX11_EXT));
}

#[test]
fn bucketbenchone1929_cli_destroy() {
    let sc = scan_file("xbench-gcp-18-10-2023-bucketbenchone1929-console.log");
    let ev = sc.evidence();
    assert!(ev.iter().all(|e| e.uid == BUCKET_UID));
    let destroy = of_kind(&sc, EvidenceKind::CliDestroy);
    assert_eq!(destroy.len(), 1);
    assert_eq!(destroy[0].time, Some(t("2023-10-20T17:15:48Z")));
    assert_eq!(destroy[0].id.as_deref(), Some(BUCKET_NAME), "refresh_complete id of the destroyed bucket");
    assert!(destroy[0].created.is_empty(), "a destroy's apply_complete has no id_value");
    let del = of_kind(&sc, EvidenceKind::DeleteRequested);
    assert!(!del.is_empty());
    assert!(del.iter().all(|e| e.id.as_deref() == Some(BUCKET_NAME) && e.mr.name.as_deref() == Some(BUCKET_NAME)));
    assert!(created_ids(ev, BUCKET_UID).is_empty());
    let last = last_logged_ids(ev);
    assert_eq!(last[BUCKET_UID].id, BUCKET_NAME);
    assert_eq!(last[BUCKET_UID].kind, EvidenceKind::Deleted);
}

fn check_aruma(sc: &LogScan, what: &str) {
    let ev = sc.evidence();
    assert!(ev.iter().all(|e| e.uid == ARUMA_UID && e.mr.name.as_deref() == Some(ARUMA_NAME)), "{what}");
    let start = of_kind(sc, EvidenceKind::AsyncCreateStarting);
    assert_eq!(start.len(), 1, "{what}");
    assert_eq!(start[0].id.as_deref(), Some(""), "{what}: tfID is empty at start");
    let ended = of_kind(sc, EvidenceKind::AsyncCreateEnded);
    assert_eq!(ended.len(), 1, "{what}");
    assert_eq!(ended[0].id.as_deref(), Some(ARUMA_TFID), "{what}");
    assert_eq!(ended[0].error, None, "{what}: error null");
    assert_eq!(ended[0].created, vec![ARUMA_TFID.to_string()], "{what}");
    assert_eq!(ended[0].time.map(|t| t.timestamp()), Some(t("2023-12-06T19:51:45Z").timestamp()), "{what}");
    assert_eq!(of_kind(sc, EvidenceKind::StateReconstructing).len(), 3, "{what}: 3x Instance state not found");
    assert_eq!(of_kind(sc, EvidenceKind::CreateRequested)[0].id.as_deref(), Some(""), "{what}");
    // Reconciler lines: "" until 19:51:47, the tfID from 20:02:09.
    let with_id: Vec<_> =
        of_kind(sc, EvidenceKind::Reconciler).into_iter().filter(|e| e.id.as_deref() == Some(ARUMA_TFID)).collect();
    assert_eq!(with_id.len(), 1, "{what}");
    assert_eq!(with_id[0].repeats, 4, "{what}: 5 up-to-date lines with the ID");
    assert_eq!(with_id[0].time.map(|t| t.timestamp()), Some(t("2023-12-06T20:02:09Z").timestamp()), "{what}");
    assert_eq!(with_id[0].last_time.map(|t| t.timestamp()), Some(t("2023-12-07T00:01:23Z").timestamp()), "{what}");
    assert_eq!(
        created_ids(ev, ARUMA_UID).iter().map(|c| c.id.as_str()).collect::<Vec<_>>(),
        vec![ARUMA_TFID],
        "{what}"
    );
    let last = last_logged_ids(ev);
    assert_eq!(last[ARUMA_UID].id, ARUMA_TFID, "{what}");
    assert_eq!(last[ARUMA_UID].kind, EvidenceKind::Deleted, "{what}");
    assert_eq!(last[ARUMA_UID].time.map(|t| t.timestamp()), Some(t("2023-12-07T02:50:25Z").timestamp()), "{what}");
}

#[test]
fn aruma2_no_fork_async_tfid() {
    let sc = scan_file("xbench-gcp-06-12-2023-aruma2-2075-console.log");
    check_aruma(&sc, "console");
    let ended = of_kind(&sc, EvidenceKind::AsyncCreateEnded);
    assert_eq!(ended[0].origin.line, 15);
    assert!(ended[0].source.contains(ARUMA_TFID), "{}", ended[0].source);
}

#[test]
fn issue_excerpts() {
    // provider-upjet-aws#1482: fresh tracker, no ID logged.
    let sc = scan_file("upjet-aws-1482-console.log");
    let ev = sc.evidence();
    assert_eq!(ev.len(), 1);
    assert_eq!(ev[0].kind, EvidenceKind::StateReconstructing);
    assert_eq!(ev[0].uid, "c7b6217a-3e63-4494-89ef-f76d7f6f0cf5");
    assert_eq!(ev[0].mr.name.as_deref(), Some("rg-network-k2rbw-f2shz"));
    assert_eq!(ev[0].mr.gvk.as_deref(), Some("ec2.aws.upbound.io/v1beta1, Kind=NetworkACLRule"));
    assert!(last_logged_ids(ev).is_empty());

    // upjet#439: external-name "" on up-to-date lines: timeline only, no logged ID.
    let sc = scan_file("upjet-439-console.log");
    let ev = sc.evidence();
    assert_eq!(ev.len(), 1);
    assert_eq!(
        (ev[0].kind, ev[0].uid.as_str(), ev[0].id.as_deref(), ev[0].repeats),
        (EvidenceKind::Reconciler, "a03375f7-cc5e-4df2-a04b-e29e7d3f3a1d", Some(""), 1)
    );
    assert_eq!(ev[0].mr.name.as_deref(), Some("borrelli-test-2"));
    assert_eq!(ev[0].mr.controller.as_deref(), Some("managed/keyvault.azure.upbound.io/v1beta1, kind=key"));
    assert!(last_logged_ids(ev).is_empty());

    // provider-upjet-azure#802: restart, then a fresh tracker per MR.
    for (file, uid, name) in [
        (
            "upjet-azure-802-managedidentity-console.log",
            "292dcb81-22bc-4d20-b2de-142ab1083004",
            "user-assigned-identity-test",
        ),
        ("upjet-azure-802-authorization-console.log", "66c9728e-c4d8-49f1-83a9-5a283bbafef8", "my-test"),
    ] {
        let sc = scan_file(file);
        let ev = sc.evidence();
        assert_eq!(ev.len(), 1, "{file}");
        assert_eq!(
            (ev[0].kind, ev[0].uid.as_str(), ev[0].mr.name.as_deref()),
            (EvidenceKind::StateReconstructing, uid, Some(name)),
            "{file}"
        );
        assert!(ev[0].is_about(uid, name, None));
    }

    // Space-separated excerpts carry no evidence.
    for file in ["upjet-gcp-427-console-spaces.log", "pagerduty-28-console-spaces.log"] {
        assert!(scan_file(file).evidence().is_empty(), "{file}");
    }
}

#[test]
fn space_separated_lines_decode_fully() {
    let text = std::fs::read_to_string(fixtures().join("pagerduty-28-console-spaces.log")).unwrap();
    let lines: Vec<_> = text.lines().collect();
    let a = decode_line(lines[0].as_bytes()).unwrap();
    assert_eq!(
        (a.level, a.logger.as_str(), a.msg.as_str()),
        (Level::Info, "provider-pagerduty", "Alpha feature enabled")
    );
    assert_eq!(a.fields["flag"], "EnableAlphaManagementPolicies");
    assert_eq!(a.format, RecordFormat::ZapConsoleSpaces);
    let b = decode_line(lines[1].as_bytes()).unwrap();
    assert_eq!((b.level, b.logger.as_str()), (Level::Debug, "events"));
    assert_eq!(
        b.msg,
        "`spec.managementPolicies` is set to a non-default value but the feature is not enabled: [Observe Create]"
    );
    assert!(b.fields.is_empty());

    let text = std::fs::read_to_string(fixtures().join("upjet-gcp-427-console-spaces.log")).unwrap();
    let recs: Vec<_> = text.lines().map(|l| decode_line(l.as_bytes()).unwrap()).collect();
    assert_eq!(recs[0].msg, "Calling the inner handler for Create event.");
    assert_eq!(recs[0].fields["name"], "test-bucket-e48s7z56a81t45");
    assert_eq!(recs[1].msg, "Reconciling");
    assert_eq!(recs[1].fields["request"]["name"], "test-bucket-e48s7z56a81t45");
    assert_eq!(recs[1].fields["controller"], "managed/storage.gcp.upbound.io/v1beta1, kind=bucket");
    assert!(recs.iter().all(|r| r.logger == "provider-gcp" && r.time == Some(t("2023-12-06T13:03:26Z"))));
}

#[test]
fn gcp_logs_explorer_export() {
    let sc = scan_file("raw/gcp-logs-explorer-benchmarksix11.json");
    // 125 entries: 82 textPayload (k8s_container), 40 audit-log protoPayload, 3 Event jsonPayload.
    assert_eq!((sc.lines, sc.parsed, sc.unknown, sc.too_long, sc.blank), (125, 125, 0, 0, 0));
    assert_eq!(sc.formats.cloud_logging, 125);
    assert_eq!(sc.formats.non_log_entries, 43);
    assert_eq!(sc.formats.zap_console, 82);
    assert_eq!(sc.levels.debug, 82);
    // Entry timestamps refine the whole-second console times.
    assert_eq!(sc.earliest, Some(t("2023-10-11T14:05:47.132973976Z")));
    assert_eq!(sc.latest, Some(t("2023-10-11T16:00:51.658379235Z")));

    // Same evidence as the console file that was extracted from it, plus 3 Events.
    let console = scan_file("xbench-gcp-18-10-2023-benchmarksix11-console.log");
    type Key = (EvidenceKind, Option<String>, Vec<String>, u32, Option<i64>);
    let strip = |sc: &LogScan| -> Vec<Key> {
        sc.evidence()
            .iter()
            .filter(|e| e.kind != EvidenceKind::KubeEvent)
            .map(|e| (e.kind, e.id.clone(), e.created.clone(), e.repeats, e.time.map(|t| t.timestamp())))
            .collect()
    };
    assert_eq!(strip(&sc), strip(&console));
    let events = of_kind(&sc, EvidenceKind::KubeEvent);
    assert_eq!(events.len(), 3);
    assert_eq!(
        events.iter().map(|e| (e.msg.split(':').next().unwrap(), e.id.as_deref().unwrap())).collect::<Vec<_>>(),
        vec![
            ("CreatedExternalResource", ""),
            ("CannotUpdateManagedResource", ""),
            ("DeletedExternalResource", SIX11_EXT)
        ]
    );
    assert!(
        events
            .iter()
            .all(|e| e.uid == SIX11_UID && e.mr.gvk.as_deref() == Some("dns.gcp.upbound.io/v1beta1, Kind=RecordSet"))
    );
    // Evidence points at the entry's line in the pretty-printed file.
    let text = std::fs::read_to_string(fixtures().join("raw/gcp-logs-explorer-benchmarksix11.json")).unwrap();
    let apply = of_kind(&sc, EvidenceKind::CliApply)[0];
    let apply_line = text.lines().position(|l| l.contains("apply async ended")).unwrap() as u64 + 1;
    assert!(
        apply.origin.line < apply_line && apply_line - apply.origin.line < 40,
        "{} vs {apply_line}",
        apply.origin.line
    );
    assert_eq!(last_logged_ids(sc.evidence())[SIX11_UID].id, SIX11_EXT);
}

#[test]
fn loki_exports() {
    let sc = scan_file("raw/loki-export-aruma2-2075.json");
    assert_eq!((sc.lines, sc.parsed, sc.unknown), (64, 64, 0));
    assert_eq!((sc.formats.loki, sc.formats.zap_console), (64, 64));
    // Loki's nanosecond timestamps refine the console seconds.
    assert_eq!(sc.earliest, Some(t("2023-12-06T19:19:01.639502520Z")));
    assert_eq!(sc.latest, Some(t("2023-12-07T03:37:49.558146862Z")));
    check_aruma(&sc, "loki json (newest first)");

    let sc = scan_file("raw/loki-export-aruma2-2075.txt");
    // 4 header lines + 2 blank lines + 64 records.
    assert_eq!((sc.lines, sc.parsed, sc.unknown, sc.blank), (70, 64, 4, 2));
    assert_eq!(sc.formats.loki_text, 64);
    check_aruma(&sc, "loki text");

    // The JSON export and the console fixture agree on the last logged ID.
    let console = scan_file("xbench-gcp-06-12-2023-aruma2-2075-console.log");
    assert_eq!(last_logged_ids(console.evidence())[ARUMA_UID].id, ARUMA_TFID);
}

#[test]
fn all_sources_into_one_scan() {
    let mut sc = LogScan::new();
    let files = [
        "xbench-gcp-18-10-2023-benchmarksix11-console.log",
        "xbench-gcp-18-10-2023-bucketbenchone1929-console.log",
        "raw/loki-export-aruma2-2075.json",
        "raw/gcp-logs-explorer-benchmarksix11.json",
        "upjet-aws-1482-console.log",
        "pagerduty-28-console-spaces.log",
    ];
    for f in files {
        scan(BufReader::new(File::open(fixtures().join(f)).unwrap()), f, &mut sc).unwrap();
    }
    let last: HashMap<_, _> = last_logged_ids(sc.evidence()).into_iter().map(|(k, v)| (k, v.id)).collect();
    assert_eq!(last.len(), 3);
    assert_eq!(last[SIX11_UID], SIX11_EXT);
    assert_eq!(last[BUCKET_UID], BUCKET_NAME);
    assert_eq!(last[ARUMA_UID], ARUMA_TFID);
    let stream_of = |uid: &str| sc.evidence().iter().find(|e| e.uid == uid).unwrap().origin.stream.clone();
    assert_eq!(stream_of(ARUMA_UID), "raw/loki-export-aruma2-2075.json");
    assert!(sc.formats.loki > 0 && sc.formats.cloud_logging > 0 && sc.formats.zap_console_spaces == 2);
    assert_eq!(sc.lines, 82 + 37 + 64 + 125 + 5 + 2);
    assert_eq!(sc.unknown, 0);
    // Envelope of a wrapped record is reported.
    let text = std::fs::read_to_string(fixtures().join("raw/loki-export-aruma2-2075.json")).unwrap();
    let first: serde_json::Value = serde_json::from_str(&text).unwrap();
    let entry = serde_json::to_string(&first[0]).unwrap();
    assert_eq!(decode_line(entry.as_bytes()).unwrap().envelope, Envelope::Loki);
}

/// Throughput of the scanner on a generated 200 MB debug-level zap JSON stream.
/// Run with `cargo test --release --test log_fixtures -- --ignored --nocapture throughput`.
#[test]
#[ignore]
fn throughput_zap_json_200mb() {
    use measure::measure;
    use synthetic::synthetic_zap_json;
    let data = synthetic_zap_json(200 << 20);
    let mut best = 0f64;
    for _ in 0..3 {
        let (sc, mbps) = measure(&data);
        assert_eq!(sc.unknown, 0);
        println!("scan: {:.1} MB/s ({} bytes, {} lines, {} evidence)", mbps, data.len(), sc.lines, sc.evidence().len());
        best = best.max(mbps);
    }
    println!("best: {best:.1} MB/s");
    if !cfg!(debug_assertions) {
        assert!(best >= 100.0, "zap JSON scan below 100 MB/s: {best:.1}");
    }
}

/// Peak memory stays flat while a 1 GiB stream (generated on the fly, never held in
/// memory) with a 10 MB line every 64 MiB goes through the scanner.
/// Run with `cargo test --release --test log_fixtures -- --ignored --nocapture memory`.
#[test]
#[ignore]
fn memory_constant_over_1gib_stream() {
    use std::io::Read;
    use synthetic::synthetic_zap_json;
    struct Gen {
        chunk: Vec<u8>,
        big: Vec<u8>,
        pos: usize,
        emitted: u64,
        limit: u64,
    }
    impl Read for Gen {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.emitted >= self.limit {
                return Ok(0);
            }
            let use_big = (self.emitted / self.chunk.len() as u64) % 16 == 15;
            let src = if use_big { &self.big } else { &self.chunk };
            let n = (src.len() - self.pos).min(buf.len());
            buf[..n].copy_from_slice(&src[self.pos..self.pos + n]);
            self.pos += n;
            if self.pos == src.len() {
                self.pos = 0;
                self.emitted += self.chunk.len() as u64;
            }
            Ok(n)
        }
    }
    fn vm_hwm_kb() -> u64 {
        std::fs::read_to_string("/proc/self/status")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("VmHWM:"))
                    .map(|l| l.split_whitespace().nth(1).unwrap().parse().unwrap())
            })
            .unwrap_or(0)
    }
    let chunk = synthetic_zap_json(4 << 20);
    let mut big = vec![b'x'; 10 << 20];
    big.push(b'\n');
    let mut sc = LogScan::new();
    // Warm up (allocations of the first pass), then measure growth over 1 GiB.
    upjet_evidence::logs::scan_slice(&chunk, "warm", &mut sc);
    let before = vm_hwm_kb();
    let g = Gen { chunk, big, pos: 0, emitted: 0, limit: 1 << 30 };
    scan(BufReader::with_capacity(64 << 10, g), "gen", &mut sc).unwrap();
    let after = vm_hwm_kb();
    println!(
        "lines {} too_long {} evidence {} VmHWM {before} kB -> {after} kB",
        sc.lines,
        sc.too_long,
        sc.evidence().len()
    );
    assert!(sc.too_long >= 10);
    assert!(after.saturating_sub(before) < 64 * 1024, "peak memory grew by {} kB", after - before);
}

/// provider-upjet-aws#1482's real console lines: upjet's `Connect` logged "Instance state not
/// found in cache, reconstructing..." (pkg/controller/external_tfpluginsdk.go) for the
/// NetworkACLRule, and history puts it on the MR's timeline as the restart marker it is.
#[test]
fn the_restart_marker_of_a_real_log_is_on_the_timeline() {
    use upjet_core::managed::ManagedResource;
    use upjet_evidence::correlate::{LogEvidence, SourceSummary};
    use upjet_evidence::timeline::{Inputs, Source, build};
    let mut sc = scan_file("upjet-aws-1482-console.log");
    let summary = SourceSummary::of("upjet-aws-1482-console.log", None, &sc);
    let logs = LogEvidence::new(sc.take_evidence(), vec![summary]);
    let mr = ManagedResource::from_json(
        r#"{"apiVersion":"ec2.aws.upbound.io/v1beta1","kind":"NetworkACLRule",
            "metadata":{"name":"rg-network-k2rbw-f2shz","uid":"c7b6217a-3e63-4494-89ef-f76d7f6f0cf5"}}"#,
    )
    .unwrap();
    let timeline = build(&mr, &Inputs { logs: logs.about(&mr), ..Inputs::default() });
    let marker = timeline.entries.iter().find(|e| e.source == Source::Log).expect("the log line");
    assert_eq!(marker.time.as_deref(), Some("2024-09-06T14:55:20Z"));
    assert!(
        marker.text.starts_with("StateReconstructing: Instance state not found in cache, reconstructing..."),
        "{}",
        marker.text
    );
    assert!(marker.text.contains("restart marker"), "{}", marker.text);
}
