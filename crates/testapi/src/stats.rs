//! Traffic counters: what a server handled, for tests and benchmarks to assert on.

use crate::TestApi;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Counters about the traffic a server handled, so tests and benchmarks can
/// assert how many requests a command made and how it paginated.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Requests received (including those answered by faults).
    pub requests: u64,
    /// Requests per class: `discovery`, `list`, `get`, `create`, `update`,
    /// `patch`, `delete`, `deletecollection`, `log`, `exec`, `version`, `watch`,
    /// `openapi`, `notfound`.
    pub by_class: BTreeMap<String, u64>,
    /// Sum of response body bytes.
    pub response_bytes: u64,
    /// Highest number of requests being handled at the same time.
    pub max_in_flight: usize,
    /// `(method, path?query)` of the most recent requests, oldest first
    /// (at most [`Stats::RECENT`]).
    pub recent: Vec<(String, String)>,
}

impl Stats {
    /// How many recent requests [`Stats::recent`] keeps.
    pub const RECENT: usize = 1000;

    /// Count of requests of one class (0 if none), for terse assertions.
    pub fn class(&self, class: &str) -> u64 {
        self.by_class.get(class).copied().unwrap_or(0)
    }
}

#[derive(Default)]
pub(crate) struct StatsInner {
    pub requests: AtomicU64,
    pub response_bytes: AtomicU64,
    pub in_flight: AtomicUsize,
    pub max_in_flight: AtomicUsize,
    pub by_class: Mutex<BTreeMap<String, u64>>,
    pub recent: Mutex<VecDeque<(String, String)>>,
}

impl TestApi {
    /// Snapshot of the traffic counters.
    pub fn stats(&self) -> Stats {
        let s = &self.inner.stats;
        Stats {
            requests: s.requests.load(Ordering::SeqCst),
            by_class: s.by_class.lock().expect("stats lock").clone(),
            response_bytes: s.response_bytes.load(Ordering::SeqCst),
            max_in_flight: s.max_in_flight.load(Ordering::SeqCst),
            recent: s.recent.lock().expect("stats lock").iter().cloned().collect(),
        }
    }

    /// Zeroes the traffic counters (e.g. after seeding, before the measured part).
    pub fn reset_stats(&self) {
        let s = &self.inner.stats;
        s.requests.store(0, Ordering::SeqCst);
        s.response_bytes.store(0, Ordering::SeqCst);
        s.max_in_flight.store(s.in_flight.load(Ordering::SeqCst), Ordering::SeqCst);
        s.by_class.lock().expect("stats lock").clear();
        s.recent.lock().expect("stats lock").clear();
    }
}
