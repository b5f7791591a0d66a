//! The reader of change logs: the JSON lines crossplane's changelogs sidecar writes to its
//! container log, one per create, update and delete a provider started with
//! `--enable-changelogs` performs (`protojson.Marshal` of crossplane-runtime's `ChangeLogEntry`,
//! apis/changelogs/proto/v1alpha1/changelog.proto; the sidecar's server.go prints it with a
//! newline).
//!
//! Streamed line by line with a capped line length ([`MAX_ENTRY_BYTES`]: an entry carries the
//! whole MR as its snapshot), each line rejected by a byte check before it is decoded; the
//! snapshot is decoded only for the two fields the entry lacks (namespace and UID), so memory
//! holds the entries kept, never a snapshot. A prefix before the JSON (`kubectl logs
//! --timestamps`, a CRI log file's `stdout F`) is skipped; protojson's output is compact but may
//! hold a space after a colon, which the byte check allows.

use super::logs::buffered::{LineRead, read_line_capped_at};
use serde::Deserialize;
use std::borrow::Cow;
use std::io::Read;
use upjet_core::changelog::{ChangeEntry, Operation};
use upjet_core::gotime::GoTime;

/// Longest entry read: an entry holds the whole MR, whose `status.atProvider` can be large.
pub(crate) const MAX_ENTRY_BYTES: usize = 4 << 20;

/// Longest error message kept from an entry.
const MAX_ERROR_CHARS: usize = 300;

/// What one change-log source held.
#[derive(Debug, Default)]
pub struct ChangeLogRead {
    /// The entries kept, in file order.
    pub entries: Vec<ChangeEntry>,
    /// Lines read.
    pub lines: u64,
    /// Lines that were change-log entries (kept or not).
    pub found: u64,
    /// Lines longer than [`MAX_ENTRY_BYTES`], skipped.
    pub too_long: u64,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Wire<'a> {
    #[serde(borrow, default)]
    timestamp: Option<Cow<'a, str>>,
    #[serde(default)]
    provider: Option<String>,
    #[serde(default, alias = "api_version")]
    api_version: Option<String>,
    kind: String,
    name: String,
    #[serde(default, alias = "external_name")]
    external_name: Option<String>,
    #[serde(borrow)]
    operation: Cow<'a, str>,
    #[serde(default)]
    snapshot: Option<Snapshot>,
    #[serde(default, alias = "error_message")]
    error_message: Option<String>,
}

#[derive(Deserialize)]
struct Snapshot {
    #[serde(default)]
    metadata: Option<Meta>,
}

#[derive(Deserialize)]
struct Meta {
    #[serde(default)]
    namespace: Option<String>,
    #[serde(default)]
    uid: Option<String>,
}

/// Reads the change-log entries of one source (plain or gzip), keeping those `keep` accepts.
/// Lines that are not entries are counted and skipped: a sidecar's log holds nothing else, but a
/// file may mix provider log lines in.
pub fn read(reader: impl Read, name: &str, keep: impl Fn(&ChangeEntry) -> bool) -> std::io::Result<ChangeLogRead> {
    let mut input = super::input::open(reader)?;
    let mut out = ChangeLogRead::default();
    let (mut buf, mut bytes) = (Vec::new(), 0u64);
    loop {
        buf.clear();
        match read_line_capped_at(&mut input, &mut buf, &mut bytes, MAX_ENTRY_BYTES)? {
            LineRead::Eof => break,
            LineRead::TooLong => {
                out.lines += 1;
                out.too_long += 1;
                continue;
            }
            LineRead::Line => out.lines += 1,
        }
        let Some(entry) = decode(&buf, &format!("{name}:{}", out.lines)) else { continue };
        out.found += 1;
        if keep(&entry) {
            out.entries.push(entry);
        }
    }
    Ok(out)
}

/// The entry on one line, when it is one.
pub fn decode(line: &[u8], source: &str) -> Option<ChangeEntry> {
    if memchr::memmem::find(line, b"OPERATION_TYPE_").is_none() || memchr::memmem::find(line, b"\"kind\"").is_none() {
        return None;
    }
    let start = memchr::memchr(b'{', line)?;
    let w: Wire = serde_json::from_slice(&line[start..]).ok()?;
    if !w.operation.starts_with("OPERATION_TYPE_") || w.kind.is_empty() || w.name.is_empty() {
        return None;
    }
    let meta = w.snapshot.and_then(|s| s.metadata);
    let (namespace, uid) = meta.map_or((None, None), |m| (m.namespace, m.uid));
    Some(ChangeEntry {
        at: w.timestamp.as_deref().and_then(GoTime::parse_rfc3339),
        provider: w.provider.unwrap_or_default(),
        api_version: w.api_version.unwrap_or_default(),
        kind: w.kind,
        name: w.name,
        namespace: namespace.filter(|n| !n.is_empty()),
        uid: uid.filter(|u| !u.is_empty()),
        external_name: w.external_name.unwrap_or_default(),
        operation: Operation::parse(&w.operation),
        error: w.error_message.map(|e| e.chars().take(MAX_ERROR_CHARS).collect()),
        source: source.to_string(),
    })
}

/// Whether a line looks like a change-log entry, for the sniffer: the byte checks of [`decode`].
pub(crate) fn looks_like_entry(line: &[u8]) -> bool {
    memchr::memmem::find(line, b"\"operation\"").is_some()
        && memchr::memmem::find(line, b"OPERATION_TYPE_").is_some()
        && memchr::memmem::find(line, b"\"apiVersion\"").is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An entry as the sidecar prints it (protojson field names, the proto's field order).
    const CREATE: &str = r#"{"timestamp":"2025-04-25T08:23:34Z","provider":"provider-aws-ec2:v1.21.0","apiVersion":"ec2.aws.m.upbound.io/v1beta1","kind":"VPC","name":"main","operation":"OPERATION_TYPE_CREATE","snapshot":{"apiVersion":"ec2.aws.m.upbound.io/v1beta1","kind":"VPC","metadata":{"name":"main","namespace":"team-a","uid":"u-1"}}}"#;
    const UPDATE: &str = r#"{"timestamp":"2025-04-25T08:24:21Z", "provider":"provider-aws-ec2:v1.21.0","apiVersion":"ec2.aws.m.upbound.io/v1beta1","kind":"VPC","name":"main","externalName":"vpc-0a1b","operation":"OPERATION_TYPE_UPDATE","errorMessage":"cannot update: boom"}"#;

    #[test]
    fn reads_entries_with_the_snapshot_s_namespace_and_uid() {
        let text = format!("{CREATE}\nnot an entry\n2025-04-25T08:24:21.1Z {UPDATE}\n");
        let got = read(text.as_bytes(), "f", |_| true).unwrap();
        assert_eq!((got.lines, got.found, got.entries.len()), (3, 2, 2));
        let (c, u) = (&got.entries[0], &got.entries[1]);
        assert_eq!(
            (c.namespace.as_deref(), c.uid.as_deref(), c.operation),
            (Some("team-a"), Some("u-1"), Operation::Create)
        );
        assert_eq!((c.external_name.as_str(), c.source.as_str(), c.group()), ("", "f:1", "ec2.aws.m.upbound.io"));
        assert_eq!(
            (u.external_name.as_str(), u.error.as_deref(), u.namespace.as_deref()),
            ("vpc-0a1b", Some("cannot update: boom"), None)
        );
        assert_eq!(u.at, GoTime::parse_rfc3339("2025-04-25T08:24:21Z"));
    }

    #[test]
    fn keeps_only_what_is_asked_and_skips_hostile_lines() {
        let huge = format!("{{\"operation\":\"OPERATION_TYPE_CREATE\",\"kind\":\"{}\"}}", "x".repeat(MAX_ENTRY_BYTES));
        let text = format!(
            "{huge}\n{CREATE}\n{{\"kind\":\"VPC\",\"name\":\"a\",\"operation\":7}}\n\u{0}\u{1}OPERATION_TYPE_\"kind\"{{\n"
        );
        let got = read(text.as_bytes(), "f", |e| e.name == "other").unwrap();
        assert_eq!((got.lines, got.too_long, got.found, got.entries.len()), (4, 1, 1, 0));
    }

    #[test]
    fn the_public_docs_sample_pretty_printed_and_cut_short_is_not_misread() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/changelogs/docs-change-logs-jq.txt");
        let got = read(std::fs::File::open(path).unwrap(), "docs", |_| true).unwrap();
        assert_eq!(got.found, 0, "jq's pretty print spreads one entry over lines; none is an entry alone");
        assert!(got.lines > 5);
    }

    mod props {
        use super::super::*;
        use proptest::prelude::*;

        proptest! {
            /// Any prefix of a valid log, and any bytes, read without a panic and never yield more
            /// entries than complete entry lines.
            #[test]
            fn truncated_and_random_input_never_panics(cut in 0usize..600, noise in proptest::collection::vec(any::<u8>(), 0..400)) {
                let text = format!("{}\n{}\n", super::CREATE, super::UPDATE);
                let cut = cut.min(text.len());
                let got = read(&text.as_bytes()[..cut], "f", |_| true).unwrap();
                prop_assert!(got.entries.len() <= 2);
                let mut mixed = text.as_bytes().to_vec();
                mixed.extend_from_slice(&noise);
                let got = read(mixed.as_slice(), "f", |_| true).unwrap();
                prop_assert!(got.entries.len() >= 2);
            }
        }
    }
}
