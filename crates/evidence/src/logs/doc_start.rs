//! How line mode recognises the start of a JSON document that spans lines: a JSON array of
//! documents (Cloud Logging and Loki exports, often a single 50 MB line) or a pretty-printed
//! object. What follows is split by the one JSON splitter ([`json_split`], its embedded
//! document mode), element by element with bounded memory, and handed back to line mode where
//! the document ends or cannot go on.

use super::buffered::BOM;
use super::decode::trim_ascii;

/// Whether the buffered stream starts (after blanks) with a JSON array of documents.
/// Returns the number of bytes up to and including `[`.
pub(super) fn array_start(avail: &[u8]) -> Option<usize> {
    let mut i = if avail.starts_with(BOM) { 3 } else { 0 };
    while i < avail.len() && (avail[i] == b' ' || avail[i] == b'\t') {
        i += 1;
    }
    if avail.get(i) != Some(&b'[') {
        return None;
    }
    let mut j = i + 1;
    while j < avail.len() && matches!(avail[j], b' ' | b'\t' | b'\r') {
        j += 1;
    }
    match avail.get(j) {
        Some(b'{' | b'[' | b'"' | b']' | b'\n') => Some(i + 1),
        _ => None,
    }
}

/// Line-mode version of [`array_start`] on a trimmed line.
pub(super) fn array_open(b: &[u8]) -> bool {
    if b.first() != Some(&b'[') {
        return false;
    }
    let rest = trim_ascii(&b[1..]);
    matches!(rest.first(), None | Some(b'{' | b'[' | b'"' | b']'))
}

/// Whether a line that failed to parse is the start of a multi-line JSON object.
pub(super) fn json_open_at_end(b: &[u8]) -> bool {
    let (mut depth, mut in_str, mut esc) = (0i64, false, false);
    for &c in b {
        if in_str {
            if esc {
                esc = false;
            } else if c == b'\\' {
                esc = true;
            } else if c == b'"' {
                in_str = false;
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth -= 1,
            _ => {}
        }
        if depth < 0 {
            return false;
        }
    }
    !in_str && depth > 0
}
