//! A CSV of CloudTrail records: the result of an Athena query over a CloudTrail table (the
//! console's download, or the `.csv` Athena writes to its S3 output location), or CloudTrail
//! Lake's results saved as CSV. The header row names the table's columns (`eventtime`,
//! `eventsource`, `eventname`, `useridentity`, `requestparameters`, …); every field is quoted,
//! the JSON bodies inside with their quotes doubled, structs as Trino prints them; an empty field
//! is a null. Each line is folded into one CloudTrail record ([`columns::fold`]).
//!
//! Read with `csv-core`, the engine underneath the `csv` crate (same authors and repository):
//! `csv::Reader` grows a record's buffer without bound, so one unterminated quote would read the
//! whole file into memory; `csv-core` writes into a buffer this reader sizes, so a record longer
//! than [`MAX_RECORD_BYTES`] is skipped and counted like an over-long JSON record.

use super::columns;
use super::{MAX_RECORD_BYTES, Reader};
use csv_core::ReadRecordResult;
use std::io::{self, BufRead};

/// Most columns a line may have (the CloudTrail table has about 30).
const MAX_COLUMNS: usize = 512;

/// Whether a file's first bytes are a CSV whose header names CloudTrail's columns.
pub(super) fn is_athena(head: &[u8]) -> bool {
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let first = head.split(|&c| c == b'\n').next().unwrap_or_default().to_ascii_lowercase();
    let names: Vec<&[u8]> = first.split(|&c| c == b',').map(unquote).collect();
    names.len() > 1 && [&b"eventname"[..], b"eventsource"].iter().all(|c| names.contains(c))
}

/// A header's name without its quotes.
fn unquote(name: &[u8]) -> &[u8] {
    let name = name.trim_ascii();
    let name = name.strip_prefix(b"\"").unwrap_or(name);
    name.strip_suffix(b"\"").unwrap_or(name)
}

/// A header's column name, without the byte-order mark a spreadsheet's export starts with (the
/// CSV reader then sees the first name's quotes as text, so they are taken off here).
fn column_name(field: &[u8]) -> String {
    match field.strip_prefix(b"\xef\xbb\xbf") {
        Some(rest) => String::from_utf8_lossy(unquote(rest)).into_owned(),
        None => String::from_utf8_lossy(field).into_owned(),
    }
}

/// One line being read: its fields' bytes and ends, capped.
struct Line {
    out: Vec<u8>,
    ends: Vec<usize>,
    out_len: usize,
    ends_len: usize,
    /// Longer than the cap: read to its end and skipped.
    too_long: bool,
    /// The line it starts on.
    line: u64,
}

impl Line {
    fn reset(&mut self) {
        (self.out_len, self.ends_len, self.too_long) = (0, 0, false);
    }

    /// Makes room after a full buffer; past the cap the line is only read to its end.
    fn grow(&mut self, ends: bool) {
        let (len, cap) = if ends { (self.ends.len(), MAX_COLUMNS) } else { (self.out.len(), MAX_RECORD_BYTES) };
        if len >= cap {
            self.too_long = true;
            (self.out_len, self.ends_len) = (0, 0);
        } else if ends {
            self.ends.resize((len * 2).min(cap), 0);
        } else {
            self.out.resize((len * 2).min(cap), 0);
        }
    }

    fn fields(&self) -> impl Iterator<Item = &[u8]> {
        let ends = &self.ends[..self.ends_len];
        ends.iter().scan(0, |start, &end| {
            let field = self.out.get(*start..end).unwrap_or_default();
            *start = end;
            Some(field)
        })
    }
}

/// Reads the CSV's lines into `r` (the header first). Returns `None` (the JSON reader's "left
/// open" has no CSV twin: a file cut inside a quoted field ends that field where the bytes end,
/// and the dialect then finds the record incomplete).
pub(super) fn read<R: BufRead>(input: &mut R, bytes: &mut u64, r: &mut Reader) -> io::Result<Option<u64>> {
    let mut csv = csv_core::Reader::new();
    let mut line =
        Line { out: vec![0; 64 * 1024], ends: vec![0; 64], out_len: 0, ends_len: 0, too_long: false, line: 1 };
    let mut header: Option<Vec<String>> = None;
    // Lines consumed, and whether the next line's start is still to be found (past the `\n` of a
    // `\r\n` and blank lines, which the CSV reader skips).
    let (mut lines, mut between) = (0u64, true);
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        let at_end = chunk.is_empty();
        if between {
            let blank = chunk.iter().take_while(|c| matches!(c, b'\r' | b'\n')).count();
            if blank > 0 {
                lines += memchr::memchr_iter(b'\n', &chunk[..blank]).count() as u64;
                input.consume(blank);
                *bytes += blank as u64;
                continue;
            }
            if !at_end {
                (between, line.line) = (false, lines + 1);
            }
        }
        let (res, n_in, n_out, n_ends) =
            csv.read_record(chunk, &mut line.out[line.out_len..], &mut line.ends[line.ends_len..]);
        lines += memchr::memchr_iter(b'\n', &chunk[..n_in]).count() as u64;
        input.consume(n_in);
        *bytes += n_in as u64;
        line.out_len += n_out;
        line.ends_len += n_ends;
        match res {
            ReadRecordResult::InputEmpty => {}
            ReadRecordResult::OutputFull => line.grow(false),
            ReadRecordResult::OutputEndsFull => line.grow(true),
            ReadRecordResult::Record => {
                match &header {
                    _ if line.too_long => r.piece(json_split::Piece::TooLong(line.line)),
                    None => header = Some(line.fields().map(column_name).collect()),
                    Some(names) => record(r, names, &line),
                }
                line.reset();
                between = true;
            }
            ReadRecordResult::End => return Ok(None),
        }
    }
}

/// One line of values under `names`, folded and handed to the reader.
fn record(r: &mut Reader, names: &[String], line: &Line) {
    let values: Vec<std::borrow::Cow<str>> = line.fields().map(String::from_utf8_lossy).collect();
    if values.iter().all(|v| v.trim().is_empty()) {
        return;
    }
    let folded = columns::fold(names.iter().map(String::as_str).zip(values.iter().map(|v| v.as_ref())));
    r.record(&folded, line.line);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_header_of_cloudtrail_columns_is_taken_for_athena() {
        assert!(is_athena(b"\"eventversion\",\"useridentity\",\"eventtime\",\"eventsource\",\"eventname\"\n\"1.08\""));
        assert!(is_athena(b"\xef\xbb\xbfeventTime,eventSource,eventName\r\n"));
        assert!(!is_athena(b"{\"eventName\":\"x\",\"eventSource\":\"y\"}"));
        assert!(!is_athena(b"name,namespace\n"));
        assert_eq!(column_name(b"\xef\xbb\xbf\"eventTime\""), "eventTime");
        assert_eq!(column_name(b"eventtime"), "eventtime");
    }
}
