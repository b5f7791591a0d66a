//! The fleet scan: paginated lists of every MR kind with bounded concurrency, decoded page by
//! page into the compact view and handed to the caller's (pure) processing as they arrive.

use super::connect::Connection;
use super::kinds::ApiKind;
use super::request::{self, RequestError};
use super::retry::{self, Budget, RetryPolicy};
use futures::StreamExt;
use json_split;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};
use upjet_core::managed::ManagedResource;

/// What to list.
#[derive(Clone, Debug, PartialEq, Eq)]
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

/// A list response as items (the JSON text of each) and its continue token.
pub(crate) type DecodedPage<'a> = (Vec<&'a str>, Option<String>);

/// Splits a list response into the JSON text of its items and its continue token.
///
/// Each item is parsed (and validated) once, by [`ManagedResource::from_json`]. Finding where the
/// items start and end needs no full parse, so [`split_list`] only tracks strings and brackets:
/// about a quarter faster than serde_json's validating `RawValue` pass it replaces (1.5 against
/// 1.2 GB/s per core in `benches/fleet.rs`), which matters because page decoding is most of a
/// fleet scan's CPU time. The envelope without its items is small and parsed with serde_json; a
/// response the splitter does not recognise takes the fully validating path, and an item it
/// delimits wrongly can only be invalid JSON, which the item decoder rejects.
/// Public for the fleet benchmark, which measures it against serde_json.
pub fn decode_page(body: &str) -> Result<DecodedPage<'_>, serde_json::Error> {
    if let Some((items, envelope)) = split_list(body)
        && let Ok(page) = serde_json::from_str::<Page>(&envelope)
    {
        return Ok((items, page.metadata.continue_));
    }
    let page: Page = serde_json::from_str(body)?;
    Ok((page.items.unwrap_or_default().into_iter().map(|r| r.get()).collect(), page.metadata.continue_))
}

/// The JSON text of each element of a list body's top-level `"items"` array, and the envelope
/// without them (`"items":[]`, small, for serde), through the one splitter
/// ([`json_split::list_items`]); `None` when the body is not a list it can vouch for. Live pages
/// and snapshot files share it.
pub(crate) fn split_list(body: &str) -> Option<(Vec<&str>, String)> {
    let list = json_split::list_items(body.as_bytes())?;
    // Items start and end on ASCII brackets or quotes, so their bounds are char boundaries.
    let items = list.items.into_iter().map(|r| body.get(r)).collect::<Option<Vec<_>>>()?;
    let (start, end) = list.array;
    Some((items, format!("{}[]{}", body.get(..start)?, body.get(end..)?)))
}

/// A fetched page: its body, the spans of its items in the body, and its continue token.
type Fetched = (String, Vec<(usize, usize)>, Option<String>);

/// How a scan retries: the policy each kind's budget starts from, and a breaker shared by the
/// scan's kinds. Why the breaker: a server that went away mid-scan would otherwise make each of
/// thousands of kinds wait out its whole budget; once [`BREAKER`] kinds have exhausted theirs,
/// the kinds not started yet are tried once each (and named as skipped if that fails).
struct ScanRetry {
    policy: RetryPolicy,
    exhausted: AtomicUsize,
}

/// Kinds that may exhaust their retry budget before the rest of the scan stops retrying.
const BREAKER: usize = 3;

impl ScanRetry {
    fn budget_for(&self, kind: &str) -> Budget {
        if self.exhausted.load(Ordering::Relaxed) >= BREAKER {
            Budget::new(&RetryPolicy::none(), kind)
        } else {
            Budget::new(&self.policy, kind)
        }
    }
}

/// The list parameters of one page: `continue` when paginating, no `limit` for the one full list
/// that replaces an expired pagination.
fn list_params(opts: &ScanOptions, token: Option<&str>, full: bool) -> kube::api::ListParams {
    let mut lp = kube::api::ListParams::default();
    if !full {
        lp = lp.limit(opts.page_size);
    }
    if let Some(sel) = &opts.label_selector {
        lp = lp.labels(sel);
    }
    if let Some(t) = token {
        lp = lp.continue_token(t);
    }
    lp
}

/// Fetches one page (one request, repeated with the same continue token under `budget`) and
/// splits it into items. A body that does not split (cut short yet framed) is retried like a
/// dropped connection. Returns the last error and the attempts made when it gives up.
async fn fetch_page(
    conn: &Connection,
    path: &str,
    lp: &kube::api::ListParams,
    budget: &mut Budget,
    out: &mut KindScan<impl Sized>,
) -> Result<Fetched, (RequestError, u32)> {
    let req = kube::core::Request::new(path)
        .list(lp)
        .map_err(|e| (RequestError::Unreadable(format!("cannot build request: {e}")), 1))?;
    let (requests, bytes) = (AtomicUsize::new(0), AtomicUsize::new(0));
    let what = req.uri().to_string();
    let (counted, read) = (&requests, &bytes);
    let result = retry::retrying(budget, &what, move || async move {
        let (requests, bytes) = (counted, read);
        requests.fetch_add(1, Ordering::Relaxed);
        let req = kube::core::Request::new(path).list(lp).expect("built above");
        let body = request::text(conn, req).await?;
        bytes.fetch_add(body.len(), Ordering::Relaxed);
        let (spans, next) = match decode_page(&body) {
            Ok((items, next)) => {
                let base = body.as_ptr() as usize;
                (items.iter().map(|i| (i.as_ptr() as usize - base, i.len())).collect::<Vec<_>>(), next)
            }
            Err(e) => return Err(RequestError::Unreadable(format!("unreadable list response: {e}"))),
        };
        Ok((body, spans, next))
    })
    .await;
    out.requests += requests.into_inner();
    out.bytes += bytes.into_inner();
    result
}

/// Lists one kind page by page, decoding each page while the next is fetched. Transient failures
/// are retried page by page (same continue token) within the kind's budget. An expired continue
/// token (410) is answered as client-go's pager does with `FullListIfExpired`: what the abandoned
/// pages produced is dropped and the kind is listed again in one request without `limit`, so
/// nothing is counted twice and nothing is missed.
async fn list_kind<T, F>(
    conn: Arc<Connection>,
    kind: ApiKind,
    opts: Arc<ScanOptions>,
    retry: Arc<ScanRetry>,
    process: Arc<F>,
) -> KindScan<T>
where
    T: Send + 'static,
    F: Fn(ManagedResource) -> Option<T> + Send + Sync + 'static,
{
    let mut out = KindScan::empty(kind);
    let path = out.kind.collection_path(opts.namespace.as_deref());
    let mut budget = retry.budget_for(&out.kind.resource_name());
    let (mut token, mut full) = (None::<String>, false);
    let mut decoding: Option<tokio::task::JoinHandle<PageResult<T>>> = None;
    loop {
        let lp = list_params(&opts, token.as_deref(), full);
        let (body, spans, next) = match fetch_page(&conn, &path, &lp, &mut budget, &mut out).await {
            Ok(page) => page,
            Err((e, _)) if e.status_code() == Some(410) && token.is_some() => {
                tracing::debug!("{}: continue token expired, listing it whole", out.kind.resource_name());
                if let Some(stale) = decoding.take() {
                    let _ = stale.await;
                }
                (out.kept, out.decoded) = (Vec::new(), 0);
                out.unreadable.clear();
                (token, full) = (None, true);
                continue;
            }
            Err((e, attempts)) => {
                if let Some(pending) = decoding.take() {
                    merge(&mut out, pending.await);
                }
                if attempts > 1 && retry::transient(&e).is_some() {
                    retry.exhausted.fetch_add(1, Ordering::Relaxed);
                }
                let whole = if full { " (listing it whole after its continue token expired)" } else { "" };
                out.error = Some(format!("{}{whole}", retry::gave_up(&e, attempts)));
                out.status = e.status_code();
                return out;
            }
        };
        // Decode this page on the blocking pool while the next one is fetched: the fetch waits on
        // the network (or the API server's serialisation), the decode on the CPU. At most one page
        // per kind is decoding at a time, so memory stays at two pages per kind in flight.
        if let Some(previous) = decoding.take() {
            merge(&mut out, previous.await);
        }
        let (process, name) = (process.clone(), out.kind.resource_name());
        decoding = Some(tokio::task::spawn_blocking(move || decode_items(&body, &spans, &*process, &name)));
        match next.filter(|c| !c.is_empty() && !full) {
            Some(next) => token = Some(next),
            None => {
                if let Some(last) = decoding.take() {
                    merge(&mut out, last.await);
                }
                return out;
            }
        }
    }
}

/// What decoding one page produced.
struct PageResult<T> {
    kept: Vec<T>,
    decoded: usize,
    unreadable: Vec<String>,
    decode_time: Duration,
    process_time: Duration,
}

/// Decodes the items of one page (given as spans of `body`) and runs `process` on each MR.
fn decode_items<T, F>(body: &str, spans: &[(usize, usize)], process: &F, kind_name: &str) -> PageResult<T>
where
    F: Fn(ManagedResource) -> Option<T>,
{
    let started = Instant::now();
    let mut r = PageResult {
        kept: Vec::new(),
        decoded: 0,
        unreadable: Vec::new(),
        decode_time: Duration::ZERO,
        process_time: Duration::ZERO,
    };
    for &(start, len) in spans {
        match ManagedResource::from_json(&body[start..start + len]) {
            Ok(mr) => {
                r.decoded += 1;
                let t0 = Instant::now();
                if let Some(t) = process(mr) {
                    r.kept.push(t);
                }
                r.process_time += t0.elapsed();
            }
            Err(e) => r.unreadable.push(format!("{kind_name} {e}")),
        }
    }
    r.decode_time = started.elapsed().saturating_sub(r.process_time);
    r
}

/// Adds a decoded page to the kind's result (a decode task that died counts as an error).
fn merge<T>(out: &mut KindScan<T>, page: Result<PageResult<T>, tokio::task::JoinError>) {
    match page {
        Ok(p) => {
            out.kept.extend(p.kept);
            out.decoded += p.decoded;
            out.unreadable.extend(p.unreadable);
            out.decode_time += p.decode_time;
            out.process_time += p.process_time;
        }
        Err(e) => out.error = Some(format!("decoding a page failed: {e}")),
    }
}

/// Lists every kind, at most `opts.concurrency` requests at once, calling `process` on each MR as
/// its page arrives and `done` as each kind finishes (for progress reporting). Retries follow the
/// default [`RetryPolicy`]; see [`scan_with`].
pub async fn scan<T, F>(
    conn: Arc<Connection>,
    kinds: Vec<ApiKind>,
    opts: ScanOptions,
    process: F,
    done: impl FnMut(&KindScan<T>),
) -> Vec<KindScan<T>>
where
    T: Send + 'static,
    F: Fn(ManagedResource) -> Option<T> + Send + Sync + 'static,
{
    scan_with(conn, kinds, opts, RetryPolicy::default(), process, done).await
}

/// [`scan`] with an explicit retry policy: each kind gets its own budget from `policy`, so one
/// troubled kind cannot starve the others, and `--retry-budget` (or a test) sets how patient the
/// scan is.
pub async fn scan_with<T, F>(
    conn: Arc<Connection>,
    kinds: Vec<ApiKind>,
    opts: ScanOptions,
    policy: RetryPolicy,
    process: F,
    mut done: impl FnMut(&KindScan<T>),
) -> Vec<KindScan<T>>
where
    T: Send + 'static,
    F: Fn(ManagedResource) -> Option<T> + Send + Sync + 'static,
{
    let opts = Arc::new(opts);
    let process = Arc::new(process);
    let retry = Arc::new(ScanRetry { policy, exhausted: AtomicUsize::new(0) });
    let concurrency = opts.concurrency.max(1);
    let mut results = Vec::with_capacity(kinds.len());
    let mut stream = futures::stream::iter(kinds)
        .map(|kind| {
            let (conn, opts, retry, process) = (conn.clone(), opts.clone(), retry.clone(), process.clone());
            let name = kind.resource_name();
            async move {
                let kind_for_error = kind.clone();
                tokio::spawn(list_kind(conn, kind, opts, retry, process)).await.unwrap_or_else(|e| KindScan {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// What the validating serde_json path makes of a body.
    fn reference(body: &str) -> Result<DecodedPage<'_>, String> {
        let page: Page = serde_json::from_str(body).map_err(|e| e.to_string())?;
        Ok((page.items.unwrap_or_default().into_iter().map(|r| r.get()).collect(), page.metadata.continue_))
    }

    #[test]
    fn splitting_agrees_with_serde_on_valid_pages() {
        let tricky = serde_json::json!({
            "metadata": {"name": "a]}\"{[", "annotations": {"x\\": "\\\"", "u": "żółw 🐢 \u{0}"}},
            "spec": {"n": [1, -2.5e3, true, false, null, [], {}, [[{}]]], "s": "\\"},
        });
        let item = serde_json::to_string(&tricky).unwrap();
        let bodies = [
            format!(r#"{{"apiVersion":"v1","kind":"List","metadata":{{"continue":"tok","resourceVersion":"5"}},"items":[{item},{item}]}}"#),
            format!(r#"{{"items":[{item}],"metadata":{{"continue":"late"}}}}"#),
            format!("{{ \n\t\"metadata\" : {{ }} , \"items\" : [ {item} , 7 , \"s\" , null ] \r\n}}\n"),
            r#"{"kind":"List","items":[],"metadata":{}}"#.to_string(),
            r#"{"kind":"List","metadata":{"continue":""}}"#.to_string(),
            r#"{"items":null}"#.to_string(),
            r#"{}"#.to_string(),
            serde_json::to_string(&serde_json::json!({"items": [tricky, {"deep": [[[[[[{"a": "]"}]]]]]]}], "metadata": {"continue": "x"}})).unwrap(),
        ];
        for body in &bodies {
            assert_eq!(decode_page(body).map_err(|e| e.to_string()), reference(body), "{body}");
        }
        let (items, _) = split_list(&bodies[0]).unwrap();
        assert_eq!(items, vec![item.as_str(), item.as_str()]);
    }

    #[test]
    fn malformed_pages_never_panic_and_fail_like_serde() {
        let good = r#"{"metadata":{"continue":"t"},"items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b\"]"}}]}"#;
        // Every truncation of a valid page, and a few corruptions: never a panic; whenever the
        // splitter cannot be sure of the shape, the result is exactly serde_json's.
        for end in 0..good.len() {
            let body = &good[..end];
            assert!(decode_page(body).is_err(), "{body}");
        }
        for body in [
            r#"{"items":[{"a":1}}"#,
            r#"{"items":[{"a":1},]}"#,
            r#"{"items":[{"a":1}] "x":1}"#,
            r#"{"items":[1],"items":[2]}"#,
            r#"{"items":[1]} trailing"#,
            r#"["items"]"#,
            r#"{"items":["\"#,
            r#"{"items":[{"a":"\u"}"#,
            "",
            "{",
            "\"",
        ] {
            let got = decode_page(body).map_err(|e| e.to_string());
            assert!(got.is_err(), "{body} → {got:?}");
        }
        // A broken item inside a well-formed envelope is delimited and left for the item decoder
        // to reject, so one bad object does not hide its whole page.
        let (items, next) = decode_page(r#"{"metadata":{"continue":"c"},"items":[{"a":tru},{"b":2}]}"#).unwrap();
        assert_eq!((items, next.as_deref()), (vec![r#"{"a":tru}"#, r#"{"b":2}"#], Some("c")));
    }
}
