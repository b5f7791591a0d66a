//! Scanning one log source handed in as a reader (a file, stdin, a streamed pod log), plain or
//! gzip-compressed: the one entry from raw bytes into the log scanner.

use super::logs::{LogScan, Retention, scan};
use std::io::{BufRead, BufReader, Read};

/// Scans one source; gzip is detected by its magic bytes. Blocking: run it off the async runtime.
pub fn scan_reader(reader: impl Read, name: &str, retention: Retention) -> std::io::Result<LogScan> {
    let mut buffered = BufReader::with_capacity(256 * 1024, reader);
    let gz = buffered.fill_buf()?.starts_with(&[0x1f, 0x8b]);
    let mut s = LogScan::with_retention(retention);
    if gz {
        scan(BufReader::with_capacity(256 * 1024, flate2::read::MultiGzDecoder::new(buffered)), name, &mut s)?;
    } else {
        scan(buffered, name, &mut s)?;
    }
    Ok(s)
}
