//! The parsers over data written for these tests, and over every real sample in
//! `../shared/fixtures/inventory/` (each must parse, or be rejected with a clear message).

use super::stream::MAX_RECORD_BYTES;
use super::{EXPORTS, InventoryError, expected, read, truncation_hint};
use crate::format::Reader;
use proptest::prelude::*;
use upjet_core::inventory::Cloud;

fn parse(text: &str) -> Result<super::Inventory, InventoryError> {
    read(text.as_bytes(), "inv.json")
}

const AWS_PAGES: &str = r#"{"PaginationToken": "tok", "ResourceTagMappingList": [
  {"ResourceARN": " arn:aws:ec2:eu-west-1:1:vpc/vpc-1", "Tags": [{"Value": "vpc.ec2.aws.upbound.io", "Key": "crossplane-kind"}, {"Key": "crossplane-name", "Value": "core"}, {"Key": "team", "Value": "a"}]}]}
{"PaginationToken": "", "ResourceTagMappingList": [{"ResourceARN": "arn:aws:sqs:eu-west-1:1:q", "Tags": []}]}"#;

#[test]
fn aws_pages_concatenated() {
    let inv = parse(AWS_PAGES).unwrap();
    assert_eq!((inv.records, inv.objects.len(), inv.tagged()), (2, 2, 1));
    let vpc = &inv.objects[0];
    assert_eq!(vpc.id, "arn:aws:ec2:eu-west-1:1:vpc/vpc-1");
    assert_eq!((vpc.cloud, vpc.tags.name.as_deref()), (Cloud::Aws, Some("core")));
    assert_eq!(inv.formats, ["AWS get-resources"]);
}

/// (case, text, the token that says the export was cut). The AWS CLI's `--max-items` output ends
/// with `NextToken` (awscli `PageIterator.build_full_result`), a hand-paged API answer with
/// `PaginationToken`, and `az graph query` with `skip_token`.
const TRUNCATION: &[(&str, &str, Option<&str>)] = &[
    ("hand-paged, last page empty token", AWS_PAGES, None),
    (
        "--max-items cut",
        r#"{"ResourceTagMappingList": [{"ResourceARN": "arn:aws:sqs:us-east-1:1:q", "Tags": []}], "NextToken": "eyJQYWdpbmF0aW9uVG9rZW4iOiBudWxsfQ=="}"#,
        Some("NextToken"),
    ),
    (
        "last hand-paged page has more",
        r#"{"ResourceTagMappingList": [], "PaginationToken": "abc"}"#,
        Some("PaginationToken"),
    ),
    ("graph query, more rows", r#"{"count": 0, "data": [], "skip_token": "ew0KI"}"#, Some("skip_token")),
    ("graph query, no more rows", r#"{"count": 0, "data": [], "skip_token": null}"#, None),
    ("a list has no token", r#"[{"ResourceARN": "arn:aws:s3:::b"}]"#, None),
];

#[test]
fn a_cut_export_is_named_by_its_token() {
    for (name, text, want) in TRUNCATION {
        let inv = parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(inv.truncated, *want, "{name}");
    }
}

/// (case, text, cloud of the first object, tagged objects)
const FORMATS: &[(&str, &str, Cloud, usize)] = &[
    (
        "GCP search-all-resources, kind with underscores",
        r#"[{"assetType": "storage.googleapis.com/Bucket", "name": "//storage.googleapis.com/b1", "labels": {"crossplane-kind": "bucket_storage_gcp_upbound_io", "crossplane-name": "b1"}}, {"name": "//storage.googleapis.com/b2"}]"#,
        Cloud::Gcp,
        1,
    ),
    (
        "GCP asset list, labels in resource.data",
        r#"[{"name": "//compute.googleapis.com/projects/p/global/networks/n", "resource": {"data": {"labels": {"crossplane-kind": "network.compute.gcp.upbound.io", "crossplane-name": "n"}, "x": 1}}}]"#,
        Cloud::Gcp,
        1,
    ),
    (
        "Azure resource list, null tags",
        r#"[{"id": "/subscriptions/s/resourceGroups/rg", "name": "rg", "tags": {"crossplane-kind": "resourcegroup.azure.upbound.io", "crossplane-name": "rg"}}, {"id": "/subscriptions/s/resourceGroups/rg2", "tags": null}]"#,
        Cloud::Azure,
        1,
    ),
    (
        "Azure graph rows",
        r#"{"count": 1, "data": [{"id": "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v", "tags": {"crossplane-kind": "virtualnetwork.network.azure.upbound.io", "crossplane-name": "v"}}], "skip_token": null}"#,
        Cloud::Azure,
        1,
    ),
    (
        "Azure graph table",
        r#"{"data": {"rows": [["/subscriptions/s/resourceGroups/rg", {"crossplane-kind": "resourcegroup.azure.upbound.io", "crossplane-name": "rg"}]], "columns": [{"name": "id", "type": "string"}, {"name": "tags", "type": "object"}]}}"#,
        Cloud::Azure,
        1,
    ),
    (
        "odd tag values: numbers, empty, control characters kept for escaping later",
        r#"[{"ResourceARN": "arn:aws:s3:::b", "Tags": [{"Key": "crossplane-kind", "Value": 7}, {"Key": "crossplane-name", "Value": "x\u001b[2J"}]}]"#,
        Cloud::Aws,
        0,
    ),
];

#[test]
fn every_format_is_detected() {
    for (name, text, cloud, tagged) in FORMATS {
        let inv = parse(text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(inv.objects[0].cloud, *cloud, "{name}");
        assert_eq!(inv.tagged(), *tagged, "{name}");
    }
}

/// (case, text, words the error must contain)
const BAD: &[(&str, &str, &str)] = &[
    (
        "truncated",
        r#"{"ResourceTagMappingList": [{"ResourceARN": "arn:aws:s3:::b", "Tags": ["#,
        "not a complete JSON export",
    ),
    ("not JSON", "hello", "not a complete JSON export"),
    ("empty", "  \n", "an empty file"),
    ("EC2 describe output", r#"{"Reservations": []}"#, "keys Reservations"),
    ("array of strangers", r#"[{"foo": 1}]"#, "no ResourceARN"),
    ("scalar", "42", "a JSON scalar"),
    ("a scalar after a page", "{\"ResourceTagMappingList\": []}\nnull", "line 2 holds no JSON array or object"),
    (
        "the list closed before its last record",
        r#"{"ResourceTagMappingList": [{"ResourceARN": "arn:aws:s3:::a"}]{"ResourceARN": "arn:aws:s3:::b"}]}"#,
        "the JSON breaks on line 1",
    ),
    ("a token read as a key", r#"{"ResourceTagMappingList": [], "PaginationToken", "t"}"#, "the JSON breaks on line 1"),
    ("a bare value where a record stands", "[{\"ResourceARN\": \"arn:aws:s3:::a\"},\n7]", "breaks on line 2"),
    ("a record that is no JSON", "[\n{\"ResourceARN\": tru}]", "the value that starts on line 2"),
    ("a record that is an array", r#"[["arn:aws:s3:::a"]]"#, "expected an inventory record (a JSON object)"),
    (
        "a field of the wrong kind, named where it stands",
        "[{\"ResourceARN\": \"a\",\n  \"Tags\": \"x\"}]",
        "expected tags: a map or a list of {Key, Value} at line 2 column 13",
    ),
    (
        "a field of another export of the wrong kind",
        r#"[{"ResourceARN": "arn:aws:s3:::a", "labels": 7}]"#,
        "invalid type: integer `7`, expected tags",
    ),
];

#[test]
fn bad_input_names_the_file_and_what_was_expected() {
    for (name, text, words) in BAD {
        let err = parse(text).err().unwrap_or_else(|| panic!("{name}: parsed")).to_string();
        assert!(err.contains("inv.json") && err.contains(words), "{name}: {err}");
        if !err.contains("not a complete") {
            assert!(err.contains("gcloud asset search-all-resources"), "{name}: {err}");
        }
    }
}

/// The exports are what the reader, the error and the sniffer walk: each has sniffer entries that
/// take its files to `--inventory` and are tried, its words in the error, wrapper keys no other
/// export claims and a hint for each of its tokens (the first export's, for a key several
/// declare); the error lists them in order.
#[test]
fn every_export_is_walked_by_the_reader_the_error_and_the_sniffer() {
    let sniffed = crate::sniff::formats();
    let mut wrappers = Vec::new();
    let mut at = 0;
    for e in EXPORTS {
        assert!(!e.formats().is_empty() && !e.keys().is_empty() && !e.array().is_empty());
        for f in e.formats() {
            assert_eq!(f.readers.first(), Some(&Reader::Inventory), "{}", f.what);
            assert!(sniffed.iter().any(|s| std::ptr::eq(*s, f)), "{} is not tried", f.what);
        }
        at += expected()[at..].find(e.expected()).unwrap_or_else(|| panic!("{} is not expected", e.array()));
        for env in e.envelopes() {
            assert!(!wrappers.contains(&env.key), "{} wraps two exports' records", env.key);
            wrappers.push(env.key);
        }
        for t in e.tokens() {
            // A key two exports declare means one thing: the first's hint is given.
            let first = EXPORTS.iter().flat_map(|e| e.tokens()).find(|known| known.key == t.key);
            assert_eq!(Some(truncation_hint(t.key)), first.map(|f| f.hint), "{}", t.key);
        }
    }
}

/// An export lives in its own file: none of the files every export shares (the reader, the
/// trait, the registry) names a key, wrapper key or paging token of one as a string, and the
/// sniffer's own table has no inventory entry, so adding an export is its file and its entry in
/// `EXPORTS` (docs/development.md counts them).
#[test]
fn the_shared_reader_names_no_export_key() {
    let shared = [
        ("mod.rs", include_str!("mod.rs")),
        ("export.rs", include_str!("export.rs")),
        ("envelope.rs", include_str!("envelope.rs")),
        ("record.rs", include_str!("record.rs")),
        ("stream.rs", include_str!("stream.rs")),
        ("tags.rs", include_str!("tags.rs")),
    ];
    let sniffer = include_str!("../sniff/mod.rs");
    assert!(!sniffer.contains("Reader::Inventory"), "the sniffer's own table takes a file to --inventory");
    for e in EXPORTS {
        let envelopes = e.envelopes().iter().map(|env| env.key);
        let words: Vec<&str> =
            e.keys().iter().copied().chain(envelopes).chain(e.tokens().iter().map(|t| t.key)).collect();
        for word in words {
            for (file, text) in shared {
                assert!(!text.contains(&format!("\"{word}\"")), "{file} names {word:?}, a key of {}", e.array());
            }
        }
    }
}

#[test]
fn gzip_is_detected() {
    use std::io::Write;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(AWS_PAGES.as_bytes()).unwrap();
    let inv = read(gz.finish().unwrap().as_slice(), "inv.json.gz").unwrap();
    assert_eq!(inv.objects.len(), 2);
}

/// Every shared real sample: `Some((objects, tagged))` when it must parse, `None` when it must
/// be rejected as an unknown format (describe outputs are not inventory exports).
const SAMPLES: &[(&str, Option<(usize, usize)>)] = &[
    ("aws-ec2-describe-instances-localstack-crossplane-running-alvsanand.json", None),
    ("aws-ec2-describe-instances-localstack-crossplane-terminated-alvsanand.json", None),
    ("aws-ec2-describe-security-groups-custodian.json", None),
    ("aws-ec2-describe-vpcs-custodian.json", None),
    ("aws-eks-describe-pod-identity-association-upjet-lanwen.json", None),
    ("aws-get-resources-awscli-docs-example.json", Some((1, 0))),
    ("aws-get-resources-custodian-elasticache.json", Some((6, 0))),
    ("aws-get-resources-custodian-rds-cluster.json", Some((2, 0))),
    ("aws-get-resources-custodian-sqs-empty-tags.json", Some((4, 0))),
    ("aws-get-resources-mappinglist-only-fluxcd-reaper.json", Some((3, 0))),
    ("azure-graph-query-msdocs-private-dns-fallback.json", Some((0, 0))),
    ("azure-group-list-fluxcd-reaper.json", Some((1, 0))),
    ("azure-resource-list-fluxcd-reaper.json", Some((2, 0))),
    ("gcp-asset-list-resource-salrashid-org-policy-audit.json", Some((2, 0))),
    ("gcp-asset-search-all-resources-fluxcd-reaper.json", Some((2, 0))),
    ("gcp-asset-search-all-resources-salrashid-org-policy-audit.json", Some((1, 0))),
];

#[test]
fn shared_real_samples_parse_or_are_rejected_clearly() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/fixtures/inventory");
    let listing = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{dir}: {e}"));
    let mut seen = 0;
    for entry in listing.flatten().filter(|e| e.path().extension().is_some_and(|x| x == "json")) {
        let file = entry.file_name().to_string_lossy().into_owned();
        let want = SAMPLES.iter().find(|(f, _)| *f == file).unwrap_or_else(|| panic!("{file} has no expectation")).1;
        let got = read(std::fs::File::open(entry.path()).unwrap(), &file);
        match (want, got) {
            (Some((objects, tagged)), Ok(inv)) => {
                assert_eq!((inv.objects.len(), inv.tagged()), (objects, tagged), "{file}")
            }
            (None, Err(e @ InventoryError::Unknown { .. })) => assert!(e.to_string().contains(&file), "{file}: {e}"),
            (want, got) => panic!("{file}: want {want:?}, got {got:?}"),
        }
        seen += 1;
    }
    assert_eq!(seen, SAMPLES.len());
}

#[test]
fn the_awscli_example_arn_is_trimmed() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/fixtures/inventory/aws-get-resources-awscli-docs-example.json"
    );
    let Ok(f) = std::fs::File::open(path) else { return };
    let inv = read(f, "example").unwrap();
    assert!(inv.objects[0].id.starts_with("arn:aws:inspector"));
}

#[test]
fn an_empty_array_and_a_record_over_the_cap_are_named() {
    let inv = parse(" [ ]\n").unwrap();
    assert_eq!((inv.records, inv.formats.as_slice()), (0, &["an empty array"][..]));
    let long = "a".repeat(MAX_RECORD_BYTES);
    for (text, found) in [
        (format!(r#"[{{"ResourceARN": "arn:aws:s3:::b", "x": "{long}"}}]"#), "a record of more than 64 MiB, on line 1"),
        (format!(r#"{{"Reservations": [{{"x": "{long}"}}]}}"#), "a JSON object with keys Reservations"),
        (format!(r#"{{"data": {{"rows": [["{long}"]]}}}}"#), "a JSON object of more than 64 MiB with keys data"),
        (format!("[]\n\"{long}\""), "a JSON value of more than 64 MiB, on line 2"),
    ] {
        let err = parse(&text).unwrap_err().to_string();
        assert!(err.contains(&format!("unknown format ({found})")), "{err}");
    }
}

/// An AWS mapping, a GCP asset and an Azure resource, each tagged for MR `n`.
fn records(cloud: usize, n: usize) -> serde_json::Value {
    let tags = serde_json::json!({"crossplane-kind": "bucket.s3.aws.upbound.io", "crossplane-name": format!("b{n}")});
    match cloud {
        0 => serde_json::json!({"ResourceARN": format!("arn:aws:s3:::b{n}"), "Tags": [
            {"Key": "crossplane-kind", "Value": "bucket.s3.aws.upbound.io"}, {"Key": "crossplane-name", "Value": format!("b{n}")}]}),
        1 => serde_json::json!({"name": format!("//storage.googleapis.com/projects/_/buckets/b{n}"), "labels": tags}),
        _ => {
            serde_json::json!({"id": format!("/subscriptions/s/resourceGroups/rg{n}"), "name": format!("rg{n}"), "tags": tags})
        }
    }
}

/// A valid export of each layout, compact or pretty-printed: AWS pages by hand (each with its
/// token), an AWS page cut at `--max-items`, a GCP array, a Resource Graph page, and arrays back
/// to back.
fn export(layout: usize, pretty: bool) -> String {
    let rows = |cloud, from| (from..from + 3).map(|n| records(cloud, n)).collect::<Vec<_>>();
    let docs: Vec<serde_json::Value> = match layout {
        0 => (0..3)
            .map(|p| serde_json::json!({"PaginationToken": format!("p{p}"), "ResourceTagMappingList": rows(0, p * 3)}))
            .collect(),
        1 => vec![serde_json::json!({"ResourceTagMappingList": rows(0, 0), "NextToken": "eyJ0b2tlbiI6IDF9"})],
        2 => vec![serde_json::Value::Array(rows(1, 0))],
        3 => vec![serde_json::json!({"count": 3, "data": rows(2, 0), "skip_token": "ew0K"})],
        _ => vec![serde_json::Value::Array(rows(2, 0)), serde_json::json!([]), serde_json::Value::Array(rows(0, 3))],
    };
    let text = |d: &serde_json::Value| if pretty { serde_json::to_string_pretty(d) } else { serde_json::to_string(d) };
    docs.iter().map(|d| text(d).unwrap() + "\n").collect()
}

/// Bytes a damaged export may hold instead of one of its own: JSON's punctuation, a blank, a
/// line break, a letter and a digit.
const GARBLE: &[u8] = b"{}[]\":, \nx7";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// An export cut anywhere is refused, or says it was cut (its last page's token), or is the
    /// whole export but for trailing blanks: never fewer records read as the whole. (Arrays back
    /// to back, layout 4, carry no token: one cut between them is a whole export to any reader.)
    #[test]
    fn a_cut_export_is_refused_or_says_so(layout in 0usize..4, pretty: bool, at in 0.0f64..1.0) {
        let text = export(layout, pretty);
        let whole = parse(&text).unwrap();
        let cut = (text.len() as f64 * at) as usize;
        if let Ok(inv) = parse(&text[..cut]) {
            let only_blanks_left = text[cut..].trim().is_empty();
            prop_assert!(inv.truncated.is_some() || only_blanks_left, "cut at {cut} read as whole: {inv:?}");
            if only_blanks_left {
                prop_assert_eq!(inv.records, whole.records);
            }
        }
    }

    /// A byte of an export replaced is refused, or every record is still read, and the verdict
    /// on its last token is the same unless the damaged bytes are valid JSON (a key renamed, which
    /// no reader can tell).
    #[test]
    fn a_garbled_export_is_refused_or_read_whole(layout in 0usize..5, pretty: bool, at in 0.0f64..1.0, b in 0usize..GARBLE.len()) {
        let text = export(layout, pretty);
        let whole = parse(&text).unwrap();
        let mut bytes = text.into_bytes();
        let i = ((bytes.len() - 1) as f64 * at) as usize;
        bytes[i] = GARBLE[b];
        if let Ok(inv) = read(bytes.as_slice(), "inv.json") {
            prop_assert_eq!(inv.records, whole.records, "{}", String::from_utf8_lossy(&bytes));
            let valid = serde_json::Deserializer::from_slice(&bytes).into_iter::<serde::de::IgnoredAny>().all(|v| v.is_ok());
            prop_assert!(inv.truncated.is_some() == whole.truncated.is_some() || valid, "{}", String::from_utf8_lossy(&bytes));
        }
    }

    /// Hostile bytes, and noise made of the formats' keys and JSON's punctuation, never panic,
    /// and what is read adds up.
    #[test]
    fn hostile_input_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..1024), parts in prop::collection::vec(prop::sample::select(vec![
        "{", "}", "[", "]", "\"", ":", ",", "\n", " ", "7", "null", "\"ResourceTagMappingList\"", "\"data\"", "\"PaginationToken\"",
        "\"ResourceARN\"", "\"arn:aws:s3:::b\"", "\"name\"", "\"//storage.googleapis.com/b\"", "\"columns\"", "\"rows\"",
    ]), 0..300)) {
        for input in [bytes, parts.concat().into_bytes()] {
            if let Ok(inv) = read(input.as_slice(), "inv.json") {
                prop_assert_eq!(inv.objects.len() + inv.without_id, inv.records);
            }
        }
    }
}
