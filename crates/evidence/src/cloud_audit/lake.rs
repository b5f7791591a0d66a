//! CloudTrail Lake's `aws cloudtrail get-query-results` answer: `{"QueryStatus":…,
//! "QueryStatistics":…, "QueryResultRows":[[{"eventName":"CreateVpc"},{"eventSource":…}],…],
//! "NextToken":…}`. Each row is a list of one-column objects, every value a string (the API's
//! `list<list<map<string,string>>>`); it is folded into one CloudTrail record
//! ([`columns::fold`]) before the CloudTrail dialect decodes it.
//!
//! Streamed through the shared bounded splitter with `QueryResultRows` as the rows' key: the
//! rows are not records, so that key is this reader's, not one of the JSON reader's wrapper keys.
//! What the answer says about itself (a `NextToken`: more pages remain; a `QueryStatus` other
//! than `FINISHED`: the query had not finished) is read by [`Keys`] as the bytes pass, wherever
//! the keys sit, and makes the export cut short. A page concatenated after another (`cat
//! page-*.json`) starts over: only the last page's token says more remain.

use super::columns;
use super::{MAX_RECORD_BYTES, Reader};
use json_split::{AfterBreak, Piece, Splitter};
use memchr::memmem;
use std::io::{self, BufRead, Read};

/// The key of the rows.
const ROWS: &[&[u8]] = &[b"QueryResultRows"];

/// Longest `ErrorMessage` kept (the API caps it at 1000).
const MAX_VALUE: usize = 1000;

/// Whether a file's first bytes are a `get-query-results` answer (not `describe-query`, whose
/// statistics count `EventsMatched`, not `ResultsCount`).
pub(super) fn is_lake(head: &[u8]) -> bool {
    let starts_object = head.trim_ascii_start().first() == Some(&b'{');
    let has = |k: &[u8]| memmem::find(head, k).is_some();
    starts_object && (has(b"\"QueryResultRows\"") || (has(b"\"QueryStatus\"") && has(b"\"ResultsCount\"")))
}

/// Reads the answer's rows into `r`; returns the line of a document left open at the end.
pub(super) fn read<R: BufRead>(input: &mut R, bytes: &mut u64, r: &mut Reader) -> io::Result<Option<u64>> {
    let mut tap = Tap { inner: input, keys: Keys::default() };
    let mut split = Splitter::new(MAX_RECORD_BYTES, ROWS, AfterBreak::Stop);
    let result = split.run(&mut tap, bytes, &mut |p| match p {
        Piece::Element(row, line) if row.first() == Some(&b'[') => r.record(&fold_row(row), line),
        // An answer without rows (a query still running) is one object: no audit record.
        other => r.piece(other),
    });
    r.read.cut_short = tap.keys.cut_short();
    result
}

/// One row (`[{"col":"value"},…]`) as one record; a row that is not a list of objects of
/// strings is passed on as it is (the dialect then counts it as not valid JSON or no record).
fn fold_row(row: &[u8]) -> Vec<u8> {
    type Row = Vec<serde_json::Map<String, serde_json::Value>>;
    let Ok(cells) = serde_json::from_slice::<Row>(row) else { return row.to_vec() };
    let columns = cells.iter().flat_map(|c| c.iter()).filter_map(|(k, v)| Some((k.as_str(), v.as_str()?)));
    columns::fold(columns)
}

/// Passes the bytes through to the splitter, showing each chunk to [`Keys`] as it is consumed.
struct Tap<'a, R> {
    inner: &'a mut R,
    keys: Keys,
}

impl<R: BufRead> Read for Tap<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = {
            let chunk = self.inner.fill_buf()?;
            let n = chunk.len().min(buf.len());
            buf[..n].copy_from_slice(&chunk[..n]);
            n
        };
        self.consume(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for Tap<'_, R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, n: usize) {
        if let Ok(chunk) = self.inner.fill_buf() {
            self.keys.feed(&chunk[..n.min(chunk.len())]);
        }
        self.inner.consume(n);
    }
}

/// A key this reader listens for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    QueryStatus,
    NextToken,
    ErrorMessage,
}

/// What comes next, outside strings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Expect {
    #[default]
    Nothing,
    /// A watched name was read at the answer's top level: a colon makes it a key.
    Colon(Key),
    /// The value of a watched key.
    Value(Key),
}

/// The answer's own keys (those of a top-level object), read from the bytes as they pass with
/// strings, escapes and nesting tracked, wherever they sit. A new top-level object (a page
/// concatenated after another) starts over.
#[derive(Default)]
struct Keys {
    in_str: bool,
    esc: bool,
    text: Vec<u8>,
    depth: u32,
    /// The depth the current string started at.
    str_depth: u32,
    expect: Expect,
    status: Option<String>,
    token: bool,
    error: Option<String>,
}

impl Keys {
    fn feed(&mut self, chunk: &[u8]) {
        for &c in chunk {
            if self.in_str {
                self.in_string(c);
            } else if !c.is_ascii_whitespace() {
                self.outside(c);
            }
        }
    }

    fn in_string(&mut self, c: u8) {
        if self.esc {
            self.esc = false;
        } else if c == b'\\' {
            self.esc = true;
        } else if c == b'"' {
            self.in_str = false;
            self.string_ended();
            return;
        }
        if self.text.len() < MAX_VALUE {
            self.text.push(c);
        }
    }

    fn outside(&mut self, c: u8) {
        let expect = std::mem::take(&mut self.expect);
        match (expect, c) {
            (_, b'"') => {
                self.in_str = true;
                self.text.clear();
                self.str_depth = self.depth;
                self.expect = expect;
            }
            (Expect::Colon(key), b':') => self.expect = Expect::Value(key),
            (_, b'{' | b'[') => {
                if self.depth == 0 {
                    // A new answer: what the one before said is over.
                    (self.token, self.status, self.error) = (false, None, None);
                }
                self.depth += 1;
            }
            (_, b'}' | b']') => self.depth = self.depth.saturating_sub(1),
            _ => {}
        }
    }

    fn string_ended(&mut self) {
        let quoted = [&b"\""[..], &self.text, b"\""].concat();
        let text = serde_json::from_slice::<String>(&quoted)
            .unwrap_or_else(|_| String::from_utf8_lossy(&self.text).into_owned());
        self.expect = match self.expect {
            Expect::Value(Key::QueryStatus) => {
                self.status = Some(text);
                Expect::Nothing
            }
            Expect::Value(Key::NextToken) => {
                self.token = !text.is_empty();
                Expect::Nothing
            }
            Expect::Value(Key::ErrorMessage) => {
                self.error = Some(text);
                Expect::Nothing
            }
            _ if self.str_depth != 1 => Expect::Nothing,
            _ => match text.as_str() {
                "QueryStatus" => Expect::Colon(Key::QueryStatus),
                "NextToken" => Expect::Colon(Key::NextToken),
                "ErrorMessage" => Expect::Colon(Key::ErrorMessage),
                _ => Expect::Nothing,
            },
        };
    }

    /// Why the answer is not the query's whole result, if it is not.
    fn cut_short(&self) -> Option<String> {
        let error = self.error.as_deref().map(|e| format!(": {e}")).unwrap_or_default();
        match self.status.as_deref() {
            Some(s) if s != "FINISHED" => Some(format!("the query's status is {s}{error}, so its rows are not all there")),
            _ if self.token => Some(
                "it ends with NextToken: more pages remain (get-query-results stopped at --max-query-results; page with --next-token until no NextToken is printed and give every page)".into(),
            ),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> Option<String> {
        let mut k = Keys::default();
        for chunk in text.as_bytes().chunks(3) {
            k.feed(chunk);
        }
        k.cut_short()
    }

    #[test]
    fn the_answer_says_whether_it_is_whole() {
        let row = r#"[{"eventName":"ListX"},{"requestParameters":"{\"NextToken\":\"abc\"}"},{"x":"NextToken"}]"#;
        for (text, want) in [
            (format!(r#"{{"QueryStatus":"FINISHED","QueryResultRows":[{row}]}}"#), None),
            (
                format!(r#"{{"QueryStatus": "FINISHED", "QueryResultRows": [{row}], "NextToken": "t0k"}}"#),
                Some("NextToken"),
            ),
            (format!(r#"{{"NextToken":"t0k","QueryStatus":"FINISHED","QueryResultRows":[{row}]}}"#), Some("NextToken")),
            (
                format!(
                    r#"{{"QueryStatus":"FINISHED","QueryResultRows":[],"NextToken":"t"}}{{"QueryStatus":"FINISHED","QueryResultRows":[{row}]}}"#
                ),
                None,
            ),
            (r#"{"QueryStatus":"FAILED","ErrorMessage":"bad \"SQL\""}"#.to_string(), Some("FAILED: bad \"SQL\"")),
            (r#"{"QueryStatus":"RUNNING","NextToken":null}"#.to_string(), Some("RUNNING")),
        ] {
            let got = keys(&text);
            match want {
                None => assert_eq!(got, None, "{text}"),
                Some(w) => assert!(got.as_deref().is_some_and(|g| g.contains(w)), "{text}: {got:?}"),
            }
        }
    }

    #[test]
    fn only_an_answer_is_taken_for_lake() {
        assert!(is_lake(br#"{"QueryStatus":"FINISHED","QueryStatistics":{"ResultsCount":1},"QueryResultRows":[["#));
        assert!(is_lake(b"\n{\n  \"QueryResultRows\": []"));
        assert!(!is_lake(br#"{"QueryId":"q","QueryStatus":"FINISHED","QueryStatistics":{"EventsMatched":1}}"#));
        assert!(!is_lake(br#"[{"eventName":"x","QueryResultRows":"y"}]"#));
    }
}
