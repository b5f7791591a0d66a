//! The fleet scan: paginated lists of every MR kind with bounded concurrency, decoded page by
//! page into the compact view and handed to the caller's (pure) processing as they arrive.

use super::connect::Connection;
use super::kinds::ApiKind;
use super::request::{self, RequestError};
use crate::domain::managed::ManagedResource;
use futures::StreamExt;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What to list.
#[derive(Clone, Debug)]
pub struct ScanOptions {
    /// Only this namespace for namespaced kinds (`None` = all namespaces).
    pub namespace: Option<String>,
    /// Label selector passed to the API server.
    pub label_selector: Option<String>,
    /// Items per page (kubectl uses 500).
    pub page_size: u32,
    /// List requests in flight at once.
    pub concurrency: usize,
}

/// The result of listing one kind.
#[derive(Debug)]
pub struct KindScan<T> {
    /// The kind.
    pub kind: ApiKind,
    /// What processing kept.
    pub kept: Vec<T>,
    /// Objects decoded.
    pub decoded: usize,
    /// Objects that could not be decoded, by name where known.
    pub unreadable: Vec<String>,
    /// Why the kind could not be (fully) listed.
    pub error: Option<String>,
    /// The HTTP status of the failure, when the API server answered one (404: the kind is gone).
    pub status: Option<u16>,
    /// Requests made.
    pub requests: usize,
    /// Response bytes read.
    pub bytes: usize,
    /// Time spent decoding pages into the compact view (for `UPJET_TIMINGS`).
    pub decode_time: Duration,
    /// Time spent in the caller's processing (for `UPJET_TIMINGS`).
    pub process_time: Duration,
}

impl<T> KindScan<T> {
    fn empty(kind: ApiKind) -> Self {
        KindScan {
            kind,
            kept: Vec::new(),
            decoded: 0,
            unreadable: Vec::new(),
            error: None,
            status: None,
            requests: 0,
            bytes: 0,
            decode_time: Duration::ZERO,
            process_time: Duration::ZERO,
        }
    }
}

#[derive(Deserialize)]
struct Page<'a> {
    #[serde(borrow, default)]
    items: Option<Vec<&'a RawValue>>,
    #[serde(default)]
    metadata: PageMeta,
}

#[derive(Deserialize, Default)]
struct PageMeta {
    #[serde(rename = "continue", default)]
    continue_: Option<String>,
}

const MAX_RESTARTS: usize = 3;
/// Attempts per page for failures that a retry can cure (kube itself retries 429/503/504).
const PAGE_ATTEMPTS: u32 = 3;

/// Whether a failed list request is worth repeating: server errors, lost connections, time-outs.
fn transient(e: &RequestError) -> bool {
    match e {
        RequestError::Timeout(_) => true,
        RequestError::Kube(kube::Error::Api(s)) => matches!(s.code, 500 | 502 | 503 | 504 | 429),
        RequestError::Kube(kube::Error::HyperError(_) | kube::Error::Service(_)) => true,
        RequestError::Kube(_) => false,
    }
}

/// Sends one list request, repeating it (with a short backoff) while the failure is transient.
async fn with_retries(
    conn: &Connection,
    make: impl Fn() -> http::Request<Vec<u8>>,
    requests: &mut usize,
) -> Result<String, RequestError> {
    let mut attempt = 1;
    loop {
        let req = make();
        let uri = req.uri().to_string();
        match request::text(conn, req).await {
            Err(e) if attempt < PAGE_ATTEMPTS && transient(&e) => {
                tracing::debug!("retrying {uri} after: {}", e.reason());
                tokio::time::sleep(std::time::Duration::from_millis(200 * u64::from(attempt))).await;
                attempt += 1;
                *requests += 1;
            }
            other => return other,
        }
    }
}

async fn list_kind<T, F>(conn: Arc<Connection>, kind: ApiKind, opts: Arc<ScanOptions>, process: Arc<F>) -> KindScan<T>
where
    F: Fn(ManagedResource) -> Option<T> + Send + Sync,
{
    let mut out = KindScan::empty(kind);
    let path = out.kind.collection_path(opts.namespace.as_deref());
    let mut restarts = 0;
    let mut token: Option<String> = None;
    loop {
        let mut lp = kube::api::ListParams::default().limit(opts.page_size);
        if let Some(sel) = &opts.label_selector {
            lp = lp.labels(sel);
        }
        if let Some(t) = &token {
            lp = lp.continue_token(t);
        }
        if let Err(e) = kube::core::Request::new(&path).list(&lp) {
            out.error = Some(format!("cannot build request: {e}"));
            return out;
        }
        let make = || kube::core::Request::new(&path).list(&lp).expect("checked above");
        out.requests += 1;
        let body = match with_retries(&conn, make, &mut out.requests).await {
            Ok(b) => b,
            // An expired continue token: the snapshot is gone; list this kind again from the start.
            Err(e) if e.status_code() == Some(410) && token.is_some() && restarts < MAX_RESTARTS => {
                restarts += 1;
                token = None;
                out.kept.clear();
                out.decoded = 0;
                out.unreadable.clear();
                continue;
            }
            Err(e) => {
                out.error = Some(e.reason());
                out.status = e.status_code();
                return out;
            }
        };
        out.bytes += body.len();
        let started = Instant::now();
        let mut processing = Duration::ZERO;
        let page: Page = match serde_json::from_str(&body) {
            Ok(p) => p,
            Err(e) => {
                out.error = Some(format!("unreadable list response: {e}"));
                return out;
            }
        };
        for raw in page.items.unwrap_or_default() {
            match ManagedResource::from_json(raw.get()) {
                Ok(mr) => {
                    out.decoded += 1;
                    let t0 = Instant::now();
                    if let Some(t) = process(mr) {
                        out.kept.push(t);
                    }
                    processing += t0.elapsed();
                }
                Err(e) => out.unreadable.push(format!("{} {}", out.kind.resource_name(), e)),
            }
        }
        out.process_time += processing;
        out.decode_time += started.elapsed().saturating_sub(processing);
        match page.metadata.continue_.filter(|c| !c.is_empty()) {
            Some(next) => token = Some(next),
            None => return out,
        }
    }
}

/// Lists every kind, at most `opts.concurrency` requests at once, calling `process` on each MR as
/// its page arrives and `done` as each kind finishes (for progress reporting).
pub async fn scan<T, F>(
    conn: Arc<Connection>,
    kinds: Vec<ApiKind>,
    opts: ScanOptions,
    process: F,
    mut done: impl FnMut(&KindScan<T>),
) -> Vec<KindScan<T>>
where
    T: Send + 'static,
    F: Fn(ManagedResource) -> Option<T> + Send + Sync + 'static,
{
    let opts = Arc::new(opts);
    let process = Arc::new(process);
    let concurrency = opts.concurrency.max(1);
    let mut results = Vec::with_capacity(kinds.len());
    let mut stream = futures::stream::iter(kinds)
        .map(|kind| {
            let (conn, opts, process) = (conn.clone(), opts.clone(), process.clone());
            let name = kind.resource_name();
            async move {
                let kind_for_error = kind.clone();
                tokio::spawn(list_kind(conn, kind, opts, process)).await.unwrap_or_else(|e| KindScan {
                    error: Some(format!("listing {name} stopped: {e}")),
                    ..KindScan::empty(kind_for_error)
                })
            }
        })
        .buffer_unordered(concurrency);
    while let Some(r) = stream.next().await {
        done(&r);
        results.push(r);
    }
    results
}
