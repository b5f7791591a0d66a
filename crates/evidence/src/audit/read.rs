//! Streaming an audit file: line mode (JSONL, S3 export lines) through the capped line reader,
//! document mode (a JSON array, a CloudWatch `{"events": […]}` document, pretty-printed objects)
//! element by element through serde, gzip detected by its magic bytes. Never fails on content.

use super::Groups;
use super::MAX_EVENT_BYTES;
pub use super::reader::AuditRead;
use super::reader::Reader;
use crate::logs::buffered::{LineRead, consume_buffered, read_line_capped_at};
use std::io::{BufRead, Read};
use upjet_core::audit::AuditWrite;

/// How the stream is laid out, from its first bytes.
#[derive(PartialEq)]
enum Layout {
    Lines,
    Document,
}

fn layout(head: &[u8]) -> Layout {
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let start = head.trim_ascii_start();
    match start.first() {
        Some(b'[') => Layout::Document,
        Some(b'{') => {
            let first_line = start.split(|&c| c == b'\n').next().unwrap_or_default();
            if first_line.trim_ascii() == b"{" { Layout::Document } else { Layout::Lines }
        }
        _ => Layout::Lines,
    }
}

/// Reads one audit file (plain or gzip), keeping the writes to `groups`. Never fails: a stream
/// that breaks off (a gzip cut short, an I/O error) keeps what was read and says why in
/// [`AuditRead::ended_early`].
pub fn read(reader: impl Read, name: &str, groups: &Groups) -> (AuditRead, Vec<AuditWrite>) {
    let mut r = Reader::new(name, groups);
    let mut input = match crate::input::open(reader) {
        Ok(i) => i,
        Err(e) => {
            r.read.ended_early = Some(e.to_string());
            return (r.read, r.writes);
        }
    };
    let gz = input.is_gzip();
    let result = stream(&mut input, &mut r);
    if let Err(e) = result {
        let why = match e.kind() {
            std::io::ErrorKind::UnexpectedEof if gz => {
                "the gzip stream ends early; what came before was read".to_string()
            }
            _ => e.to_string(),
        };
        r.read.ended_early = Some(why);
    }
    (r.read, r.writes)
}

/// [`read`] over bytes in memory: for benchmarks and tests.
pub fn read_slice(data: &[u8], name: &str, groups: &Groups) -> (AuditRead, Vec<AuditWrite>) {
    read(data, name, groups)
}

fn stream<R: BufRead>(input: &mut R, r: &mut Reader) -> std::io::Result<()> {
    let (_, lay) = consume_buffered(input, |avail| (0, layout(avail)))?;
    if lay == Layout::Document {
        return super::read_doc::documents(input, r);
    }
    let mut line = Vec::with_capacity(64 * 1024);
    let mut n = 0u64;
    loop {
        line.clear();
        let mut bytes = 0u64;
        let res = read_line_capped_at(input, &mut line, &mut bytes, MAX_EVENT_BYTES)?;
        r.read.bytes += bytes;
        match res {
            LineRead::Eof => return Ok(()),
            LineRead::TooLong => {
                n += 1;
                r.read.documents += 1;
                r.read.too_long += 1;
            }
            LineRead::Line => {
                n += 1;
                r.line(&line, n);
            }
        }
        if line.capacity() > 2 * MAX_EVENT_BYTES {
            line = Vec::with_capacity(64 * 1024);
        }
    }
}
