//! Property and hostile-input tests: parsers never panic, and agree with an independent model.

use json_split::{AfterBreak, Piece, Splitter};
use proptest::prelude::*;
use serde_json::{Value, json};
use upjet_core::gotime::GoTime;
use upjet_core::managed::ManagedResource;
use upjet_core::plan::parse_plan;
use upjet_core::rules::diagnose;
use upjet_evidence::logs::{LogScan, scan_slice};
use upjet_output::style::sanitize;

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        ".{0,12}".prop_map(Value::String),
        prop_oneof![
            Just("crossplane.io/paused"),
            Just("crossplane.io/external-create-pending"),
            Just("True"),
            Just("2024-11-30T10:53:06Z")
        ]
        .prop_map(|s| Value::String(s.to_string())),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        let keys = prop_oneof![
            Just("metadata"),
            Just("name"),
            Just("annotations"),
            Just("status"),
            Just("conditions"),
            Just("type"),
            Just("spec"),
            Just("managementPolicies"),
            Just("atProvider"),
            Just("id"),
            Just("generation"),
            Just("x"),
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map(keys.prop_map(String::from), inner, 0..5)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, .. ProptestConfig::default() })]

    /// Go's parser and an independent model (chrono on the same fields) agree on well-formed input.
    #[test]
    fn rfc3339_agrees_with_a_calendar_model(y in 1i32..9999, mo in 1u32..=12, d in 1u32..=31, h in 0u32..24, mi in 0u32..60, s in 0u32..60,
                                            off_h in 0i32..24, off_m in 0i32..60, neg: bool, z: bool) {
        let text = if z {
            format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}Z")
        } else {
            format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}{}{off_h:02}:{off_m:02}", if neg { '-' } else { '+' })
        };
        let model = chrono::NaiveDate::from_ymd_opt(y, mo, d).map(|date| {
            let secs = date.and_hms_opt(h, mi, s).unwrap().and_utc().timestamp();
            let off = if z { 0 } else { (off_h as i64 * 60 + off_m as i64) * 60 * if neg { -1 } else { 1 } };
            secs - off
        });
        let got = GoTime::parse_rfc3339(&text).map(|t| t.unix_secs());
        prop_assert_eq!(got, model, "{}", text);
    }

    #[test]
    fn rfc3339_never_panics(s in ".{0,40}") {
        let _ = GoTime::parse_rfc3339(&s);
    }

    /// Arbitrary JSON either decodes or is reported unreadable; diagnosing what decodes never panics.
    #[test]
    fn mr_decoding_never_panics(v in arb_json()) {
        if let Ok(mr) = ManagedResource::from_json(&v.to_string()) {
            let _ = diagnose(&mr, upjet_core::reconcile_timeout::JudgedAt::upjet(GoTime::from_unix(1_733_000_000, 0)));
        }
    }

    /// Arbitrary bytes are counted, never fatal, and every line is accounted for.
    #[test]
    fn log_scanning_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..4096)) {
        let mut scan = LogScan::new();
        scan_slice(&bytes, "fuzz", &mut scan);
        prop_assert_eq!(scan.lines, scan.parsed + scan.unknown + scan.too_long + scan.blank);
    }

    #[test]
    fn plan_parsing_never_panics(s in ".{0,200}") {
        let _ = parse_plan(&s);
    }

    /// Sanitised text holds no control characters, whatever came in.
    #[test]
    fn sanitized_text_is_terminal_safe(s in "\\PC{0,20}[\\x00-\\x1f\\x7f\\u{80}-\\u{9f}]{0,5}\\PC{0,20}") {
        prop_assert!(!sanitize(&s).chars().any(char::is_control));
    }
}

#[test]
fn deeply_nested_json_is_an_error_not_a_crash() {
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    assert!(ManagedResource::from_json(&deep).is_err());
    let nested = format!(
        "{{\"metadata\":{{\"name\":\"x\"}},\"spec\":{}{}}}",
        "{\"a\":".repeat(50_000),
        "1".to_string() + &"}".repeat(50_000)
    );
    // Unknown deep subtrees are skipped without recursion: the MR still decodes.
    assert_eq!(ManagedResource::from_json(&nested).unwrap().name, "x");
}

#[test]
fn absurd_annotation_values_are_handled() {
    let huge = "x".repeat(1 << 20);
    let mr = ManagedResource::from_json(
        &json!({"apiVersion": "v/v1", "kind": "K", "metadata": {"name": "n", "annotations": {
            "crossplane.io/external-create-pending": huge, "crossplane.io/paused": huge, "upjet.crossplane.io/provider-meta": huge}}})
        .to_string(),
    )
    .unwrap();
    let codes: Vec<String> =
        diagnose(&mr, upjet_core::reconcile_timeout::JudgedAt::upjet(GoTime::from_unix(1_733_000_000, 0)))
            .into_iter()
            .map(|f| f.code.to_string())
            .collect();
    assert!(codes.contains(&"MalformedAnnotation".to_string()), "{codes:?}");
}

#[test]
fn hundred_megabyte_line_is_skipped_in_bounded_memory() {
    let mut data = vec![b'a'; 100 << 20];
    data.push(b'\n');
    data.extend_from_slice(b"2024-11-30T10:00:00Z\tDEBUG\tprovider-aws\tAsync create ended.\t{\"trackerUID\": \"u1\", \"tfID\": \"i-1\"}\n");
    let mut scan = LogScan::new();
    scan_slice(&data, "huge", &mut scan);
    assert_eq!((scan.too_long, scan.parsed), (1, 1));
    assert_eq!(scan.evidence().len(), 1);
}

/// Runs the shared JSON record splitter over `data` in `chunk`-byte reads; each piece as text.
fn split_pieces(data: &[u8], chunk: usize, cap: usize, after: AfterBreak) -> (Vec<String>, u64, Option<u64>) {
    let mut out = Vec::new();
    let mut s = Splitter::new(cap, &[b"Records", b"value"], after);
    let mut r = std::io::BufReader::with_capacity(chunk, data);
    let mut bytes = 0;
    let open = s
        .run(&mut r, &mut bytes, &mut |p| {
            out.push(match p {
                Piece::Element(b, l) => {
                    assert!(b.len() <= cap, "a record over the cap was handed on");
                    format!("{l}:{}", String::from_utf8_lossy(b))
                }
                other => format!("{other:?}"),
            })
        })
        .expect("reading from memory does not fail");
    (out, bytes, open)
}

proptest! {
    #[test]
    fn the_json_splitter_is_bounded_and_blind_to_read_sizes(
        data in proptest::collection::vec(
            prop_oneof![Just(b'{'), Just(b'}'), Just(b'['), Just(b']'), Just(b'"'), Just(b'\\'),
                        Just(b'\n'), Just(b','), Just(b':'), Just(b' '), Just(b'a'), any::<u8>()], 0..400),
        chunk in 1usize..64,
        stop in any::<bool>(),
    ) {
        let after = if stop { AfterBreak::Stop } else { AfterBreak::Resync };
        let whole = split_pieces(&data, 4096, 48, after);
        let chunked = split_pieces(&data, chunk, 48, after);
        prop_assert_eq!(whole.1, data.len() as u64);
        prop_assert_eq!(whole, chunked);
    }

    #[test]
    fn the_json_splitter_hands_back_each_json_line_and_each_wrapped_record(
        docs in proptest::collection::vec(arb_json(), 1..8),
        chunk in 1usize..64,
    ) {
        let objects: Vec<String> = docs.iter().map(|d| json!({"d": d}).to_string()).collect();
        let lines = objects.join("\n");
        let want: Vec<String> = objects.iter().enumerate().map(|(i, o)| format!("{}:{o}", i + 1)).collect();
        prop_assert_eq!(split_pieces(lines.as_bytes(), chunk, 1 << 20, AfterBreak::Resync).0, want);
        let wrapped = format!("{{\"Records\":[{}]}}", objects.join(","));
        let want: Vec<String> = objects.iter().map(|o| format!("1:{o}")).collect();
        prop_assert_eq!(split_pieces(wrapped.as_bytes(), chunk, 1 << 20, AfterBreak::Stop).0, want);
    }
}
