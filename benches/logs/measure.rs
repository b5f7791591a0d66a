//! Timing of one in-memory scan, shared by the log benchmark and the ignored throughput test.

use std::time::Instant;

use upjet_evidence::logs::{LogScan, scan_slice};

/// Scans `data` once and returns the scan result with the throughput in MB/s
/// (10^6 bytes per second of wall time).
pub fn measure(data: &[u8]) -> (LogScan, f64) {
    let mut scan = LogScan::new();
    let start = Instant::now();
    scan_slice(data, "bench", &mut scan);
    let secs = start.elapsed().as_secs_f64().max(1e-9);
    (scan, data.len() as f64 / 1e6 / secs)
}
