//! Where a fleet scan spent its time, for the fleet benchmark (`UPJET_TIMINGS=1`).

/// Where a fleet scan spent its time, printed as one stderr line when `UPJET_TIMINGS=1` so the
/// fleet benchmark (benches/fleet.rs) can split wall time into discovery, listing and analysis
/// without a profiler. Decode and analysis times are summed over the scan's worker threads, so
/// they overlap the listing wall time.
#[derive(Debug, Default)]
pub(super) struct Timings {
    pub(super) connect: std::time::Duration,
    pub(super) discovery: std::time::Duration,
    pub(super) discovery_requests: usize,
    pub(super) discovery_cached: bool,
    pub(super) evidence: std::time::Duration,
    pub(super) listing: std::time::Duration,
    pub(super) decode_cpu: std::time::Duration,
    pub(super) analysis_cpu: std::time::Duration,
    pub(super) report: std::time::Duration,
    pub(super) kinds: usize,
    pub(super) list_requests: usize,
    pub(super) list_bytes: usize,
}

impl Timings {
    pub(super) fn line(&self, output: std::time::Duration, total: std::time::Duration) -> String {
        let ms = |d: std::time::Duration| format!("{:.1}", d.as_secs_f64() * 1000.0);
        format!(
            "upjet-timings connect_ms={} discovery_ms={} discovery_requests={} discovery_cached={} evidence_ms={} \
             listing_ms={} decode_cpu_ms={} analysis_cpu_ms={} report_ms={} output_ms={} total_ms={} kinds={} \
             list_requests={} list_bytes={} peak_rss_kib={}",
            ms(self.connect),
            ms(self.discovery),
            self.discovery_requests,
            self.discovery_cached,
            ms(self.evidence),
            ms(self.listing),
            ms(self.decode_cpu),
            ms(self.analysis_cpu),
            ms(self.report),
            ms(output),
            ms(total),
            self.kinds,
            self.list_requests,
            self.list_bytes,
            peak_rss_kib().map_or_else(|| "-".to_string(), |k| k.to_string()),
        )
    }
}

/// This process's peak resident set size (`VmHWM`, Linux only). Unlike `getrusage`'s `ru_maxrss`,
/// it belongs to the memory map created at `exec`, so it does not include the parent's memory
/// when the parent spawned us with vfork/`posix_spawn` (as Rust's `Command` does).
pub(super) fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find_map(|l| l.strip_prefix("VmHWM:"))?;
    line.trim().trim_end_matches("kB").trim().parse().ok()
}
