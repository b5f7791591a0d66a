//! Reading the scanner's input straight from a `BufRead` buffer.
//!
//! Exists because the scanner looks at buffered bytes before deciding how much to consume (a
//! JSON array start, the rest of an over-long line, a chunk of a multi-line document), and
//! every such read must retry `fill_buf` when it fails with `Interrupted`, as `read_until` does.
//! The retry loop lives here once; the capped line reader is built on it.

use std::io::{self, BufRead, Read};

use super::MAX_LINE_BYTES;

/// UTF-8 byte order mark, skipped at the start of a stream or line.
pub(crate) const BOM: &[u8] = b"\xef\xbb\xbf";

/// Fills the reader's buffer (retrying `Interrupted`), lets `inspect` look at the buffered
/// bytes (empty at end of stream), and consumes as many bytes as `inspect` returns. Returns
/// that count with `inspect`'s result.
pub(crate) fn consume_buffered<R: BufRead, T>(
    r: &mut R,
    inspect: impl FnOnce(&[u8]) -> (usize, T),
) -> io::Result<(usize, T)> {
    loop {
        match r.fill_buf() {
            Ok(avail) => {
                let (used, out) = inspect(avail);
                r.consume(used);
                return Ok((used, out));
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        }
    }
}

/// What [`read_line_capped`] found.
pub(crate) enum LineRead {
    /// End of stream, nothing read.
    Eof,
    /// A line (without its newline) is in the buffer.
    Line,
    /// The line was longer than [`MAX_LINE_BYTES`] and was consumed without being stored.
    TooLong,
}

/// Reads one line of at most [`MAX_LINE_BYTES`] bytes (newline excluded) into `buf`; a longer
/// line is consumed up to its newline without being stored. Adds the bytes consumed to `bytes`.
pub(super) fn read_line_capped<R: BufRead>(r: &mut R, buf: &mut Vec<u8>, bytes: &mut u64) -> io::Result<LineRead> {
    read_line_capped_at(r, buf, bytes, MAX_LINE_BYTES)
}

/// [`read_line_capped`] with another cap (the audit reader's events are larger than log lines).
pub(crate) fn read_line_capped_at<R: BufRead>(
    r: &mut R,
    buf: &mut Vec<u8>,
    bytes: &mut u64,
    cap: usize,
) -> io::Result<LineRead> {
    let n = r.by_ref().take(cap as u64 + 1).read_until(b'\n', buf)?;
    *bytes += n as u64;
    if n == 0 {
        return Ok(LineRead::Eof);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        return Ok(LineRead::Line);
    }
    if buf.len() <= cap {
        return Ok(LineRead::Line); // last line without newline
    }
    buf.clear();
    loop {
        let (used, line_ended) = consume_buffered(r, |avail| match memchr::memchr(b'\n', avail) {
            Some(i) => (i + 1, true),
            None => (avail.len(), avail.is_empty()),
        })?;
        *bytes += used as u64;
        if line_ended {
            return Ok(LineRead::TooLong);
        }
    }
}
