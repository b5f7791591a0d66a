//! Scanning one log source handed in as a reader (a file, stdin, a streamed pod log), plain or
//! gzip-compressed: the one entry from raw bytes into the log scanner.

use super::{LogScan, Retention, scan};
use std::io::Read;

/// Scans one source; gzip is detected by its magic bytes. Blocking: run it off the async runtime.
pub fn scan_reader(reader: impl Read, name: &str, retention: Retention) -> std::io::Result<LogScan> {
    let mut s = LogScan::with_retention(retention);
    scan(crate::input::open(reader)?, name, &mut s)?;
    Ok(s)
}
