//! Table-driven unit tests for decoding, extraction, streaming and aggregation.
//! Lines are realistic but written here (real-provider lines live in
//! `tests/it/log_fixtures.rs`, which reads /work/shared/fixtures/logs).

use std::io::{self, BufRead, BufReader, Read};

use chrono::{DateTime, Utc};
use serde_json::{Value, json};

use super::extract::{evidence_from_record, parse_callback_target, workspace_uid};
use super::tf_out::parse_tf_out;
use super::*;

#[path = "../../../../benches/logs/synthetic.rs"]
mod synthetic;

const UID_A: &str = "5f0c7d4e-1a2b-4c3d-8e9f-0123456789ab";
const UID_B: &str = "93250b67-47e4-4feb-81bc-e15b4a2329a1";

fn t(s: &str) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
}

/// A zap console line as controller-runtime's dev encoder prints it.
fn console(ts: &str, level: &str, logger: &str, msg: &str, fields: Value) -> String {
    let tail = serde_json::to_string(&fields).unwrap().replace("\":", "\": ").replace(",\"", ", \"");
    format!("{ts}\t{level}\t{logger}\t{msg}\t{tail}")
}

/// A zap JSON line in zap's key order (level, ts, logger, msg, fields...).
fn zapjson(level: &str, ts: Value, logger: &str, msg: &str, fields: Value) -> String {
    let f = serde_json::to_string(&fields).unwrap();
    let rest = &f[1..f.len() - 1];
    let sep = if rest.is_empty() { "" } else { "," };
    format!(r#"{{"level":"{level}","ts":{ts},"logger":"{logger}","msg":{msg}{sep}{rest}}}"#, msg = json!(msg))
}

fn scan_str(s: &str) -> LogScan {
    let mut sc = LogScan::new();
    scan_slice(s.as_bytes(), "test", &mut sc);
    sc
}

fn scan_bytes_cap(data: &[u8], cap: usize) -> LogScan {
    let mut sc = LogScan::new();
    scan(BufReader::with_capacity(cap, data), "test", &mut sc).unwrap();
    sc
}

fn assert_invariant(sc: &LogScan) {
    assert_eq!(sc.lines, sc.parsed + sc.unknown + sc.too_long + sc.blank, "counter invariant broken: {sc:?}");
}

/// Terraform `-json` UI stream as upjet's CLI workspace logs it in `out`.
fn tf_out(entries: &[Value]) -> String {
    let mut s = String::new();
    for e in entries {
        s.push_str(&serde_json::to_string(e).unwrap());
        s.push('\n');
    }
    s
}

fn tf_hook(typ: &str, action: Option<&str>, id: Option<&str>, msg: &str) -> Value {
    let mut hook = json!({"resource": {"addr": "aws_vpc.my-vpc", "module": "", "resource": "aws_vpc.my-vpc",
        "implied_provider": "aws", "resource_type": "aws_vpc", "resource_name": "my-vpc", "resource_key": null}});
    if let Some(a) = action {
        hook["action"] = json!(a);
    }
    if let Some(i) = id {
        hook["id_key"] = json!("id");
        hook["id_value"] = json!(i);
    }
    json!({"@level": "info", "@message": msg, "@module": "terraform.ui", "@timestamp": "2024-05-02T10:11:12.000000Z",
        "hook": hook, "type": typ})
}

// ---------------------------------------------------------------------------------
// Decoding
// ---------------------------------------------------------------------------------

struct DecodeCase {
    name: &'static str,
    line: String,
    /// `None`: the line must not decode.
    want: Option<Want>,
}

struct Want {
    time: Option<&'static str>,
    level: Level,
    logger: &'static str,
    msg: &'static str,
    format: RecordFormat,
    envelope: Envelope,
    epoch: bool,
    field: Option<(&'static str, Value)>,
    bad_fields: bool,
}

fn want(time: &'static str, level: Level, logger: &'static str, msg: &'static str, format: RecordFormat) -> Want {
    Want {
        time: Some(time),
        level,
        logger,
        msg,
        format,
        envelope: Envelope::None,
        epoch: false,
        field: None,
        bad_fields: false,
    }
}

impl Want {
    fn env(mut self, e: Envelope) -> Self {
        self.envelope = e;
        self
    }
    fn epoch(mut self) -> Self {
        self.epoch = true;
        self
    }
    fn field(mut self, k: &'static str, v: Value) -> Self {
        self.field = Some((k, v));
        self
    }
    fn bad(mut self) -> Self {
        self.bad_fields = true;
        self
    }
}

/// The key/values of a typical `External resource is up to date` reconciler line.
fn up_to_date_fields() -> Value {
    json!({"controller": "managed/ec2.aws.upbound.io/v1beta1, kind=vpc", "request": {"name": "my-vpc"},
        "uid": UID_A, "version": "123", "external-name": "vpc-0abc", "requeue-after": "2024-05-02T10:21:12Z"})
}

/// That line as zap JSON.
fn sample_zap_line() -> String {
    zapjson(
        "debug",
        json!("2024-05-02T10:11:12.345Z"),
        "provider-aws",
        "External resource is up to date",
        up_to_date_fields(),
    )
}

/// That line as zap console.
fn sample_console_line() -> String {
    console("2024-05-02T10:11:12Z", "DEBUG", "provider-aws", "External resource is up to date", up_to_date_fields())
}

/// Every decoding case, in one list for the table tests.
fn decode_cases() -> Vec<DecodeCase> {
    [
        console_decode_cases(),
        zap_json_decode_cases(),
        envelope_decode_cases(),
        json_wrapper_decode_cases(),
        rejected_decode_cases(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// zap console lines: tabs, expanded tabs, caller, epoch time, colours, broken tails.
fn console_decode_cases() -> Vec<DecodeCase> {
    use Level::*;
    use RecordFormat::*;
    let console_line = sample_console_line();
    vec![
        DecodeCase {
            name: "console tabs with JSON tail",
            line: console_line.clone(),
            want: Some(want("2024-05-02T10:11:12Z", Debug, "provider-aws", "External resource is up to date", ZapConsole)
                .field("external-name", json!("vpc-0abc"))),
        },
        DecodeCase {
            name: "console tabs without tail",
            line: "2024-05-02T10:11:12Z\tINFO\tprovider-aws\tShutting down".into(),
            want: Some(want("2024-05-02T10:11:12Z", Info, "provider-aws", "Shutting down", ZapConsole)),
        },
        DecodeCase {
            name: "console without logger name",
            line: "2024-05-02T10:11:12Z\tINFO\tStarting workers\t{\"worker count\": 10}".into(),
            want: Some(want("2024-05-02T10:11:12Z", Info, "", "Starting workers", ZapConsole).field("worker count", json!(10))),
        },
        DecodeCase {
            name: "console with caller field",
            line: "2024-05-02T10:11:12Z\tDEBUG\tprovider-aws\tcontroller/external.go:129\tConnecting to the service provider\t{\"uid\": \"x\"}".into(),
            want: Some(want("2024-05-02T10:11:12Z", Debug, "provider-aws", "Connecting to the service provider", ZapConsole).field("uid", json!("x"))),
        },
        DecodeCase {
            name: "console spaces, 4-space separators and trailing space (pagerduty#28 style)",
            line: "2023-08-29T10:22:07Z    INFO    provider-pagerduty    Alpha feature enabled    {\"flag\": \"EnableAlphaManagementPolicies\"} ".into(),
            want: Some(want("2023-08-29T10:22:07Z", Info, "provider-pagerduty", "Alpha feature enabled", ZapConsoleSpaces)
                .field("flag", json!("EnableAlphaManagementPolicies"))),
        },
        DecodeCase {
            name: "console spaces, expanded 8-column tab stops",
            line: "2023-12-06T13:03:26Z    DEBUG   provider-gcp    Reconciling     {\"controller\": \"managed/storage.gcp.upbound.io/v1beta1, kind=bucket\", \"request\": {\"name\":\"b\"}}".into(),
            want: Some(want("2023-12-06T13:03:26Z", Debug, "provider-gcp", "Reconciling", ZapConsoleSpaces).field("request", json!({"name": "b"}))),
        },
        DecodeCase {
            name: "console spaces, message with brackets and no tail",
            line: "2023-08-29T10:22:08Z    DEBUG    events    `spec.managementPolicies` is set: [Observe Create] ".into(),
            want: Some(want("2023-08-29T10:22:08Z", Debug, "events", "`spec.managementPolicies` is set: [Observe Create]", ZapConsoleSpaces)),
        },
        DecodeCase {
            name: "console with epoch float timestamp and string request (controller-runtime < 0.14)",
            line: "1.6673298543378181e+09\tDEBUG\tprovider-aws\tExternal resource is up to date\t{\"controller\": \"managed/ec2.aws.upbound.io/v1beta1, kind=vpc\", \"request\": \"/my-vpc\", \"uid\": \"u\", \"external-name\": \"vpc-1\", \"requeue-after\": 1672390031.2874165}".into(),
            want: Some(want("2022-11-01T19:10:54.337818146Z", Debug, "provider-aws", "External resource is up to date", ZapConsole)
                .epoch()
                .field("request", json!("/my-vpc"))),
        },
        DecodeCase {
            name: "console with RFC3339 offset",
            line: "2024-09-04T11:34:01+02:00\tDEBUG\tprovider-azure\tReconciling\t{}".into(),
            want: Some(want("2024-09-04T09:34:01Z", Debug, "provider-azure", "Reconciling", ZapConsole)),
        },
        DecodeCase {
            name: "console with ANSI-coloured level",
            line: "2024-05-02T10:11:12.123Z\t\x1b[35mDEBUG\x1b[0m\tprovider-aws\tReconciling\t{\"a\": 1}".into(),
            want: Some(want("2024-05-02T10:11:12.123Z", Debug, "provider-aws", "Reconciling", ZapConsole)),
        },
        DecodeCase {
            name: "console with truncated JSON tail",
            line: "2024-05-02T10:11:12Z\tDEBUG\tprovider-aws\tAsync create ended.\t{\"trackerUID\": \"abc\", \"tfID\": \"vpc-".into(),
            want: Some(want("2024-05-02T10:11:12Z", Debug, "provider-aws", "Async create ended.", ZapConsole).bad()),
        },
        DecodeCase {
            name: "console duplicate external-name: last occurrence wins",
            line: "2024-05-02T10:11:12Z\tDEBUG\tprovider-aws\tSuccessfully requested creation of external resource\t{\"uid\": \"u\", \"external-name\": \"\", \"external-name\": \"vpc-new\"}".into(),
            want: Some(want("2024-05-02T10:11:12Z", Debug, "provider-aws", "Successfully requested creation of external resource", ZapConsole)
                .field("external-name", json!("vpc-new"))),
        },
    ]
}

/// zap JSON lines: timestamp encodings, key order, levels.
fn zap_json_decode_cases() -> Vec<DecodeCase> {
    use Level::*;
    use RecordFormat::*;
    let zap_line = sample_zap_line();
    vec![
        DecodeCase {
            name: "zap JSON with RFC3339 ts",
            line: zap_line.clone(),
            want: Some(want("2024-05-02T10:11:12.345Z", Debug, "provider-aws", "External resource is up to date", ZapJson)
                .field("uid", json!(UID_A))),
        },
        DecodeCase {
            name: "zap JSON with epoch float ts",
            line: zapjson("info", json!(1.6673298543378181e9), "provider-aws", "Beta feature enabled", json!({"flag": "x"})),
            // json! prints the shortest f64 form (1667329854.337818): nanoseconds differ from the console case.
            want: Some(want("2022-11-01T19:10:54.337817907Z", Info, "provider-aws", "Beta feature enabled", ZapJson).epoch().field("flag", json!("x"))),
        },
        DecodeCase {
            name: "zap JSON with keys in another order and logr verbosity level",
            line: r#"{"msg":"Reconciling","logger":"provider-aws","ts":"2024-05-02T10:11:12Z","level":"Level(-2)","request":{"name":"a","namespace":"ns"}}"#.into(),
            want: Some(want("2024-05-02T10:11:12Z", Debug, "provider-aws", "Reconciling", ZapJson).field("request", json!({"name": "a", "namespace": "ns"}))),
        },
        DecodeCase {
            name: "zap JSON error level with stacktrace",
            line: r#"{"level":"error","ts":"2024-05-02T10:11:12Z","logger":"provider-aws","msg":"Reconciler error","error":"boom","stacktrace":"main.main\n\t/x.go:1"}"#.into(),
            want: Some(want("2024-05-02T10:11:12Z", Error, "provider-aws", "Reconciler error", ZapJson).field("error", json!("boom"))),
        },
    ]
}

/// Lines with a text prefix from kubectl, the container runtime or a log shipper.
fn envelope_decode_cases() -> Vec<DecodeCase> {
    use Level::*;
    use RecordFormat::*;
    let console_line = sample_console_line();
    let zap_line = sample_zap_line();
    vec![
        DecodeCase {
            name: "kubectl --timestamps prefix + console",
            line: format!("2024-05-02T10:11:12.123456789Z {console_line}"),
            want: Some(
                want(
                    "2024-05-02T10:11:12.123456789Z",
                    Debug,
                    "provider-aws",
                    "External resource is up to date",
                    ZapConsole,
                )
                .env(Envelope::KubectlTimestamps),
            ),
        },
        DecodeCase {
            name: "kubectl --timestamps prefix + zap JSON (precise prefix in another second is not used)",
            line: format!("2024-05-02T10:11:14.000000001Z {zap_line}"),
            want: Some(
                want("2024-05-02T10:11:12.345Z", Debug, "provider-aws", "External resource is up to date", ZapJson)
                    .env(Envelope::KubectlTimestamps),
            ),
        },
        DecodeCase {
            name: "kubectl --prefix + console",
            line: format!("[pod/provider-aws-ec2-6d8f/package-runtime] {console_line}"),
            want: Some(
                want("2024-05-02T10:11:12Z", Debug, "provider-aws", "External resource is up to date", ZapConsole)
                    .env(Envelope::KubectlPrefix),
            ),
        },
        DecodeCase {
            name: "kubectl --prefix --timestamps + console",
            line: format!("[pod/provider-aws-ec2-6d8f/package-runtime] 2024-05-02T10:11:12.5Z {console_line}"),
            want: Some(
                want("2024-05-02T10:11:12.5Z", Debug, "provider-aws", "External resource is up to date", ZapConsole)
                    .env(Envelope::KubectlPrefix),
            ),
        },
        DecodeCase {
            name: "CRI log file line",
            line: format!("2024-05-02T10:11:12.777Z stderr F {console_line}"),
            want: Some(
                want("2024-05-02T10:11:12.777Z", Debug, "provider-aws", "External resource is up to date", ZapConsole)
                    .env(Envelope::Cri),
            ),
        },
        DecodeCase {
            name: "Loki text export prefix (local time, ignored)",
            line: format!("2024-05-02 12:11:12.558\t{console_line}"),
            want: Some(
                want("2024-05-02T10:11:12Z", Debug, "provider-aws", "External resource is up to date", ZapConsole)
                    .env(Envelope::LokiText),
            ),
        },
        DecodeCase {
            name: "Kibana text export prefix",
            line: format!("May 2, 2024 @ 12:11:12.427\t{console_line}"),
            want: Some(
                want("2024-05-02T10:11:12Z", Debug, "provider-aws", "External resource is up to date", ZapConsole)
                    .env(Envelope::Kibana),
            ),
        },
    ]
}

/// Records inside a JSON wrapper: Docker json-file lines, Cloud Logging and Loki exports.
fn json_wrapper_decode_cases() -> Vec<DecodeCase> {
    use Level::*;
    use RecordFormat::*;
    let console_line = sample_console_line();
    let zap_line = sample_zap_line();
    vec![
        DecodeCase {
            name: "Docker json-file line",
            line: serde_json::to_string(
                &json!({"log": format!("{console_line}\n"), "stream": "stderr", "time": "2024-05-02T10:11:12.25Z"}),
            )
            .unwrap(),
            want: Some(
                want("2024-05-02T10:11:12.25Z", Debug, "provider-aws", "External resource is up to date", ZapConsole)
                    .env(Envelope::DockerJson),
            ),
        },
        DecodeCase {
            name: "Cloud Logging entry with textPayload (one per line)",
            line: serde_json::to_string(&json!({"textPayload": console_line, "insertId": "x", "resource": {"type": "k8s_container"},
                "timestamp": "2024-05-02T10:11:12.132973976Z", "severity": "ERROR", "logName": "projects/p/logs/stderr"})).unwrap(),
            want: Some(want("2024-05-02T10:11:12.132973976Z", Debug, "provider-aws", "External resource is up to date", ZapConsole)
                .env(Envelope::CloudLogging)),
        },
        DecodeCase {
            name: "Cloud Logging entry with jsonPayload zap object",
            line: serde_json::to_string(&json!({"jsonPayload": {"level": "info", "ts": "2024-05-02T10:11:12Z", "logger": "provider-aws",
                "msg": "Async create callback failed", "trackerUID": UID_A, "error": "x"},
                "timestamp": "2024-05-02T10:11:12.5Z", "severity": "INFO"})).unwrap(),
            want: Some(want("2024-05-02T10:11:12.5Z", Info, "provider-aws", "Async create callback failed", ZapJson)
                .env(Envelope::CloudLogging)
                .field("trackerUID", json!(UID_A))),
        },
        DecodeCase {
            name: "Cloud Logging jsonPayload without level uses severity",
            line: r#"{"jsonPayload":{"msg":"Starting","logger":"provider-aws"},"severity":"DEBUG","timestamp":"2024-05-02T10:11:12Z"}"#.into(),
            want: Some(want("2024-05-02T10:11:12Z", Debug, "provider-aws", "Starting", ZapJson).env(Envelope::CloudLogging)),
        },
        DecodeCase {
            name: "Cloud Logging audit entry is not a log record",
            line: r#"{"protoPayload":{"@type":"type.googleapis.com/google.cloud.audit.AuditLog","methodName":"x"},"timestamp":"2024-05-02T10:11:12Z"}"#.into(),
            want: None,
        },
        DecodeCase {
            name: "Loki JSON entry with nanosecond timestamp",
            line: serde_json::to_string(&json!({"line": console_line, "timestamp": "1714644672558146862", "fields": {"pod": "p"}})).unwrap(),
            want: Some(want("2024-05-02T10:11:12.558146862Z", Debug, "provider-aws", "External resource is up to date", ZapConsole)
                .env(Envelope::Loki)),
        },
        DecodeCase {
            name: "logcli jsonl entry with RFC3339 timestamp around zap JSON",
            line: serde_json::to_string(&json!({"labels": {"app": "x"}, "line": zap_line, "timestamp": "2024-05-02T10:11:12.345678Z"})).unwrap(),
            want: Some(want("2024-05-02T10:11:12.345Z", Debug, "provider-aws", "External resource is up to date", ZapJson).env(Envelope::Loki)),
        },
    ]
}

/// Lines that are not provider log records.
fn rejected_decode_cases() -> Vec<DecodeCase> {
    vec![
        DecodeCase { name: "empty", line: "".into(), want: None },
        DecodeCase { name: "plain text", line: "hello world, this is not a log line".into(), want: None },
        DecodeCase { name: "klog line", line: "I0502 10:11:12.123456       1 main.go:42] starting".into(), want: None },
        DecodeCase { name: "go panic", line: "goroutine 1 [running]:".into(), want: None },
        DecodeCase { name: "timestamp only", line: "2024-05-02T10:11:12Z".into(), want: None },
        DecodeCase { name: "timestamp then non-level", line: "2024-05-02T10:11:12Z\tHELLO\tx".into(), want: None },
        DecodeCase { name: "lonely brace", line: "{".into(), want: None },
        DecodeCase { name: "JSON that is not a log record", line: r#"{"a":1,"b":[1,2]}"#.into(), want: None },
        DecodeCase {
            name: "truncated zap JSON",
            line: r#"{"level":"debug","ts":"2024-05-02T10:11:12Z","msg":"Async create ended.","tfID":"vpc-"#.into(),
            want: None,
        },
        DecodeCase { name: "JSON array", line: "[1,2,3]".into(), want: None },
        DecodeCase { name: "number", line: "1.5".into(), want: None },
    ]
}

/// Times must match exactly, except epoch floats, which serde_json parses to within
/// one ulp (no `float_roundtrip`), i.e. about a microsecond.
fn assert_time(got: Option<DateTime<Utc>>, want: Option<&str>, name: &str) {
    match (got, want.map(t)) {
        (Some(g), Some(w)) => assert!((g - w).num_nanoseconds().unwrap().abs() <= 1_000, "{name}: time {g} vs {w}"),
        (g, w) => assert_eq!(g, w, "{name}: time"),
    }
}

#[test]
fn decode_line_table() {
    for c in decode_cases() {
        let got = decode_line(c.line.as_bytes());
        match (&got, &c.want) {
            (None, None) => {}
            (Some(r), Some(w)) => {
                assert_time(r.time, w.time, c.name);
                assert_eq!(r.level, w.level, "{}: level", c.name);
                assert_eq!(r.logger, w.logger, "{}: logger", c.name);
                assert_eq!(r.msg, w.msg, "{}: msg", c.name);
                assert_eq!(r.format, w.format, "{}: format", c.name);
                assert_eq!(r.envelope, w.envelope, "{}: envelope", c.name);
                assert_eq!(r.epoch_time, w.epoch, "{}: epoch", c.name);
                assert_eq!(r.bad_fields, w.bad_fields, "{}: bad_fields", c.name);
                if let Some((k, v)) = &w.field {
                    assert_eq!(r.fields.get(*k), Some(v), "{}: field {k}", c.name);
                }
                for std_key in ["level", "ts", "logger", "msg"] {
                    if r.format == RecordFormat::ZapJson {
                        assert!(!r.fields.contains_key(std_key), "{}: {std_key} left in fields", c.name);
                    }
                }
            }
            _ => panic!("{}: got {got:?}, want {}", c.name, if c.want.is_some() { "a record" } else { "None" }),
        }
    }
}

/// Every decodable case must also be recognised (not unknown) by the streaming scanner,
/// whose fast path sniffs uninteresting lines instead of decoding them.
#[test]
fn scanner_agrees_with_decoder_on_every_case() {
    for c in decode_cases() {
        if c.line.is_empty() {
            continue;
        }
        let sc = scan_str(&format!("{}\n", c.line));
        assert_invariant(&sc);
        let audit = c.name.contains("audit");
        match (&c.want, audit) {
            (Some(w), _) => {
                assert_eq!((sc.parsed, sc.unknown), (1, 0), "{}: {sc:?}", c.name);
                assert_time(sc.earliest, w.time, c.name);
                assert_eq!(sc.saw_debug, w.level == Level::Debug, "{}: saw_debug", c.name);
            }
            (None, true) => assert_eq!((sc.parsed, sc.formats.non_log_entries), (1, 1), "{}", c.name),
            (None, false) => {
                assert_eq!(sc.parsed, 0, "{}: {sc:?}", c.name);
                assert!(sc.evidence().is_empty(), "{}", c.name);
            }
        }
    }
}

#[test]
fn non_utf8_bytes_are_replaced_not_fatal() {
    let mut line = console(
        "2024-05-02T10:11:12Z",
        "DEBUG",
        "provider-aws",
        "External resource is up to date",
        json!({"uid": UID_A, "request": {"name": "a"}, "external-name": "vpc-1", "note": "XX"}),
    )
    .into_bytes();
    let pos = line.windows(2).position(|w| w == b"XX").unwrap();
    line[pos] = 0xff;
    line[pos + 1] = 0xfe;
    let r = decode_line(&line).expect("decodes with replacement characters");
    assert_eq!(r.fields["note"], json!("\u{fffd}\u{fffd}"));
    let mut data = line.clone();
    data.push(b'\n');
    let mut sc = LogScan::new();
    scan_slice(&data, "t", &mut sc);
    assert_eq!(sc.parsed, 1);
    assert_eq!(sc.evidence()[0].id.as_deref(), Some("vpc-1"));

    // Same inside zap JSON.
    let mut j = zapjson(
        "debug",
        json!("2024-05-02T10:11:12Z"),
        "p",
        "Async create ended.",
        json!({"trackerUID": UID_A, "tfID": "vpc-2", "note": "XX"}),
    )
    .into_bytes();
    let pos = j.windows(2).position(|w| w == b"XX").unwrap();
    j[pos] = 0xc3; // truncated UTF-8 sequence
    j.push(b'\n');
    let mut sc = LogScan::new();
    scan_slice(&j, "t", &mut sc);
    assert_eq!((sc.parsed, sc.unknown), (1, 0));
    assert_eq!(sc.evidence()[0].id.as_deref(), Some("vpc-2"));
}

// ---------------------------------------------------------------------------------
// Extraction
// ---------------------------------------------------------------------------------

struct ExtractCase {
    name: &'static str,
    line: String,
    want: Option<ExWant>,
}

#[derive(Default)]
struct ExWant {
    kind: Option<EvidenceKind>,
    uid: &'static str,
    id: Option<&'static str>,
    created: Vec<&'static str>,
    error_contains: Option<&'static str>,
    name: Option<&'static str>,
    namespace: Option<&'static str>,
    gvk: Option<&'static str>,
}

fn ex(kind: EvidenceKind, uid: &'static str, id: Option<&'static str>) -> ExWant {
    ExWant { kind: Some(kind), uid, id, ..Default::default() }
}

impl ExWant {
    fn created(mut self, c: &[&'static str]) -> Self {
        self.created = c.to_vec();
        self
    }
    fn err(mut self, e: &'static str) -> Self {
        self.error_contains = Some(e);
        self
    }
    fn name(mut self, n: &'static str) -> Self {
        self.name = Some(n);
        self
    }
    fn ns(mut self, n: &'static str) -> Self {
        self.namespace = Some(n);
        self
    }
    fn gvk(mut self, g: &'static str) -> Self {
        self.gvk = Some(g);
        self
    }
}

const GVK: &str = "ec2.aws.upbound.io/v1beta1, Kind=VPC";
const CTRL: &str = "managed/ec2.aws.upbound.io/v1beta1, kind=vpc";
const TS: &str = "2024-05-02T10:11:12Z";

fn reconciler(msg: &str, ext: &str) -> String {
    reconciler_at(TS, msg, ext)
}

fn reconciler_at(ts: &str, msg: &str, ext: &str) -> String {
    console(
        ts,
        "DEBUG",
        "provider-aws",
        msg,
        json!({"controller": CTRL, "request": {"name": "my-vpc", "namespace": "team-a"},
        "uid": UID_A, "version": "42", "external-name": ext}),
    )
}

/// Tracker-line keys of the MR `team-a/my-vpc` (UID A), plus `extra`.
fn tracker(extra: Value) -> Value {
    let mut f = json!({"trackerUID": UID_A, "resourceName": "my-vpc", "resourceNamespace": "team-a", "gvk": GVK});
    for (k, v) in extra.as_object().unwrap() {
        f[k] = v.clone();
    }
    f
}

/// A CLI workspace line (workspace of UID B) with Terraform output `out`.
fn cli(msg: &str, out: String) -> String {
    console(TS, "DEBUG", "provider-aws", msg, json!({"workspace": format!("/tmp/{UID_B}"), "out": out}))
}

/// Terraform outputs as upjet's CLI workspace logs them in `out`.
struct TerraformOutputs {
    apply_out: String,
    msg_only_out: String,
    refresh_out: String,
    destroy_out: String,
    errored_out: String,
    import_out: String,
}

impl TerraformOutputs {
    fn new() -> Self {
        let apply_out = tf_out(&[
            json!({"@level":"info","@message":"Terraform 1.5.5","@module":"terraform.ui","type":"version","terraform":"1.5.5","ui":"1.1"}),
            tf_hook("apply_start", Some("create"), None, "aws_vpc.my-vpc: Creating..."),
            tf_hook(
                "apply_complete",
                Some("create"),
                Some("vpc-0cli"),
                "aws_vpc.my-vpc: Creation complete after 3s [id=vpc-0cli]",
            ),
            json!({"@level":"info","@message":"Apply complete! Resources: 1 added, 0 changed, 0 destroyed.","type":"change_summary"}),
        ]);
        let msg_only_out = tf_out(&[tf_hook(
            "apply_complete",
            Some("create"),
            None,
            "aws_vpc.my-vpc: Creation complete after 1s [id=vpc-0msg]",
        )]);
        let refresh_out = tf_out(&[
            tf_hook("refresh_start", None, Some("vpc-0ref"), "aws_vpc.my-vpc: Refreshing state... [id=vpc-0ref]"),
            tf_hook("refresh_complete", None, Some("vpc-0ref"), "aws_vpc.my-vpc: Refresh complete [id=vpc-0ref]"),
        ]);
        let destroy_out = tf_out(&[
            tf_hook("refresh_complete", None, Some("vpc-0del"), "aws_vpc.my-vpc: Refresh complete [id=vpc-0del]"),
            tf_hook("apply_start", Some("delete"), Some("vpc-0del"), "aws_vpc.my-vpc: Destroying... [id=vpc-0del]"),
            tf_hook("apply_complete", Some("delete"), None, "aws_vpc.my-vpc: Destruction complete after 1s"),
        ]);
        let errored_out = tf_out(&[
            tf_hook("apply_errored", Some("create"), None, "aws_vpc.my-vpc: Creation errored after 2s"),
            json!({"@level":"error","@message":"Error: creating EC2 VPC: VpcLimitExceeded","diagnostic":{"severity":"error","summary":"creating EC2 VPC","detail":"VpcLimitExceeded"},"type":"diagnostic"}),
        ]);
        let import_out = "aws_vpc.my-vpc: Importing from ID \"vpc-0imp\"...\naws_vpc.my-vpc: Import prepared!\n  Prepared aws_vpc for import\naws_vpc.my-vpc: Refreshing state... [id=vpc-0imp]\n\nImport successful!\n".to_string();
        TerraformOutputs { apply_out, msg_only_out, refresh_out, destroy_out, errored_out, import_out }
    }
}

/// Every extraction case, in one list for the table test.
/// upjet's `Running terraform` (`pkg/terraform/workspace.go`) and controller-runtime's start lines
/// (`pkg/internal/controller/controller.go`, `Controller.Start`) in the shapes providers print
/// them: no logger name (the provider hands controller-runtime its unnamed zap logger;
/// provider-upjet-aws#1140, #612 with its tabs turned to spaces), and older builds'
/// `controller-runtime.controller` logger.
fn process_extract_cases() -> Vec<ExtractCase> {
    use EvidenceKind::*;
    let managed = "managed/sqs.aws.upbound.io/v1beta1, kind=queue";
    vec![
        ExtractCase {
            name: "CLI Running terraform",
            line: console(
                TS,
                "DEBUG",
                "provider-aws",
                "Running terraform",
                json!({"workspace": format!("/tmp/{UID_B}"), "args": ["apply"]}),
            ),
            want: Some(ex(CliRun, UID_B, None)),
        },
        ExtractCase {
            name: "Starting EventSource, no logger name",
            line: format!(
                "{TS}\tINFO\tStarting EventSource\t{{\"controller\": \"{managed}\", \"source\": \"kind source: *v1beta1.Queue\"}}"
            ),
            want: Some(ex(ProcessStarted, "", None)),
        },
        ExtractCase {
            name: "Starting workers, tabs turned to spaces",
            line: format!(
                "{TS}    INFO    Starting workers        {{\"controller\": \"{managed}\", \"controllerGroup\": \"sqs.aws.upbound.io\", \"controllerKind\": \"Queue\", \"worker count\": 10}}"
            ),
            want: Some(ex(ProcessStarted, "", None)),
        },
        ExtractCase {
            name: "Starting Controller, controller-runtime's own logger name",
            line: console(
                TS,
                "INFO",
                "controller-runtime.controller",
                "Starting Controller",
                json!({"controller": managed}),
            ),
            want: Some(ex(ProcessStarted, "", None)),
        },
    ]
}

fn extract_cases() -> Vec<ExtractCase> {
    [
        process_extract_cases(),
        async_create_extract_cases(),
        tracker_extract_cases(),
        reconciler_extract_cases(),
        cli_extract_cases(),
        non_evidence_extract_cases(),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// upjet async create: `Async create ended.` in its key variants, and `starting`.
fn async_create_extract_cases() -> Vec<ExtractCase> {
    use EvidenceKind::*;
    vec![
        ExtractCase {
            name: "Async create ended (SDK v2 keys, success)",
            line: console(
                TS,
                "DEBUG",
                "provider-aws",
                "Async create ended.",
                tracker(json!({"error": null, "tfID": "vpc-0abc"})),
            ),
            want: Some(
                ex(AsyncCreateEnded, UID_A, Some("vpc-0abc"))
                    .created(&["vpc-0abc"])
                    .name("my-vpc")
                    .ns("team-a")
                    .gvk(GVK),
            ),
        },
        ExtractCase {
            name: "Async create ended with error keeps the partial ID as created",
            line: console(
                TS,
                "DEBUG",
                "provider-aws",
                "Async create ended.",
                tracker(
                    json!({"error": "async create failed: failed to create the resource: [{0 timeout  []}]", "tfID": "vpc-0part"}),
                ),
            ),
            want: Some(
                ex(AsyncCreateEnded, UID_A, Some("vpc-0part")).created(&["vpc-0part"]).err("async create failed"),
            ),
        },
        ExtractCase {
            name: "Async create ended with empty tfID (v1.0 keys)",
            line: console(
                TS,
                "DEBUG",
                "provider-gcp",
                "Async create ended.",
                json!({"trackerUID": UID_A, "resourceName": "r", "error": null, "tfID": ""}),
            ),
            want: Some(ex(AsyncCreateEnded, UID_A, Some("")).name("r")),
        },
        ExtractCase {
            name: "Async create ended, plugin-framework variant without tfID",
            line: zapjson("debug", json!(TS), "provider-aws", "Async create ended.", tracker(json!({"error": null}))),
            want: Some(ex(AsyncCreateEnded, UID_A, None)),
        },
        ExtractCase {
            name: "Async create starting",
            line: console(TS, "DEBUG", "provider-aws", "Async create starting...", tracker(json!({"tfID": ""}))),
            want: Some(ex(AsyncCreateStarting, UID_A, Some(""))),
        },
    ]
}

/// Other upjet tracker lines: callback failures, state reconstruction, recovered and critical annotations.
fn tracker_extract_cases() -> Vec<ExtractCase> {
    use EvidenceKind::*;
    vec![
        ExtractCase {
            name: "Async create callback failed (Info, tracker keys)",
            line: console(
                TS,
                "INFO",
                "provider-aws",
                "Async create callback failed",
                tracker(json!({
                "error": "cannot update status of the resource ec2.aws.upbound.io/v1beta1, Kind=VPC/team-a/my-vpc after an async create: Operation cannot be fulfilled"})),
            ),
            want: Some(
                ex(CallbackFailed, UID_A, None)
                    .err("Operation cannot be fulfilled")
                    .name("my-vpc")
                    .ns("team-a")
                    .gvk(GVK),
            ),
        },
        ExtractCase {
            name: "Async create callback failed with only the error text (match by name)",
            line: zapjson(
                "info",
                json!(TS),
                "provider-aws",
                "Async create callback failed",
                json!({
                "error": "cannot update status of the resource ec2.aws.upbound.io/v1beta1, Kind=VPC//my-vpc after an async create: conflict"}),
            ),
            want: Some(ex(CallbackFailed, "", None).name("my-vpc").gvk(GVK).err("conflict")),
        },
        ExtractCase {
            name: "Instance state not found",
            line: console(
                TS,
                "DEBUG",
                "provider-aws",
                "Instance state not found in cache, reconstructing...",
                json!({"uid": UID_A, "name": "my-vpc", "gvk": GVK}),
            ),
            want: Some(ex(StateReconstructing, UID_A, None).name("my-vpc").gvk(GVK)),
        },
        ExtractCase {
            name: "plugin framework recovered external name",
            line: console(
                TS,
                "DEBUG",
                "provider-aws",
                "recovered external name from last failed async operation",
                json!({"uid": UID_A, "name": "my-vpc", "namespace": "team-a", "gvk": GVK, "external-name": "vpc-0rec"}),
            ),
            want: Some(ex(RecoveredExternalName, UID_A, Some("vpc-0rec")).name("my-vpc").ns("team-a")),
        },
        ExtractCase {
            name: "CLI critical annotations updated",
            line: console(
                TS,
                "DEBUG",
                "provider-gcp",
                "Critical annotations have been updated.",
                json!({"uid": UID_B, "name": "rs", "gvk": GVK}),
            ),
            want: Some(ex(CriticalAnnotationsUpdated, UID_B, None).name("rs")),
        },
    ]
}

/// crossplane-runtime managed-reconciler lines carrying `external-name`.
fn reconciler_extract_cases() -> Vec<ExtractCase> {
    use EvidenceKind::*;
    vec![
        ExtractCase {
            name: "reconciler: up to date",
            line: reconciler("External resource is up to date", "vpc-0abc"),
            want: Some(ex(Reconciler, UID_A, Some("vpc-0abc")).name("my-vpc").ns("team-a")),
        },
        ExtractCase {
            name: "reconciler: empty external-name kept for the timeline",
            line: reconciler("External resource is up to date", ""),
            want: Some(ex(Reconciler, UID_A, Some(""))),
        },
        ExtractCase {
            name: "reconciler: creation requested, duplicate key -> last wins",
            line: format!(
                "{TS}\tDEBUG\tprovider-aws\tSuccessfully requested creation of external resource\t{{\"controller\": \"{CTRL}\", \"request\": {{\"name\":\"my-vpc\"}}, \"uid\": \"{UID_A}\", \"version\": \"1\", \"external-name\": \"\", \"external-name\": \"my-vpc\"}}"
            ),
            want: Some(ex(CreateRequested, UID_A, Some("my-vpc")).name("my-vpc")),
        },
        ExtractCase {
            name: "reconciler: create incomplete",
            line: reconciler(
                "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed",
                "",
            ),
            want: Some(ex(CreateIncomplete, UID_A, Some(""))),
        },
        ExtractCase {
            // crossplane-runtime v2 pkg/reconciler/managed/reconciler.go Reconcile, with
            // WithDeterministicExternalName(true): the gate logs and goes on.
            name: "reconciler: create incomplete, but proceeding (deterministic external name)",
            line: reconciler(
                "Cannot determine creation result, but proceeding due to deterministic external name",
                "my-vpc",
            ),
            want: Some(ex(CreateGateBypassed, UID_A, Some("my-vpc"))),
        },
        ExtractCase {
            name: "reconciler: create failed",
            line: console(
                TS,
                "DEBUG",
                "provider-aws",
                "Cannot create external resource",
                json!({"controller": CTRL, "request": {"name": "my-vpc"},
                "uid": UID_A, "version": "1", "external-name": "", "error": "async create failed: boom"}),
            ),
            want: Some(ex(CreateFailed, UID_A, Some("")).err("boom")),
        },
        ExtractCase {
            name: "reconciler: deletion requested",
            line: reconciler("Successfully requested deletion of external resource", "vpc-0abc"),
            want: Some(ex(DeleteRequested, UID_A, Some("vpc-0abc"))),
        },
        ExtractCase {
            name: "reconciler: deleted",
            line: reconciler("Successfully deleted managed resource", "vpc-0abc"),
            want: Some(ex(Deleted, UID_A, Some("vpc-0abc"))),
        },
        ExtractCase {
            name: "reconciler, zap JSON, old string request",
            line: zapjson(
                "debug",
                json!(1.6673298543378181e9),
                "provider-aws",
                "External resource is up to date",
                json!({"controller": CTRL, "request": "team-b/old-vpc", "uid": UID_A, "external-name": "vpc-0old"}),
            ),
            want: Some(ex(Reconciler, UID_A, Some("vpc-0old")).name("old-vpc").ns("team-b")),
        },
    ]
}

/// upjet CLI workspace lines whose `out` holds Terraform output, and secret masking.
fn cli_extract_cases() -> Vec<ExtractCase> {
    use EvidenceKind::*;
    let outs = TerraformOutputs::new();
    vec![
        ExtractCase {
            name: "CLI apply async ended: hook id_value is created",
            line: cli("apply async ended", outs.apply_out),
            want: Some(ex(CliApply, UID_B, Some("vpc-0cli")).created(&["vpc-0cli"]).name("my-vpc")),
        },
        ExtractCase {
            name: "CLI apply ended: ID only in the Creation complete message",
            line: cli("apply ended", outs.msg_only_out),
            want: Some(ex(CliApply, UID_B, Some("vpc-0msg")).created(&["vpc-0msg"])),
        },
        ExtractCase {
            name: "CLI refresh ended: refresh_complete id",
            line: cli("refresh ended", outs.refresh_out),
            want: Some(ex(CliRefresh, UID_B, Some("vpc-0ref"))),
        },
        ExtractCase {
            name: "CLI destroy async ended: refreshed id, nothing created",
            line: cli("destroy async ended", outs.destroy_out),
            want: Some(ex(CliDestroy, UID_B, Some("vpc-0del"))),
        },
        ExtractCase {
            name: "CLI apply errored: diagnostic becomes the error",
            line: cli("apply async ended", outs.errored_out),
            want: Some(ex(CliApply, UID_B, None).err("VpcLimitExceeded")),
        },
        ExtractCase {
            name: "CLI import ended: plain-text output",
            line: cli("import ended", outs.import_out),
            want: Some(ex(CliImport, UID_B, Some("vpc-0imp"))),
        },
        ExtractCase {
            name: "CLI workspace in another TMPDIR",
            line: console(
                TS,
                "DEBUG",
                "provider-aws",
                "refresh ended",
                json!({"workspace": format!("/var/tmp/upjet/{UID_B}/"), "out": ""}),
            ),
            want: Some(ex(CliRefresh, UID_B, None)),
        },
        ExtractCase {
            name: "CLI callback failed",
            line: console(
                TS,
                "INFO",
                "provider-aws",
                "callback failed",
                json!({"workspace": format!("/tmp/{UID_B}"), "error": "cannot update status"}),
            ),
            want: Some(ex(CallbackFailed, UID_B, None).err("cannot update status")),
        },
        ExtractCase {
            name: "error text with credentials is masked",
            line: console(
                TS,
                "DEBUG",
                "provider-aws",
                "Async create ended.",
                tracker(json!({"tfID": "db-1",
                "error": "failed: {\"password\": \"hunter2\", \"user\": \"admin\"}"})),
            ),
            want: Some(ex(AsyncCreateEnded, UID_A, Some("db-1")).created(&["db-1"]).err("\"***\", \"user\"")),
        },
    ]
}

/// Lines that look close to evidence but are not.
fn non_evidence_extract_cases() -> Vec<ExtractCase> {
    vec![
        ExtractCase {
            name: "a start line of a controller that is no managed reconciler's is not evidence",
            line: console(
                TS,
                "INFO",
                "",
                "Starting Controller",
                json!({"controller": "providerconfig/providerconfig.aws.upbound.io"}),
            )
            .replacen("\t\t", "\t", 1),
            want: None,
        },
        ExtractCase {
            name: "Connecting line is not evidence",
            line: console(
                TS,
                "DEBUG",
                "provider-aws",
                "Connecting to the service provider",
                json!({"uid": UID_A, "name": "my-vpc", "gvk": GVK}),
            ),
            want: None,
        },
        ExtractCase {
            name: "events logger line is not evidence",
            line: console(
                TS,
                "DEBUG",
                "events",
                "Successfully requested creation of external resource",
                json!({"type": "Normal", "object": {"kind": "VPC", "name": "my-vpc", "uid": UID_A}, "reason": "CreatedExternalResource"}),
            ),
            want: None,
        },
        ExtractCase {
            name: "Async update ended is not create evidence",
            line: console(
                TS,
                "DEBUG",
                "provider-aws",
                "Async update ended.",
                tracker(json!({"error": null, "tfID": "vpc-0abc"})),
            ),
            want: None,
        },
    ]
}

#[test]
fn extraction_table() {
    for c in extract_cases() {
        let rec = decode_line(c.line.as_bytes()).unwrap_or_else(|| panic!("{}: line did not decode", c.name));
        let got = evidence_from_record(&rec);
        let Some(w) = c.want else {
            assert!(got.is_none(), "{}: unexpected evidence {got:?}", c.name);
            continue;
        };
        let ev = got.unwrap_or_else(|| panic!("{}: no evidence", c.name));
        assert_eq!(Some(ev.kind), w.kind, "{}: kind", c.name);
        assert_eq!(ev.uid, w.uid, "{}: uid", c.name);
        assert_eq!(ev.id.as_deref(), w.id, "{}: id", c.name);
        assert_eq!(ev.created, w.created, "{}: created", c.name);
        match w.error_contains {
            Some(e) => assert!(ev.error.as_deref().unwrap_or("").contains(e), "{}: error {:?}", c.name, ev.error),
            None => assert!(ev.error.is_none(), "{}: error {:?}", c.name, ev.error),
        }
        if w.name.is_some() {
            assert_eq!(ev.mr.name.as_deref(), w.name, "{}: name", c.name);
        }
        if w.namespace.is_some() {
            assert_eq!(ev.mr.namespace.as_deref(), w.namespace, "{}: namespace", c.name);
        }
        if w.gvk.is_some() {
            assert_eq!(ev.mr.gvk.as_deref(), w.gvk, "{}: gvk", c.name);
        }
        assert!(ev.source.chars().count() <= MAX_SOURCE_CHARS, "{}: source too long", c.name);
        assert!(ev.source.contains(&rec.msg[..rec.msg.len().min(20)]), "{}: source {:?}", c.name, ev.source);
        assert!(!ev.source.contains("hunter2"), "{}: secret leaked into source", c.name);
        assert!(!ev.error.as_deref().unwrap_or("").contains("hunter2"), "{}: secret leaked into error", c.name);
        if let Some(id) = w.id.filter(|i| !i.is_empty()) {
            assert!(ev.source.contains(id), "{}: source lacks the id: {:?}", c.name, ev.source);
        }
        // The same line through the streaming scanner gives the same evidence.
        let sc = scan_str(&format!("{}\n", c.line));
        assert_eq!(sc.evidence().len(), 1, "{}", c.name);
        let s = &sc.evidence()[0];
        assert_eq!(
            (s.kind, &s.uid, &s.id, &s.created, &s.source),
            (ev.kind, &ev.uid, &ev.id, &ev.created, &ev.source),
            "{}",
            c.name
        );
        assert_eq!(s.origin, Origin { stream: "test".into(), line: 1 }, "{}", c.name);
    }
}

#[test]
fn source_is_trimmed_and_masked() {
    let huge_err = format!("token=abcdef {}", "x".repeat(5000));
    let line = console(
        TS,
        "DEBUG",
        "provider-aws",
        "Async create ended.",
        json!({"trackerUID": UID_A, "tfID": "vpc-1", "error": huge_err, "instanceDiff": "y".repeat(10_000)}),
    );
    let ev = evidence_from_record(&decode_line(line.as_bytes()).unwrap()).unwrap();
    assert!(ev.source.chars().count() <= MAX_SOURCE_CHARS);
    assert!(ev.source.starts_with("2024-05-02T10:11:12Z DEBUG provider-aws Async create ended."), "{}", ev.source);
    assert!(ev.source.contains("vpc-1"));
    assert!(!ev.source.contains("abcdef"), "{}", ev.source);
    assert!(!ev.source.contains("instanceDiff"));
    assert!(ev.error.as_deref().unwrap().starts_with("token=***"));
}

#[test]
fn helpers() {
    assert_eq!(workspace_uid("/tmp/abc"), Some("abc"));
    assert_eq!(workspace_uid("/tmp/abc/"), Some("abc"));
    assert_eq!(workspace_uid("C:\\Temp\\abc"), Some("abc"));
    assert_eq!(workspace_uid("/"), None);
    type Target<'a> = Option<(Option<&'a str>, Option<&'a str>, &'a str)>;
    let cases: &[(&str, Target)] = &[
        (
            "cannot update status of the resource dns.gcp.upbound.io/v1beta1, Kind=RecordSet//rs after an async create: x",
            Some((Some("dns.gcp.upbound.io/v1beta1, Kind=RecordSet"), None, "rs")),
        ),
        (
            "cannot get resource ec2.aws.upbound.io/v1beta1, Kind=VPC/ns/v after an async create: x",
            Some((Some(GVK), Some("ns"), "v")),
        ),
        (
            "cannot request the reconciliation of the resource ns/v after an async destroy: x",
            Some((None, Some("ns"), "v")),
        ),
        ("something else", None),
    ];
    for (err, want) in cases {
        let got = parse_callback_target(err);
        let got = got.as_ref().map(|(g, n, name)| (g.as_deref(), n.as_deref(), name.as_str()));
        assert_eq!(got, *want, "{err}");
    }
    let tf = parse_tf_out("not json at all\n{\"broken\": \n");
    assert_eq!(tf.current, None);
    assert!(tf.created.is_empty());
}

// ---------------------------------------------------------------------------------
// Streaming
// ---------------------------------------------------------------------------------

fn mixed_stream() -> String {
    let mut s = String::new();
    s.push('\u{feff}'); // BOM
    s.push_str(&reconciler("External resource is up to date", ""));
    s.push('\n');
    s.push_str(&console(TS, "INFO", "provider-aws", "Beta feature enabled", json!({"flag": "x"})));
    s.push_str("\r\n"); // CRLF
    s.push('\n'); // blank
    s.push_str(&zapjson(
        "debug",
        json!("2024-05-02T10:11:13Z"),
        "provider-aws",
        "Async create ended.",
        json!({"trackerUID": UID_A, "error": null, "tfID": "vpc-0abc"}),
    ));
    s.push('\n');
    s.push_str(&format!(
        "2024-05-02T10:11:14.5Z {}\n",
        reconciler_at("2024-05-02T10:11:14Z", "External resource is up to date", "vpc-0abc")
    ));
    s.push_str("some random garbage line\n");
    s.push_str("goroutine 1 [running]:\n");
    s.push_str(&zapjson("info", json!(1714644675.0), "provider-aws", "Reconciling", json!({})));
    s.push_str("\n   \n");
    s.push_str(&reconciler("External resource is up to date", "vpc-0abc")); // no trailing newline
    s
}

#[test]
fn mixed_stream_counts() {
    let sc = scan_str(&mixed_stream());
    assert_invariant(&sc);
    assert_eq!(sc.lines, 10);
    assert_eq!(sc.parsed, 6);
    assert_eq!(sc.unknown, 2);
    assert_eq!(sc.blank, 2);
    assert_eq!(sc.too_long, 0);
    assert_eq!(sc.formats.zap_console, 4);
    assert_eq!(sc.formats.zap_json, 2);
    assert_eq!(sc.formats.kubectl_timestamps, 1);
    assert_eq!(sc.formats.epoch_time, 1);
    assert_eq!(sc.levels.info, 2);
    assert_eq!(sc.levels.debug, 4);
    assert!(sc.saw_debug);
    assert_eq!(sc.earliest, Some(t("2024-05-02T10:11:12Z")));
    assert_eq!(sc.latest, Some(t("2024-05-02T10:11:15Z")));
    assert_eq!(sc.bytes, mixed_stream().len() as u64);
    let kinds: Vec<_> = sc.evidence().iter().map(|e| (e.kind, e.id.clone(), e.repeats, e.origin.line)).collect();
    assert_eq!(
        kinds,
        vec![
            (EvidenceKind::Reconciler, Some(String::new()), 0, 1),
            (EvidenceKind::AsyncCreateEnded, Some("vpc-0abc".into()), 0, 4),
            (EvidenceKind::Reconciler, Some("vpc-0abc".into()), 1, 5),
        ]
    );
    let last = last_logged_ids(sc.evidence());
    assert_eq!(last[UID_A].id, "vpc-0abc");
    assert_eq!(last[UID_A].kind, EvidenceKind::Reconciler);
    assert_eq!(last[UID_A].time, Some(t("2024-05-02T10:11:14.5Z")));
    assert_eq!(sc.evidence()[2].time, Some(t("2024-05-02T10:11:12Z")));
}

#[test]
fn info_only_stream_has_no_debug() {
    let s = format!(
        "{}\n{}\n",
        zapjson("info", json!(TS), "provider-aws", "Beta feature enabled", json!({"flag": "x"})),
        zapjson(
            "info",
            json!(TS),
            "provider-aws",
            "Async create callback failed",
            json!({"trackerUID": UID_A, "error": "conflict"})
        )
    );
    let sc = scan_str(&s);
    assert!(!sc.saw_debug);
    assert_eq!(sc.levels.info, 2);
    assert_eq!(sc.evidence().len(), 1);
    assert_eq!(sc.evidence()[0].kind, EvidenceKind::CallbackFailed);
}

fn gcp_entries() -> Vec<Value> {
    vec![
        json!({"protoPayload": {"@type": "type.googleapis.com/google.cloud.audit.AuditLog", "methodName": "io.upbound.x.create"},
            "insertId": "a", "resource": {"type": "k8s_cluster"}, "timestamp": "2024-05-02T10:11:11.5Z"}),
        json!({"textPayload": console(TS, "DEBUG", "provider-aws", "Async create ended.", json!({"trackerUID": UID_A, "error": null, "tfID": "vpc-0gcp"})),
            "insertId": "b", "resource": {"type": "k8s_container"}, "timestamp": "2024-05-02T10:11:12.25Z", "severity": "ERROR"}),
        json!({"jsonPayload": {"kind": "Event", "apiVersion": "v1", "reason": "CreatedExternalResource",
            "message": "Successfully requested creation of external resource",
            "metadata": {"name": "my-vpc.17a", "namespace": "default", "annotations": {"external-name": "vpc-0gcp"}},
            "involvedObject": {"kind": "VPC", "apiVersion": "ec2.aws.upbound.io/v1beta1", "uid": UID_A, "name": "my-vpc"},
            "source": {"component": CTRL}, "lastTimestamp": "2024-05-02T10:11:13Z"},
            "resource": {"type": "k8s_cluster"}, "timestamp": "2024-05-02T10:11:13Z"}),
        json!({"jsonPayload": {"level": "debug", "ts": "2024-05-02T10:11:14Z", "logger": "provider-aws", "msg": "External resource is up to date",
            "controller": CTRL, "request": {"name": "my-vpc"}, "uid": UID_A, "external-name": "vpc-0gcp"},
            "resource": {"type": "k8s_container"}, "timestamp": "2024-05-02T10:11:14.1Z"}),
    ]
}

fn check_gcp_scan(sc: &LogScan, what: &str) {
    assert_invariant(sc);
    assert_eq!((sc.lines, sc.parsed, sc.unknown), (4, 4, 0), "{what}: {sc:?}");
    assert_eq!(sc.formats.cloud_logging, 4, "{what}");
    assert_eq!(sc.formats.non_log_entries, 2, "{what}");
    assert_eq!(sc.formats.zap_console, 1, "{what}");
    assert_eq!(sc.formats.zap_json, 1, "{what}");
    let kinds: Vec<_> = sc.evidence().iter().map(|e| (e.kind, e.id.clone().unwrap_or_default(), e.time)).collect();
    assert_eq!(
        kinds,
        vec![
            (EvidenceKind::AsyncCreateEnded, "vpc-0gcp".to_string(), Some(t("2024-05-02T10:11:12.25Z"))),
            (EvidenceKind::KubeEvent, "vpc-0gcp".to_string(), Some(t("2024-05-02T10:11:13Z"))),
            (EvidenceKind::Reconciler, "vpc-0gcp".to_string(), Some(t("2024-05-02T10:11:14.1Z"))),
        ],
        "{what}"
    );
    let ev = &sc.evidence()[1];
    assert_eq!(ev.mr.name.as_deref(), Some("my-vpc"));
    assert_eq!(ev.mr.gvk.as_deref(), Some(GVK));
    assert_eq!(ev.msg, "CreatedExternalResource: Successfully requested creation of external resource");
}

#[test]
fn cloud_logging_exports_in_every_layout() {
    let entries = gcp_entries();
    // One object per line.
    let jsonl: String = entries.iter().map(|e| format!("{}\n", serde_json::to_string(e).unwrap())).collect();
    check_gcp_scan(&scan_str(&jsonl), "jsonl");
    // A single-line array.
    let arr = serde_json::to_string(&entries).unwrap();
    check_gcp_scan(&scan_str(&arr), "one-line array");
    // A pretty-printed array (Logs Explorer download), at several buffer sizes so that
    // every element and string straddles read boundaries.
    let pretty = serde_json::to_string_pretty(&entries).unwrap();
    for cap in [1, 2, 3, 7, 64, 8192] {
        let sc = scan_bytes_cap(pretty.as_bytes(), cap);
        check_gcp_scan(&sc, &format!("pretty array cap {cap}"));
        assert_eq!(sc.bytes, pretty.len() as u64);
    }
    // Element line numbers point at the opening brace of each element.
    let sc = scan_str(&pretty);
    let first_line = pretty.lines().position(|l| l.contains("textPayload")).unwrap();
    let ev_line = sc.evidence()[0].origin.line as usize;
    assert!(ev_line <= first_line + 1 && ev_line > 1, "line {ev_line} vs textPayload at {}", first_line + 1);
    // Pretty-printed objects one after another (jq output), with CRLF.
    let concat: String = entries
        .iter()
        .map(|e| format!("{}\r\n", serde_json::to_string_pretty(e).unwrap().replace('\n', "\r\n")))
        .collect();
    check_gcp_scan(&scan_str(&concat), "concatenated pretty objects");
    // Array with an indent of zero spaces (keys at column 0).
    let zero = pretty.lines().map(str::trim_start).collect::<Vec<_>>().join("\n");
    check_gcp_scan(&scan_str(&zero), "zero-indent array");
}

#[test]
fn loki_exports() {
    let lines = [
        reconciler("External resource is up to date", "vpc-0loki"),
        console(
            TS,
            "DEBUG",
            "provider-aws",
            "Async create ended.",
            json!({"trackerUID": UID_A, "error": null, "tfID": "vpc-0loki"}),
        ),
    ];
    // Loki exports newest first.
    let entries: Vec<Value> = vec![
        json!({"line": lines[0], "timestamp": "1714644733000000001", "fields": {"pod": "p"}}),
        json!({"line": lines[1], "timestamp": "1714644672558146862", "fields": {"pod": "p"}}),
    ];
    let arr = serde_json::to_string(&entries).unwrap();
    let sc = scan_str(&arr);
    assert_invariant(&sc);
    assert_eq!((sc.lines, sc.parsed, sc.formats.loki), (2, 2, 2));
    // Inner console time (10:11:12Z) wins over a wrapper time in another second; the
    // wrapper refines it within the same second.
    assert_eq!(sc.evidence()[1].time, Some(t("2024-05-02T10:11:12.558146862Z")));
    assert_eq!(sc.evidence()[0].time, Some(t("2024-05-02T10:11:12Z")));
    // The async create line comes later in the file but is older; same-second tie is
    // broken by the precise Loki timestamp.
    let last = last_logged_ids(sc.evidence());
    assert_eq!(last[UID_A].kind, EvidenceKind::AsyncCreateEnded);
    // Loki text export: header lines are unknown, records are recognised.
    let txt = format!(
        "Filter: Regex(x)\nCommon labels: {{\"app\":\"x\"}}\nLine limit: \"1000 (2 returned)\"\n\n2024-05-02 12:12:13.000\t{}\n2024-05-02 12:11:12.558\t{}\n",
        lines[0], lines[1]
    );
    let sc = scan_str(&txt);
    assert_invariant(&sc);
    assert_eq!((sc.lines, sc.parsed, sc.unknown, sc.blank, sc.formats.loki_text), (6, 2, 3, 1, 2));
}

#[test]
fn cri_partial_lines_are_joined() {
    let full = zapjson(
        "debug",
        json!(TS),
        "provider-aws",
        "Async create ended.",
        json!({"trackerUID": UID_A, "error": null, "tfID": "vpc-0cri"}),
    );
    let (a, rest) = full.split_at(30);
    let (b, c) = rest.split_at(40);
    let s = format!(
        "2024-05-02T10:11:12.1Z stderr P {a}\n2024-05-02T10:11:12.1Z stderr P {b}\n2024-05-02T10:11:12.1Z stderr F {c}\n2024-05-02T10:11:12.2Z stdout F {}\n",
        reconciler("External resource is up to date", "vpc-0cri")
    );
    let sc = scan_str(&s);
    assert_invariant(&sc);
    assert_eq!((sc.lines, sc.parsed, sc.unknown), (4, 4, 0));
    assert_eq!(sc.formats.cri_partial, 2);
    assert_eq!(sc.formats.cri, 2);
    assert_eq!(sc.evidence().len(), 2);
    assert_eq!(sc.evidence()[0].created, vec!["vpc-0cri".to_string()]);
    assert_eq!(sc.evidence()[0].time, Some(t("2024-05-02T10:11:12.1Z")));
}

#[test]
fn hostile_input_is_survived() {
    let good = reconciler("External resource is up to date", "vpc-0good");
    let mut data: Vec<u8> = Vec::new();
    // PNG header and pseudo-random binary.
    data.extend_from_slice(
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\x01\0\0\0\x01\0\x08\x06\0\0\0\\r\xa8f\0\0\0\x01sRGB\0\xae\xce\x1c\xe9",
    );
    let mut x: u64 = 0x1234_5678_9abc_def1;
    for _ in 0..200_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        data.push((x >> 24) as u8);
    }
    data.push(b'\n');
    // Truncated JSON that stays open, followed by a good line at column 0: resync.
    data.extend_from_slice(br#"{"level":"debug","ts":"2024-05-02T10:11:12Z","msg":"x","request":{"name":"a""#);
    data.push(b'\n');
    data.extend_from_slice(good.as_bytes());
    data.push(b'\n');
    // Truncated JSON ending inside a string.
    data.extend_from_slice(br#"{"level":"debug","msg":"Async create ended.","trackerUID":"u","tfID":"vpc-"#);
    data.push(b'\n');
    // A lonely '[' then a log line: array mode must give up.
    data.extend_from_slice(b"[\n");
    data.extend_from_slice(good.as_bytes());
    data.push(b'\n');
    // Array whose element is cut by a raw newline inside a string.
    data.extend_from_slice(b"[{\"line\": \"abc\ndef\"}]\n");
    data.extend_from_slice(good.as_bytes());
    data.push(b'\n');
    // NUL bytes and control characters.
    data.extend_from_slice(b"\0\0\0\x07\x08\x1b[2J\n");
    // A lonely closing bracket and braces.
    data.extend_from_slice(b"}\n]\n");
    data.extend_from_slice(good.as_bytes());
    for cap in [1, 5, 4096, 1 << 16] {
        let sc = scan_bytes_cap(&data, cap);
        assert_invariant(&sc);
        assert_eq!(sc.bytes, data.len() as u64, "cap {cap}");
        let good_count =
            sc.evidence().iter().filter(|e| e.id.as_deref() == Some("vpc-0good")).map(|e| e.repeats + 1).sum::<u32>();
        assert_eq!(good_count, 4, "cap {cap}: every good line is found: {:?}", sc.evidence());
        assert!(sc.unknown >= 5, "cap {cap}: {sc:?}");
    }
}

#[test]
fn huge_lines_are_skipped_without_losing_neighbours() {
    let good = reconciler("External resource is up to date", "vpc-0big");
    let mut data = Vec::with_capacity(11 << 20);
    data.extend_from_slice(good.as_bytes());
    data.push(b'\n');
    // 10 MB line that starts like an interesting zap JSON line.
    data.extend_from_slice(br#"{"level":"debug","msg":"Async create ended.","trackerUID":"x","tfID":""#);
    data.extend(std::iter::repeat_n(b'a', 10 << 20));
    data.extend_from_slice(b"\"}\n");
    data.extend_from_slice(good.replace("vpc-0big", "vpc-0after").as_bytes());
    data.push(b'\n');
    // Line of exactly the cap is kept; one byte more is skipped.
    let exact = format!("{}{}", "2024-05-02T10:11:12Z\tDEBUG\tp\tx\t", "b".repeat(MAX_LINE_BYTES - 31));
    assert_eq!(exact.len(), MAX_LINE_BYTES);
    data.extend_from_slice(exact.as_bytes());
    data.push(b'\n');
    data.extend_from_slice(exact.as_bytes());
    data.extend_from_slice(b"c\n");
    // Huge element inside a JSON array.
    data.extend_from_slice(b"[{\"line\": \"");
    data.extend(std::iter::repeat_n(b'z', 2 << 20));
    data.extend_from_slice(b"\"},\n");
    data.extend_from_slice(serde_json::to_string(&json!({"line": good})).unwrap().as_bytes());
    data.extend_from_slice(b"]\n");
    let sc = scan_bytes_cap(&data, 64 * 1024);
    assert_invariant(&sc);
    assert_eq!(sc.too_long, 3, "{sc:?}");
    assert_eq!(sc.parsed, 4, "{sc:?}");
    let ids: Vec<_> = sc.evidence().iter().filter_map(|e| e.id.clone()).collect();
    assert_eq!(ids, vec!["vpc-0big", "vpc-0after", "vpc-0big"]);
}

#[test]
fn chunk_boundaries_do_not_change_results() {
    let mut s = mixed_stream();
    s.push('\n');
    s.push_str(&serde_json::to_string_pretty(&gcp_entries()).unwrap());
    s.push('\n');
    s.push_str(&reconciler("External resource is up to date", "vpc-tail"));
    s.push('\n');
    let reference = scan_bytes_cap(s.as_bytes(), 1 << 16);
    assert_invariant(&reference);
    for cap in [1, 2, 3, 5, 8, 13, 100, 1000] {
        let sc = scan_bytes_cap(s.as_bytes(), cap);
        assert_eq!(
            (sc.lines, sc.parsed, sc.unknown, sc.blank, sc.bytes, &sc.formats),
            (
                reference.lines,
                reference.parsed,
                reference.unknown,
                reference.blank,
                reference.bytes,
                &reference.formats
            ),
            "cap {cap}"
        );
        assert_eq!(sc.evidence(), reference.evidence(), "cap {cap}");
    }
}

/// A reader that yields `Interrupted` before every chunk and fails at the end.
struct Flaky<'a> {
    data: &'a [u8],
    pos: usize,
    interrupt: bool,
    fail_at_end: bool,
}

impl Read for Flaky<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let b = self.fill_buf()?;
        let n = b.len().min(buf.len());
        buf[..n].copy_from_slice(&b[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for Flaky<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.interrupt = !self.interrupt;
        if self.interrupt {
            return Err(io::Error::from(io::ErrorKind::Interrupted));
        }
        if self.pos >= self.data.len() && self.fail_at_end {
            return Err(io::Error::other("disk on fire"));
        }
        let end = (self.pos + 3).min(self.data.len());
        Ok(&self.data[self.pos..end])
    }
    fn consume(&mut self, n: usize) {
        self.pos += n;
    }
}

#[test]
fn interrupted_reads_are_retried_and_errors_propagate() {
    let s = mixed_stream();
    let reference = scan_str(&s);
    let mut sc = LogScan::new();
    scan(Flaky { data: s.as_bytes(), pos: 0, interrupt: false, fail_at_end: false }, "t", &mut sc).unwrap();
    assert_eq!(
        (sc.lines, sc.parsed, sc.evidence().len()),
        (reference.lines, reference.parsed, reference.evidence().len())
    );
    let mut sc = LogScan::new();
    let err =
        scan(Flaky { data: s.as_bytes(), pos: 0, interrupt: false, fail_at_end: true }, "t", &mut sc).unwrap_err();
    assert_eq!(err.to_string(), "disk on fire");
}

#[test]
fn several_streams_into_one_scan() {
    let mut sc = LogScan::new();
    let a = format!(
        "{}\n",
        console(
            "2024-05-02T10:00:00Z",
            "DEBUG",
            "provider-aws",
            "Async create ended.",
            json!({"trackerUID": UID_A, "error": null, "tfID": "vpc-old"})
        )
    );
    // After a restart (other pod), the state was lost and a second object was created.
    let b = format!(
        "{}\n{}\n{}\n",
        console(
            "2024-05-02T11:00:00Z",
            "DEBUG",
            "provider-aws",
            "Instance state not found in cache, reconstructing...",
            json!({"uid": UID_A, "name": "my-vpc"})
        ),
        console(
            "2024-05-02T11:00:05Z",
            "DEBUG",
            "provider-aws",
            "Async create ended.",
            json!({"trackerUID": UID_A, "error": null, "tfID": "vpc-new"})
        ),
        reconciler("External resource is up to date", "")
    );
    scan_slice(a.as_bytes(), "pod-1.log", &mut sc);
    scan_slice(b.as_bytes(), "pod-2.log", &mut sc);
    let ev = sc.evidence();
    assert_eq!(ev[0].origin, Origin { stream: "pod-1.log".into(), line: 1 });
    assert_eq!(ev[2].origin, Origin { stream: "pod-2.log".into(), line: 2 });
    let created: Vec<_> = created_ids(ev, UID_A).into_iter().map(|l| l.id).collect();
    assert_eq!(created, vec!["vpc-old", "vpc-new"]);
    assert_eq!(last_logged_ids(ev)[UID_A].id, "vpc-new");
    let taken = sc.take_evidence();
    assert_eq!(taken.len(), 4);
    assert!(sc.evidence().is_empty());
    assert_eq!(sc.lines, 4);
}

// ---------------------------------------------------------------------------------
// Aggregation
// ---------------------------------------------------------------------------------

#[test]
fn repeated_lines_merge_but_changes_do_not() {
    let mut s = String::new();
    let mut push = |l: String| {
        s.push_str(&l);
        s.push('\n');
    };
    let cli_refresh = |id: &str| {
        console(
            TS,
            "DEBUG",
            "provider-gcp",
            "refresh ended",
            json!({"workspace": format!("/tmp/{UID_A}"),
        "out": tf_out(&[tf_hook("refresh_complete", None, Some(id), "x")])}),
        )
    };
    let ended = |ts: &str, id: &str| {
        console(ts, "DEBUG", "p", "Async create ended.", json!({"trackerUID": UID_A, "error": null, "tfID": id}))
    };
    for _ in 0..3 {
        push(reconciler("External resource is up to date", "A"));
    }
    // CLI mode alternates refresh and reconciler lines: both still merge.
    for _ in 0..3 {
        push(cli_refresh("A"));
        push(reconciler("External resource is up to date", "A"));
    }
    push(reconciler("External resource is up to date", "B")); // change: new item
    push(reconciler("External resource is up to date", "A")); // change back: new item
    push(console(TS, "DEBUG", "p", "Instance state not found in cache, reconstructing...", json!({"uid": UID_A})));
    push(reconciler_at("2024-05-02T10:11:20Z", "External resource is up to date", "A")); // after a restart: new item
    push(console(
        "2024-05-02T10:11:30Z",
        "DEBUG",
        "p",
        "Instance state not found in cache, reconstructing...",
        json!({"uid": UID_A}),
    ));
    // A create loop (upjet#632): each new tfID is kept, a repeated one merges.
    push(ended("2024-05-02T10:12:00Z", "vpc-1"));
    push(ended("2024-05-02T10:13:00Z", "vpc-2"));
    push(reconciler_at("2024-05-02T10:13:30Z", "External resource is up to date", "A"));
    push(ended("2024-05-02T10:14:00Z", "vpc-2"));
    // A second restart after the creates is a new fact.
    push(console(
        "2024-05-02T10:15:00Z",
        "DEBUG",
        "p",
        "Instance state not found in cache, reconstructing...",
        json!({"uid": UID_A}),
    ));
    let sc = scan_str(&s);
    let got: Vec<_> = sc.evidence().iter().map(|e| (e.kind, e.id.clone().unwrap_or_default(), e.repeats)).collect();
    use EvidenceKind::*;
    assert_eq!(
        got,
        vec![
            (Reconciler, "A".into(), 5),
            (CliRefresh, "A".into(), 2),
            (Reconciler, "B".into(), 0),
            (Reconciler, "A".into(), 0),
            (StateReconstructing, String::new(), 1),
            (Reconciler, "A".into(), 0),
            (AsyncCreateEnded, "vpc-1".into(), 0),
            (AsyncCreateEnded, "vpc-2".into(), 1), // only chatter in between
            (Reconciler, "A".into(), 0),
            (StateReconstructing, String::new(), 0),
        ]
    );
    let ev = sc.evidence();
    assert!(ev[0].last_seq > ev[1].seq);
    // Restart lines with only reconciler chatter in between merge.
    assert_eq!((ev[4].time, ev[4].last_time), (Some(t(TS)), Some(t("2024-05-02T10:11:30Z"))));
    assert_eq!(created_ids(ev, UID_A).iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), vec!["vpc-1", "vpc-2"]);
    assert_eq!(last_logged_ids(ev)[UID_A].id, "vpc-2");
}

#[test]
fn flapping_external_name_stays_bounded() {
    let mut s = String::new();
    for i in 0..10_000 {
        s.push_str(&reconciler("External resource is up to date", &format!("v{}", i % 50)));
        s.push('\n');
    }
    let sc = scan_str(&s);
    assert_eq!(sc.parsed, 10_000);
    // 33 items before "merge into any" starts, then only the 50 distinct values.
    assert!(sc.evidence().len() <= 50 + 33, "{}", sc.evidence().len());
    assert_eq!(sc.evidence().iter().map(|e| e.repeats as usize + 1).sum::<usize>(), 10_000);
    assert_eq!(last_logged_ids(sc.evidence())[UID_A].id, "v49");
}

#[test]
fn a_run_merges_only_lines_with_the_same_message() {
    // A paused MR, unpaused: the reconciler logs the same external-name under two messages.
    const PAUSED: &str =
        "Reconciliation is paused either through the `spec.managementPolicies` or the pause annotation";
    const UP: &str = "External resource is up to date";
    let lines = [
        ("2024-05-02T10:00:00Z", PAUSED),
        ("2024-05-02T10:01:00Z", PAUSED),
        ("2024-05-02T10:02:00Z", UP),
        ("2024-05-02T10:03:00Z", PAUSED),
        ("2024-05-02T10:04:00Z", UP),
        ("2024-05-02T10:05:00Z", UP),
        ("2024-05-02T10:06:00Z", UP),
    ];
    let log: String = lines.iter().map(|(ts, msg)| reconciler_at(ts, msg, "queue-a") + "\n").collect();
    let sc = scan_str(&log);
    let got: Vec<_> = sc
        .evidence()
        .iter()
        .map(|e| (e.msg.as_str(), e.repeats, e.time.map(|t| t.to_rfc3339()), e.last_time.map(|t| t.to_rfc3339())))
        .collect();
    let at = |s: &str| Some(t(s).to_rfc3339());
    assert_eq!(
        got,
        vec![
            (PAUSED, 1, at("2024-05-02T10:00:00Z"), at("2024-05-02T10:01:00Z")),
            (UP, 0, at("2024-05-02T10:02:00Z"), at("2024-05-02T10:02:00Z")),
            (PAUSED, 0, at("2024-05-02T10:03:00Z"), at("2024-05-02T10:03:00Z")),
            (UP, 2, at("2024-05-02T10:04:00Z"), at("2024-05-02T10:06:00Z")),
        ]
    );
}

#[test]
fn alternating_messages_stay_bounded() {
    let mut s = String::new();
    for i in 0..10_000 {
        let msg = if i % 2 == 0 { "External resource is up to date" } else { "Reconciliation is paused" };
        s.push_str(&reconciler(msg, "v"));
        s.push('\n');
    }
    for retention in [super::Retention::Full, super::Retention::Compact] {
        let mut sc = LogScan::with_retention(retention.clone());
        scan_slice(s.as_bytes(), "t", &mut sc);
        // Until a UID has more than MERGE_ANY_AFTER items each line is a run of its own, then
        // a line merges into its message's item.
        assert!(sc.evidence().len() <= 33, "{retention:?}: {}", sc.evidence().len());
        assert_eq!(sc.evidence().iter().map(|e| e.repeats as usize + 1).sum::<usize>(), 10_000);
    }
}

fn ev(uid: &str, kind: EvidenceKind, id: Option<&str>, time: Option<&str>, seq: u64) -> Evidence {
    let time = time.map(t);
    Evidence {
        uid: uid.into(),
        time,
        last_time: time,
        repeats: 0,
        kind,
        id: id.map(str::to_string),
        created: if kind == EvidenceKind::AsyncCreateEnded || kind == EvidenceKind::CliApply {
            id.filter(|s| !s.is_empty()).map(|s| vec![s.to_string()]).unwrap_or_default()
        } else {
            Vec::new()
        },
        error: None,
        msg: String::new(),
        mr: MrRef::default(),
        source: format!("src-{seq}"),
        origin: Origin::default(),
        seq,
        last_seq: seq,
    }
}

#[test]
fn last_logged_ids_rules() {
    use EvidenceKind::*;
    struct Case {
        name: &'static str,
        evidence: Vec<Evidence>,
        want: Option<(&'static str, EvidenceKind)>,
    }
    let cases = vec![
        Case {
            name: "newest by time wins even if it appeared earlier",
            evidence: vec![
                ev(UID_A, Reconciler, Some("new"), Some("2024-01-02T00:00:00Z"), 1),
                ev(UID_A, AsyncCreateEnded, Some("old"), Some("2024-01-01T00:00:00Z"), 2),
            ],
            want: Some(("new", Reconciler)),
        },
        Case {
            name: "same time: order of appearance",
            evidence: vec![
                ev(UID_A, AsyncCreateEnded, Some("first"), Some(TS), 1),
                ev(UID_A, Reconciler, Some("second"), Some(TS), 2),
            ],
            want: Some(("second", Reconciler)),
        },
        Case {
            name: "empty IDs and non-ID kinds are ignored",
            evidence: vec![
                ev(UID_A, CliApply, Some("cli-id"), Some("2024-01-01T00:00:00Z"), 1),
                ev(UID_A, Reconciler, Some(""), Some("2024-01-03T00:00:00Z"), 2),
                ev(UID_A, AsyncCreateStarting, Some("start-id"), Some("2024-01-03T00:00:00Z"), 3),
                ev(UID_A, KubeEvent, Some("event-id"), Some("2024-01-03T00:00:00Z"), 4),
                ev(UID_A, AsyncCreateEnded, None, Some("2024-01-04T00:00:00Z"), 5),
            ],
            want: Some(("cli-id", CliApply)),
        },
        Case {
            name: "lines without time lose to timed ones",
            evidence: vec![
                ev(UID_A, Reconciler, Some("timed"), Some(TS), 1),
                ev(UID_A, Reconciler, Some("untimed"), None, 2),
            ],
            want: Some(("timed", Reconciler)),
        },
        Case {
            name: "recovered external name counts",
            evidence: vec![ev(UID_A, RecoveredExternalName, Some("rec"), Some(TS), 1)],
            want: Some(("rec", RecoveredExternalName)),
        },
        Case { name: "nothing", evidence: vec![ev(UID_A, Reconciler, Some(""), Some(TS), 1)], want: None },
        Case {
            name: "other UIDs and UID-less lines do not interfere",
            evidence: vec![
                ev(UID_A, Reconciler, Some("mine"), Some("2024-01-01T00:00:00Z"), 1),
                ev(UID_B, Reconciler, Some("theirs"), Some("2024-02-01T00:00:00Z"), 2),
                ev("", Reconciler, Some("nobody"), Some("2024-03-01T00:00:00Z"), 3),
            ],
            want: Some(("mine", Reconciler)),
        },
    ];
    for c in cases {
        let got = last_logged_ids(&c.evidence);
        assert!(!got.contains_key(""), "{}", c.name);
        let got = got.get(UID_A).map(|l| (l.id.as_str(), l.kind));
        assert_eq!(got, c.want, "{}", c.name);
    }
}

#[test]
fn a_merged_run_counts_with_its_latest_time() {
    use EvidenceKind::*;
    let mut run = ev(UID_A, Reconciler, Some("run"), Some("2024-01-01T00:00:00Z"), 1);
    run.last_time = Some(t("2024-01-05T00:00:00Z"));
    run.last_seq = 9;
    let got = last_logged_ids(&[run, ev(UID_A, AsyncCreateEnded, Some("mid"), Some("2024-01-03T00:00:00Z"), 2)]);
    assert_eq!(got[UID_A].id, "run");
    assert_eq!(got[UID_A].time, Some(t("2024-01-05T00:00:00Z")));
}

/// provider-upjet-aws PR #2233: a failed create saved `identifierFromProviderWithDefaultStub`'s
/// stub as the external-name, so reconciler lines log it; it names no cloud object.
#[test]
fn a_providers_placeholder_is_no_logged_id() {
    use EvidenceKind::*;
    let evidence = vec![
        ev(UID_A, Reconciler, Some("AGT0123456"), Some("2024-01-01T00:00:00Z"), 1),
        ev(UID_A, Reconciler, Some("STUB123456"), Some("2024-01-02T00:00:00Z"), 2),
        ev(UID_A, RecoveredExternalName, Some("STUB123456"), Some("2024-01-03T00:00:00Z"), 3),
    ];
    assert_eq!(last_logged_ids(&evidence)[UID_A].id, "AGT0123456");
    assert!(created_ids(&evidence, UID_A).is_empty());
}

#[test]
fn created_ids_rules() {
    use EvidenceKind::*;
    let evidence = vec![
        ev(UID_A, AsyncCreateEnded, Some("vpc-2"), Some("2024-01-02T00:00:00Z"), 3),
        ev(UID_A, AsyncCreateEnded, Some("vpc-1"), Some("2024-01-01T00:00:00Z"), 4),
        ev(UID_A, AsyncCreateEnded, Some("vpc-1"), Some("2024-01-03T00:00:00Z"), 5),
        ev(UID_A, AsyncCreateEnded, Some(""), Some("2024-01-04T00:00:00Z"), 6),
        ev(UID_A, Reconciler, Some("vpc-9"), Some("2024-01-04T00:00:00Z"), 7),
        ev(UID_A, CliApply, Some("vpc-cli"), Some("2024-01-05T00:00:00Z"), 8),
        ev(UID_A, RecoveredExternalName, Some("vpc-rec"), Some("2024-01-06T00:00:00Z"), 9),
        ev(UID_A, RecoveredExternalName, Some("STUB123456"), Some("2024-01-07T00:00:00Z"), 11),
        ev(UID_B, AsyncCreateEnded, Some("other"), Some("2024-01-01T00:00:00Z"), 10),
    ];
    let got: Vec<_> = created_ids(&evidence, UID_A).into_iter().map(|l| (l.id, l.source)).collect();
    assert_eq!(
        got,
        vec![
            ("vpc-1".to_string(), "src-4".to_string()),
            ("vpc-2".to_string(), "src-3".to_string()),
            ("vpc-cli".to_string(), "src-8".to_string()),
            ("vpc-rec".to_string(), "src-9".to_string()),
        ]
    );
    assert!(created_ids(&evidence, "nope").is_empty());
}

#[test]
fn same_id_table() {
    let cases: &[(&str, &str, bool)] = &[
        ("vpc-1", "vpc-1", true),
        ("vpc-1", "vpc-2", false),
        ("projects/REDACTED/managedZones/z/rrsets/a./A", "projects/sbx-1/managedZones/z/rrsets/a./A", true),
        ("projects/REDACTED/managedZones/z/rrsets/a./A", "projects/sbx-1/managedZones/other/rrsets/a./A", false),
        ("projects/REDACTED/managedZones/z/rrsets/a./A", "projects//managedZones/z/rrsets/a./A", false),
        ("REDACTED", "anything", true),
        ("REDACTED", "", false),
        ("a/REDACTED/b/REDACTED/c", "a/x/b/y/c", true),
        ("a/REDACTED/b/REDACTED/c", "a/x/c", false),
        ("a/REDACTED/b/REDACTED/c", "a/x/b/c", false),
        ("REDACTEDREDACTED", "xy", true),
        ("REDACTEDREDACTED", "x", false),
        ("pre-REDACTED", "pre-", false),
        ("préREDACTEDfïx", "pré日本fïx", true),
    ];
    for (logged, current, want) in cases {
        assert_eq!(same_id(logged, current), *want, "{logged} vs {current}");
    }
}

#[test]
fn is_about_matches_uid_then_name() {
    let mut e = ev(UID_A, EvidenceKind::Reconciler, Some("x"), None, 1);
    assert!(e.is_about(UID_A, "whatever", None));
    assert!(!e.is_about(UID_B, "whatever", None));
    e.uid.clear();
    e.mr.name = Some("my-vpc".into());
    assert!(e.is_about(UID_B, "my-vpc", None));
    assert!(e.is_about(UID_B, "my-vpc", Some("ns")));
    e.mr.namespace = Some("team-a".into());
    assert!(e.is_about(UID_B, "my-vpc", Some("team-a")));
    assert!(!e.is_about(UID_B, "my-vpc", Some("team-b")));
    assert!(!e.is_about(UID_B, "other", None));
}

#[test]
fn kind_names_are_unique() {
    let all = EvidenceKind::ALL;
    let names: std::collections::HashSet<_> = all.iter().map(|k| k.as_str()).collect();
    assert_eq!(names.len(), all.len());
    assert_eq!(Level::Debug.as_str(), "DEBUG");
}

#[test]
fn synthetic_stream_is_fully_recognised() {
    let data = synthetic::synthetic_zap_json(2 << 20);
    let mut sc = LogScan::new();
    scan_slice(&data, "bench", &mut sc);
    assert_invariant(&sc);
    assert_eq!(sc.unknown, 0);
    assert_eq!(sc.parsed, sc.lines);
    assert_eq!(sc.formats.zap_json, sc.lines);
    assert!(!sc.evidence().is_empty());
    // Dedup keeps evidence far below the number of ID-bearing lines.
    assert!((sc.evidence().len() as u64) < sc.lines / 5, "{} evidence for {} lines", sc.evidence().len(), sc.lines);
}

#[test]
fn compact_retention_bounds_items_per_mr_and_focus_keeps_one_mr() {
    use super::Retention;
    // Many MRs whose lines alternate between non-routine facts, the worst case for merging.
    let mut text = String::new();
    for round in 0..200 {
        for mr in 0..5 {
            let uid = format!("uid-{mr}");
            text.push_str(&format!(
                "2024-05-02T10:{:02}:{:02}Z\tDEBUG\tp\tAsync create ended.\t{{\"trackerUID\": \"{uid}\", \"tfID\": \"id-{mr}\"}}\n",
                round / 60,
                round % 60
            ));
            text.push_str(&format!(
                "2024-05-02T10:{:02}:{:02}Z\tDEBUG\tp\tInstance state not found in cache, reconstructing...\t{{\"uid\": \"{uid}\", \"name\": \"n{mr}\"}}\n",
                round / 60,
                round % 60
            ));
        }
    }
    let mut full = LogScan::new();
    scan_slice(text.as_bytes(), "t", &mut full);
    let mut compact = LogScan::with_retention(Retention::Compact);
    scan_slice(text.as_bytes(), "t", &mut compact);
    assert!(full.evidence().len() > 150, "full keeps the interleaving: {}", full.evidence().len());
    assert!(compact.evidence().len() <= 5 * 4, "compact keeps distinct facts per MR: {}", compact.evidence().len());
    // Nothing is lost for the report: same last IDs, same created IDs.
    assert_eq!(super::last_logged_ids(full.evidence()).len(), super::last_logged_ids(compact.evidence()).len());
    assert_eq!(super::created_ids(compact.evidence(), "uid-3")[0].id, "id-3");
    let total: u32 = compact.evidence().iter().map(|e| e.repeats + 1).sum();
    assert_eq!(total as usize, 2000, "every line is still counted as a repeat");

    let mut focus =
        LogScan::with_retention(Retention::Focus { uid: "uid-2".into(), name: "n2".into(), namespace: None });
    scan_slice(text.as_bytes(), "t", &mut focus);
    assert!(!focus.evidence().is_empty() && focus.evidence().iter().all(|e| e.uid == "uid-2"));
}

/// upjet's plugin-framework read treated as not found after Terraform's "Missing Resource
/// Identity After Read" (pkg/controller/external_tfpluginfw.go, `readState`): found by the
/// prefilter, tied to its MR by `uid`, and carrying no ID.
#[test]
fn a_missing_identity_read_is_a_not_found() {
    let line = console(
        TS,
        "DEBUG",
        "provider-aws",
        "TF ReadResource returned Missing Resource Identity diagnostic, treating as resource not found",
        json!({"uid": UID_A, "name": "lc", "skippedDiags": "Missing Resource Identity After Read: …"}),
    );
    let sc = scan_str(&line);
    let got: Vec<_> = sc.evidence().iter().map(|e| (e.kind, e.uid.clone(), e.id.clone())).collect();
    assert_eq!(got, [(EvidenceKind::MissingIdentityNotFound, UID_A.to_string(), None)]);
    assert!(!EvidenceKind::MissingIdentityNotFound.carries_logged_id());
}

/// crossplane-runtime names a managed reconciler's controller `managed/` + the lower-cased GVK
/// (`ControllerName`, as upjet's generated controllers call it); older providers used `kind.group`.
#[test]
fn a_managed_controller_names_its_kind() {
    use super::{managed_controller_kind, started_kind_of};
    for (controller, want) in [
        ("managed/sqs.aws.upbound.io/v1beta1, kind=queue", Some("queue.sqs.aws.upbound.io")),
        ("managed/sqs.aws.m.upbound.io/v1beta1, kind=queue", Some("queue.sqs.aws.m.upbound.io")),
        ("managed/rdsinstance.database.aws.crossplane.io", Some("rdsinstance.database.aws.crossplane.io")),
        ("providerconfig/providerconfig.aws.upbound.io", None),
        ("managed/", None),
    ] {
        assert_eq!(managed_controller_kind(controller).as_deref(), want, "{controller}");
    }
    assert_eq!(started_kind_of("Queue", "sqs.aws.upbound.io"), "queue.sqs.aws.upbound.io");
}
