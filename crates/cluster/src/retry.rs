//! How reads from a struggling API server are repeated: which failures are worth another
//! attempt, how long to wait (exponential backoff with jitter, at least the server's
//! `Retry-After`), and when to stop (attempts per request, waiting time per budget).
//!
//! The policy is a plain value handed down by the caller, so tests shrink the delays instead of
//! sleeping for real, and every reader (scan pages, discovery, events, logs) shares one rule.
//! kube's own transport layer already repeats 429/503/504 answers (honouring `Retry-After`);
//! this layer adds what it does not cover: 500/502, connections reset or dropped mid-body,
//! truncated JSON, our own `--request-timeout`, and throttling that outlasted kube's retries.

use super::request_error::RequestError;
use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::time::Duration;

/// How hard a read tries before it gives up. Part of the options a read is handed (never global)
/// so that tests can make every wait a few milliseconds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Attempts per request, the first included; a busy server needs several.
    pub attempts: u32,
    /// The first backoff; it doubles on each further retry of the same request.
    pub base_delay: Duration,
    /// The longest single backoff (a server's `Retry-After` may ask for longer, within budget).
    pub max_delay: Duration,
    /// Total time one budget holder (one kind of a scan, one log or event read, discovery) may
    /// spend waiting between attempts: the bound on how long a fault can delay the answer.
    pub budget: Duration,
    /// Whether a server that does not answer at all (`--request-timeout` elapsed, connection
    /// refused, DNS or TLS failure) is retried. Yes mid-scan, where it means a restart or a
    /// struggling server that answered before; no for the first contact (discovery), where it
    /// means the server is not there and the user is owed an error at once, as kubectl gives.
    pub retry_unreachable: bool,
}

impl Default for RetryPolicy {
    /// 10 attempts per request, backoff 0.5 s doubling to at most 7.5 s (each wait jittered to
    /// 50–100 %), 60 s of waiting per budget: one request can ride out about half a minute of
    /// trouble, a kind about a minute.
    fn default() -> Self {
        RetryPolicy::within(Duration::from_secs(60))
    }
}

impl RetryPolicy {
    /// The default schedule scaled to a waiting budget (`--retry-budget`): the first backoff is
    /// 1/120 of it and the longest 1/8, so one knob keeps the shape (a 60 s budget gives
    /// 0.5 s … 7.5 s; a 1 s budget, as tests use, 8 ms … 125 ms). Zero turns retries off.
    pub fn within(budget: Duration) -> RetryPolicy {
        RetryPolicy {
            attempts: if budget.is_zero() { 1 } else { 10 },
            base_delay: budget / 120,
            max_delay: budget / 8,
            budget,
            retry_unreachable: true,
        }
    }

    /// The same schedule for a first contact: a server that does not answer at all is reported
    /// at once (see [`RetryPolicy::retry_unreachable`]); resets, cut bodies and 5xx are retried.
    pub fn first_contact(self) -> RetryPolicy {
        RetryPolicy { retry_unreachable: false, ..self }
    }

    /// One attempt, no waiting: for callers that must not be slowed down.
    pub fn none() -> RetryPolicy {
        RetryPolicy::within(Duration::ZERO)
    }
}

/// Whether a failed request is worth repeating, and how long the server asked us to wait.
/// `None`: a definite answer (403, 404, 410, 401, a bad request) that repeating cannot change.
pub fn transient(e: &RequestError) -> Option<Option<Duration>> {
    match e {
        RequestError::Timeout(_) | RequestError::Unreadable(_) => Some(None),
        RequestError::Kube(kube::Error::Api(s)) => match s.code {
            429 | 500 | 502 | 503 | 504 => Some(
                s.details
                    .as_ref()
                    .map(|d| d.retry_after_seconds)
                    .filter(|&s| s > 0)
                    .map(|s| Duration::from_secs(u64::from(s))),
            ),
            _ => None,
        },
        // Connections refused, reset or dropped mid-body, TLS hiccups, bodies that were not UTF-8
        // because they were cut inside a character.
        RequestError::Kube(
            kube::Error::HyperError(_)
            | kube::Error::Service(_)
            | kube::Error::ReadEvents(_)
            | kube::Error::FromUtf8(_)
            | kube::Error::SerdeError(_),
        ) => Some(None),
        RequestError::Kube(_) => None,
    }
}

/// Whether a failure means the server did not answer at all (as opposed to answering badly or
/// dropping an answer half-way): our time limit, a refused connection, DNS or TLS failure.
pub fn unreachable(e: &RequestError) -> bool {
    match e {
        RequestError::Timeout(_) => true,
        RequestError::Kube(k @ (kube::Error::HyperError(_) | kube::Error::Service(_))) => {
            let mut cur: Option<&(dyn std::error::Error + 'static)> = Some(k);
            while let Some(err) = cur {
                if err.downcast_ref::<std::io::Error>().is_some_and(|io| {
                    matches!(io.kind(), std::io::ErrorKind::ConnectionRefused | std::io::ErrorKind::AddrNotAvailable)
                }) {
                    return true;
                }
                let text = err.to_string().to_lowercase();
                // hyper's client names every failure to set up a connection (TCP, DNS, TLS) "Connect".
                if ["client error (connect)", "connection refused", "dns error", "certificate", "handshake", "tls"]
                    .iter()
                    .any(|m| text.contains(m))
                {
                    return true;
                }
                cur = err.source();
            }
            false
        }
        _ => false,
    }
}

/// The retries left to one budget holder: a kind of a scan, one log, one event list, discovery.
#[derive(Debug)]
pub struct Budget {
    policy: RetryPolicy,
    waited: Duration,
    retries: u32,
    rng: u64,
}

impl Budget {
    /// A full budget. The jitter is seeded per process and per `what`, so that many kinds failing
    /// together (a server restart) do not come back in lockstep.
    pub fn new(policy: &RetryPolicy, what: &str) -> Budget {
        let mut h = RandomState::new().build_hasher();
        h.write(what.as_bytes());
        Budget { policy: policy.clone(), waited: Duration::ZERO, retries: 0, rng: h.finish() | 1 }
    }

    /// After `attempt` (1-based) of one request failed with `e`: how long to wait before the next
    /// attempt, or `None` to give up (not transient, out of attempts, or out of budget).
    pub(crate) fn next_wait(&mut self, attempt: u32, e: &RequestError) -> Option<Duration> {
        let retry_after = transient(e)?;
        if attempt >= self.policy.attempts || (!self.policy.retry_unreachable && unreachable(e)) {
            return None;
        }
        let exp = self.policy.base_delay.saturating_mul(1u32 << (attempt - 1).min(20));
        let backoff = exp.min(self.policy.max_delay);
        // "Equal jitter": half the backoff for sure, the other half at random.
        let jittered = backoff / 2 + backoff.mul_f64(self.random() / 2.0);
        let wait = retry_after.map_or(jittered, |ra| ra.max(jittered));
        if self.waited + wait > self.policy.budget {
            return None;
        }
        self.waited += wait;
        self.retries += 1;
        Some(wait)
    }

    /// Retries granted so far (for the reason printed when a read finally gives up).
    pub fn retries(&self) -> u32 {
        self.retries
    }

    /// A uniform number in [0, 1) (xorshift64: jitter needs spread, not quality).
    fn random(&mut self) -> f64 {
        self.rng ^= self.rng << 13;
        self.rng ^= self.rng >> 7;
        self.rng ^= self.rng << 17;
        (self.rng >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The reason a read gave up, with how hard it tried when it tried more than once.
pub(crate) fn gave_up(e: &RequestError, attempts: u32) -> String {
    match attempts {
        0 | 1 => e.reason(),
        n => format!("{} (after {n} attempts)", e.reason()),
    }
}

/// Runs `attempt` until it succeeds, fails for good, or `budget` runs out; the error of the last
/// attempt is returned with the number of attempts made. Generic over what an attempt produces
/// so events, logs, discovery and scans share one loop.
pub async fn retrying<T, F, Fut>(budget: &mut Budget, what: &str, mut attempt: F) -> Result<T, (RequestError, u32)>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Result<T, RequestError>>,
{
    let mut n = 1;
    loop {
        match attempt().await {
            Ok(v) => return Ok(v),
            Err(e) => match budget.next_wait(n, &e) {
                Some(wait) => {
                    tracing::debug!("retrying {what} in {wait:?} after: {}", e.reason());
                    tokio::time::sleep(wait).await;
                    n += 1;
                }
                None => return Err((e, n)),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn api(code: u16, retry_after: u32) -> RequestError {
        let mut s = kube::core::Status::failure("x", "Reason").with_code(code);
        if retry_after > 0 {
            s.details = Some(serde_json::from_value(serde_json::json!({"retryAfterSeconds": retry_after})).unwrap());
        }
        RequestError::Kube(kube::Error::Api(s.boxed()))
    }

    #[test]
    fn only_transient_failures_are_retried() {
        for code in [429, 500, 502, 503, 504] {
            assert!(transient(&api(code, 0)).is_some(), "{code}");
        }
        for code in [400, 401, 403, 404, 409, 410, 422] {
            assert!(transient(&api(code, 0)).is_none(), "{code}");
        }
        assert!(transient(&RequestError::Timeout(Duration::from_secs(1))).is_some());
        assert!(transient(&RequestError::Unreadable("cut".into())).is_some());
        assert_eq!(transient(&api(429, 3)), Some(Some(Duration::from_secs(3))));
    }

    #[test]
    fn backoff_grows_with_jitter_within_attempts_and_budget() {
        let policy = RetryPolicy::default();
        let mut b = Budget::new(&policy, "kind");
        let e = api(500, 0);
        let mut total = Duration::ZERO;
        for attempt in 1..policy.attempts {
            let exp = (policy.base_delay * (1 << (attempt - 1))).min(policy.max_delay);
            let w = b.next_wait(attempt, &e).expect("within attempts and budget");
            assert!(w >= exp / 2 && w <= exp, "attempt {attempt}: {w:?} vs {exp:?}");
            total += w;
        }
        assert!(b.next_wait(policy.attempts, &e).is_none(), "out of attempts");
        assert!(total <= policy.budget);
        // A second request of the same kind may use what is left of the budget, then not more.
        let mut spent = total;
        while let Some(w) = b.next_wait(policy.attempts - 1, &e) {
            spent += w;
        }
        assert!(spent <= policy.budget, "{spent:?}");
        assert!(b.next_wait(1, &api(404, 0)).is_none(), "definite answers are final");
    }

    #[test]
    fn retry_after_is_honoured_and_counted() {
        let mut b = Budget::new(&RetryPolicy::default(), "kind");
        assert_eq!(b.next_wait(1, &api(429, 5)), Some(Duration::from_secs(5)));
        let mut b = Budget::new(&RetryPolicy::within(Duration::from_secs(4)), "kind");
        assert_eq!(b.next_wait(1, &api(429, 5)), None, "a wait beyond the budget is not started");
        assert_eq!(RetryPolicy::none().attempts, 1);
        let timeout = RequestError::Timeout(Duration::from_secs(1));
        assert!(Budget::new(&RetryPolicy::default(), "k").next_wait(1, &timeout).is_some());
        let first = RetryPolicy::default().first_contact();
        assert_eq!(Budget::new(&first, "k").next_wait(1, &timeout), None, "no answer at first contact: fail at once");
        assert!(Budget::new(&first, "k").next_wait(1, &api(500, 0)).is_some(), "answers are still retried");
        assert_eq!(Budget::new(&RetryPolicy::none(), "k").next_wait(1, &api(500, 0)), None);
    }
}
