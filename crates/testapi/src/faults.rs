//! Injecting faults: the [`Fault`]s a test can add, which requests a fault picks, and the answer,
//! reset or cut body it gives.

use crate::Inner;
use crate::reqinfo::ReqInfo;
use crate::resp::Resp;
use crate::route::{Route, verb};
use crate::watch::RespBody;
use bytes::Bytes;
use http_body_util::Full;
use hyper::Method;
use hyper::Response;

/// A fault to inject into matching requests, so tests can exercise a client's
/// error handling (retries, backoff, pagination restarts, connection loss).
///
/// `path_contains` is matched against the request's path and query string
/// (e.g. `"/pods"`, `"limit=500"`, `"envgroups"`); an empty string matches every
/// request. `times: None` means "forever"; `Some(n)` fires on the next `n`
/// matching requests only. Faults are checked in the order they were added.
#[derive(Debug, Clone)]
pub enum Fault {
    /// Answer with a Kubernetes `Status` body of this `code` and `reason`
    /// (e.g. 429 `TooManyRequests`, 403 `Forbidden`, 500 `InternalError`,
    /// 503 `ServiceUnavailable`). 429/503 carry a `Retry-After` header
    /// (`retry_after_secs`, default 1) and `details.retryAfterSeconds`.
    Status {
        /// Only requests with this method match (`None`: any method).
        method: Option<Method>,
        /// Substring of path+query that selects requests.
        path_contains: String,
        /// HTTP status code to answer.
        code: u16,
        /// Kubernetes `reason` in the Status body.
        reason: String,
        /// How many matching requests fail (`None`: all of them).
        times: Option<u32>,
        /// `Retry-After` seconds (used for 429 and 503, or any code when set).
        retry_after_secs: Option<u32>,
    },
    /// Answer as kube-apiserver answers a validating admission webhook's denial
    /// (`ToStatusErr`): a `Status` of the webhook's `code` whose `reason` is the webhook's
    /// reason and whose message is `admission webhook "WEBHOOK" denied the request: REASON`
    /// (Crossplane's Usage webhook refuses a DELETE so, with 409).
    Deny {
        /// Only requests with this method match (`None`: any method).
        method: Option<Method>,
        /// Substring of path+query that selects requests.
        path_contains: String,
        /// The webhook's name (`nousages.protection.crossplane.io`).
        webhook: String,
        /// HTTP status code the webhook answered.
        code: u16,
        /// The webhook's reason.
        reason: String,
        /// How many matching requests are denied (`None`: all of them).
        times: Option<u32>,
    },
    /// Sleep `millis` before handling every matching request (never used up).
    Delay {
        /// Substring of path+query that selects requests.
        path_contains: String,
        /// Delay in milliseconds.
        millis: u64,
    },
    /// Answer 410 Gone, reason `Expired`, to matching list requests that present
    /// a `continue` token (as when the token's snapshot was compacted away).
    ExpireContinue {
        /// Substring of path+query that selects requests.
        path_contains: String,
        /// How many matching requests fail (`None`: all of them).
        times: Option<u32>,
    },
    /// Close the connection without answering.
    ResetConnection {
        /// Substring of path+query that selects requests.
        path_contains: String,
        /// How many matching requests fail (`None`: all of them).
        times: Option<u32>,
    },
    /// Answer normally, but cut the body at a pseudo-random point (drawn from the fault's seed,
    /// see [`Fault::Chance`]; `0` without one), as a proxy or a dying connection does.
    /// `framed: false` keeps the full `Content-Length` and closes the connection after the
    /// prefix (the client sees "end of file before message length reached"); `framed: true`
    /// sends the prefix as a complete response (the client sees truncated JSON).
    CutBody {
        /// Substring of path+query that selects requests.
        path_contains: String,
        /// How many matching requests are cut (`None`: all of them).
        times: Option<u32>,
        /// Whether the cut body is framed as a complete response.
        framed: bool,
    },
    /// Fires `fault` on about `percent` % of the requests it matches, chosen by a pseudo-random
    /// sequence from `seed`, so a test can replay a random fault schedule exactly (with one
    /// client request at a time) or at least statistically. `fault`'s own `times` counts the
    /// requests it fired on. `Delay` inside `Chance` delays the chosen requests only.
    Chance {
        /// Percentage (0–100) of matching requests that get the fault.
        percent: u8,
        /// Seed of the pseudo-random choices (and of `CutBody`'s cut points).
        seed: u64,
        /// The fault to inject.
        fault: Box<Fault>,
    },
}

#[derive(Debug)]
pub(crate) struct FaultSlot {
    pub fault: Fault,
    pub remaining: Option<u32>,
    /// State of the slot's pseudo-random sequence (`Chance` draws, `CutBody` cut points).
    pub rng: u64,
}

impl FaultSlot {
    /// The next pseudo-random number of this slot (splitmix64).
    pub(crate) fn next_random(&mut self) -> u64 {
        self.rng = self.rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.rng;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

pub(crate) enum FaultAction {
    Respond(Resp),
    Reset,
    /// Answer normally, then cut the body (see [`Fault::CutBody`]).
    Cut {
        draw: u64,
        framed: bool,
    },
}

/// Status message for an injected fault, shaped like the apiserver's.
fn fault_status(info: &ReqInfo, r: &Route, code: u16, reason: &str, retry: Option<u32>) -> Resp {
    let retry = match (code, retry) {
        (429 | 503, r) => Some(r.unwrap_or(1)),
        (_, r) => r,
    };
    let (name, group, resource, msg) = match r {
        Route::Resource { group, plural, ns, name, sub, .. } => {
            let res = match sub {
                Some(s) => format!("{plural}/{s}"),
                None => plural.clone(),
            };
            let qualified = if group.is_empty() { plural.clone() } else { format!("{plural}.{group}") };
            let msg = match code {
                403 => {
                    let scope = match ns {
                        Some(n) => format!("in the namespace {}", serde_json::json!(n)),
                        None => "at the cluster scope".into(),
                    };
                    let named = name.as_ref().map(|n| format!(" {}", serde_json::json!(n))).unwrap_or_default();
                    format!(
                        "{qualified}{named} is forbidden: User \"test\" cannot {} resource \"{res}\" in API group \"{group}\" {scope}",
                        verb(info, name.is_some())
                    )
                }
                404 => format!("{qualified} {} not found", serde_json::json!(name.clone().unwrap_or_default())),
                409 => format!(
                    "Operation cannot be fulfilled on {qualified} {}: the object has been modified; please apply your changes to the latest version and try again",
                    serde_json::json!(name.clone().unwrap_or_default())
                ),
                _ => String::new(),
            };
            (name.clone().unwrap_or_default(), group.clone(), plural.clone(), msg)
        }
        _ => {
            let msg = if code == 403 {
                format!(
                    "forbidden: User \"test\" cannot {} path \"{}\"",
                    info.method.as_str().to_lowercase(),
                    info.path
                )
            } else {
                String::new()
            };
            (String::new(), String::new(), String::new(), msg)
        }
    };
    let msg = if !msg.is_empty() {
        msg
    } else {
        match code {
            429 => "Too many requests, please try again later.".to_string(),
            503 => "the server is currently unable to handle the request".to_string(),
            500 => "Internal error occurred: injected fault".to_string(),
            504 => "the server was unable to return a response in the time allotted, but may still be processing the request".to_string(),
            400 => "the server rejected our request for an unknown reason".to_string(),
            _ => format!("{reason} (injected fault)"),
        }
    };
    let extra = retry.map(|s| format!("\"retryAfterSeconds\":{s}"));
    let mut resp = Resp::status(code, reason, &msg, Some((&name, &group, &resource)), extra);
    if let Some(s) = retry {
        resp = resp.with_header("retry-after", s.to_string());
    }
    resp
}

/// Whether a fault's selector (path, method, continue token) picks this request.
fn selects(f: &Fault, info: &ReqInfo, has_continue: bool) -> bool {
    match f {
        Fault::Delay { path_contains, .. }
        | Fault::ResetConnection { path_contains, .. }
        | Fault::CutBody { path_contains, .. } => info.path_query.contains(path_contains.as_str()),
        Fault::Status { method, path_contains, .. } | Fault::Deny { method, path_contains, .. } => {
            method.as_ref().is_none_or(|m| *m == info.method) && info.path_query.contains(path_contains.as_str())
        }
        Fault::ExpireContinue { path_contains, .. } => has_continue && info.path_query.contains(path_contains.as_str()),
        Fault::Chance { fault, .. } => selects(fault, info, has_continue),
    }
}

/// The fault itself, inside a `Chance` or not.
fn effective(f: &Fault) -> &Fault {
    match f {
        Fault::Chance { fault, .. } => effective(fault),
        f => f,
    }
}

const EXPIRED: &str = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

/// The faults this request meets: the sum of their delays and the first other action.
pub(crate) fn check_faults(inner: &Inner, info: &ReqInfo, r: &Route) -> (u64, Option<FaultAction>) {
    let mut faults = inner.faults.lock().expect("faults lock");
    let mut delay = 0;
    let mut action = None;
    let has_continue = info.q("continue").is_some_and(|c| !c.is_empty());
    let mut i = 0;
    while i < faults.len() {
        let slot = &mut faults[i];
        let is_delay = matches!(effective(&slot.fault), Fault::Delay { .. });
        if !selects(&slot.fault, info, has_continue) || (!is_delay && action.is_some()) {
            i += 1;
            continue;
        }
        if let Fault::Chance { percent, .. } = slot.fault
            && slot.next_random() % 100 >= u64::from(percent)
        {
            i += 1;
            continue;
        }
        let draw = slot.next_random();
        match effective(&slot.fault) {
            Fault::Delay { millis, .. } => {
                delay += *millis;
                i += 1;
                continue;
            }
            Fault::Status { code, reason, retry_after_secs, .. } => {
                action = Some(FaultAction::Respond(fault_status(info, r, *code, reason, *retry_after_secs)));
            }
            Fault::Deny { webhook, code, reason, .. } => {
                let message = format!("admission webhook {webhook:?} denied the request: {reason}");
                action = Some(FaultAction::Respond(Resp::status(*code, reason, &message, None, None)));
            }
            Fault::ExpireContinue { .. } => {
                action = Some(FaultAction::Respond(Resp::status(410, "Expired", EXPIRED, None, None)));
            }
            Fault::CutBody { framed, .. } => action = Some(FaultAction::Cut { draw, framed: *framed }),
            _ => action = Some(FaultAction::Reset),
        }
        if let Some(n) = slot.remaining.as_mut() {
            *n = n.saturating_sub(1);
            if *n == 0 {
                faults.remove(i);
                continue;
            }
        }
        i += 1;
    }
    (delay, action)
}

/// Sends `body` cut at a point chosen by `draw`: as a complete shorter response (`framed`), or
/// with the full `Content-Length` and the connection closed after the prefix.
pub(crate) fn cut_body(b: hyper::http::response::Builder, body: Bytes, draw: u64, framed: bool) -> Response<RespBody> {
    let at = if body.is_empty() { 0 } else { (draw % body.len() as u64) as usize };
    let prefix = body.slice(..at);
    if framed {
        return b.body(http_body_util::Either::Left(Full::new(prefix))).expect("response");
    }
    let (tx, rx) = tokio::sync::mpsc::channel(1);
    if !prefix.is_empty() {
        let _ = tx.try_send(prefix);
    }
    drop(tx);
    b.header("content-length", body.len().to_string())
        .body(http_body_util::Either::Right(crate::watch::ChanBody(rx)))
        .expect("response")
}
