//! Reading provider logs — live pod logs (current and previous container) and files — into the
//! pure log scanner, streaming with constant memory.

use super::connect::Connection;
use super::kinds::segment;
use super::providers::ProviderPod;
use super::request::RequestError;
use super::retry::{self, Budget, RetryPolicy};
use crate::evidence::correlate::SourceSummary;
use crate::evidence::logs::{Evidence, LogScan, Retention, scan};
use futures::AsyncReadExt;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// How much of each container's log to read.
#[derive(Clone, Copy, Debug)]
pub struct LogLimits {
    /// Only lines newer than this many seconds (`--since`).
    pub since_seconds: Option<i64>,
    /// At most this many bytes per container log (newest bytes kept by the API server).
    pub limit_bytes: Option<i64>,
}

/// A `Read` fed with chunks from an async task, so the synchronous scanner can consume a
/// streaming HTTP body on a blocking thread without buffering it whole.
struct ChunkReader {
    rx: tokio::sync::mpsc::Receiver<Vec<u8>>,
    chunk: Vec<u8>,
    pos: usize,
}

impl Read for ChunkReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.pos >= self.chunk.len() {
            match self.rx.blocking_recv() {
                Some(c) => {
                    self.chunk = c;
                    self.pos = 0;
                }
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len() - self.pos);
        buf[..n].copy_from_slice(&self.chunk[self.pos..self.pos + n]);
        self.pos += n;
        Ok(n)
    }
}

/// Scans one source on a blocking thread; gzip is detected by its magic bytes.
fn scan_reader(reader: impl Read, name: &str, retention: Retention) -> std::io::Result<LogScan> {
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

/// Reads a log file (`-` is stdin; gzip accepted).
pub async fn read_file(
    path: &Path,
    retention: Retention,
) -> Result<(Vec<Evidence>, SourceSummary), crate::error::Error> {
    let path = path.to_path_buf();
    let name = path.display().to_string();
    tokio::task::spawn_blocking(move || {
        let result = if path.as_os_str() == "-" {
            scan_reader(std::io::stdin().lock(), "stdin", retention)
        } else {
            std::fs::File::open(&path).and_then(|f| scan_reader(f, &name, retention))
        };
        let mut s = result.map_err(|e| crate::error::Error::usage(format!("cannot read log file {name}: {e}")))?;
        let summary = SourceSummary::of(&name, None, &s);
        Ok((s.take_evidence(), summary))
    })
    .await
    .map_err(|e| crate::error::Error::failed(format!("log reader stopped: {e}")))?
}

/// Reads one container log of a provider pod (`previous` for the container before the last
/// restart), with the default retry policy.
pub async fn read_pod_log(
    conn: &Connection,
    pod: &ProviderPod,
    previous: bool,
    limits: LogLimits,
    retention: Retention,
) -> Result<(Vec<Evidence>, SourceSummary), RequestError> {
    read_pod_log_with(conn, pod, previous, limits, retention, &RetryPolicy::default()).await
}

/// [`read_pod_log`] under `policy` (see [`stream_pod_log`]): what a broken attempt had scanned is
/// dropped, so the evidence is never counted twice nor silently truncated.
pub async fn read_pod_log_with(
    conn: &Connection,
    pod: &ProviderPod,
    previous: bool,
    limits: LogLimits,
    retention: Retention,
    policy: &RetryPolicy,
) -> Result<(Vec<Evidence>, SourceSummary), RequestError> {
    let name = format!("{}/{}/{}{}", pod.namespace, pod.name, pod.container, if previous { " (previous)" } else { "" });
    let scan_name = name.clone();
    let consume = move |r: &mut dyn Read| scan_reader(r, &scan_name, retention.clone());
    let scanned = stream_pod_log(conn, pod, previous, limits, policy, consume).await?;
    let mut s = scanned.map_err(|e| RequestError::Kube(kube::Error::ReadEvents(e)))?;
    let summary = SourceSummary::of(&name, Some(pod.provider.clone()), &s);
    Ok((s.take_evidence(), summary))
}

/// Streams one container log of a provider pod into `consume`, which runs on a blocking thread
/// and reads the body as it arrives (constant memory). A stream that fails (refused, throttled,
/// reset, or cut off mid-body) is requested again from the start under `policy`, into a fresh
/// call of `consume`; the result of a broken attempt is dropped. The outer error is the
/// transport's; the inner one is `consume`'s own (a corrupt gzip log), which is not retried.
///
/// Generic over the consumer so that this module needs no log parser: the scanning wrapper
/// ([`read_pod_log_with`]) can move to the evidence layer's caller.
pub async fn stream_pod_log<T, F>(
    conn: &Connection,
    pod: &ProviderPod,
    previous: bool,
    limits: LogLimits,
    policy: &RetryPolicy,
    consume: F,
) -> Result<std::io::Result<T>, RequestError>
where
    T: Send + 'static,
    F: Fn(&mut dyn Read) -> std::io::Result<T> + Clone + Send + 'static,
{
    let mut path = format!(
        "/api/v1/namespaces/{}/pods/{}/log?container={}",
        segment(&pod.namespace),
        segment(&pod.name),
        segment(&pod.container)
    );
    if previous {
        path.push_str("&previous=true");
    }
    if let Some(s) = limits.since_seconds {
        path.push_str(&format!("&sinceSeconds={s}"));
    }
    if let Some(b) = limits.limit_bytes {
        path.push_str(&format!("&limitBytes={b}"));
    }
    let mut budget = Budget::new(policy, &path);
    let (path_ref, consume_ref) = (&path, &consume);
    retry::retrying(&mut budget, &path, move || async move { stream_once(conn, path_ref, consume_ref.clone()).await })
        .await
        .map_err(|(e, _)| e)
}

/// One attempt at a log: the outer error is the transport's (worth another attempt), the inner
/// one the consumer's (final).
async fn stream_once<T, F>(conn: &Connection, path: &str, consume: F) -> Result<std::io::Result<T>, RequestError>
where
    T: Send + 'static,
    F: FnOnce(&mut dyn Read) -> std::io::Result<T> + Send + 'static,
{
    let req = http::Request::get(path).body(Vec::new()).expect("valid request");
    let fut = conn.client.request_stream(req);
    let mut body = match conn.request_timeout {
        Some(limit) => tokio::time::timeout(limit, fut).await.map_err(|_| RequestError::Timeout(limit))??,
        None => fut.await?,
    };
    let (tx, rx) = tokio::sync::mpsc::channel::<Vec<u8>>(8);
    let consumer = tokio::task::spawn_blocking(move || consume(&mut ChunkReader { rx, chunk: Vec::new(), pos: 0 }));
    let mut buf = vec![0u8; 64 * 1024];
    let read = loop {
        match body.read(&mut buf).await {
            Ok(0) => break Ok(()),
            Ok(n) if tx.send(buf[..n].to_vec()).await.is_ok() => {}
            Ok(_) => break Ok(()),
            Err(e) => break Err(RequestError::Kube(kube::Error::ReadEvents(e))),
        }
    };
    drop(tx);
    let consumed = consumer.await.map_err(std::io::Error::other).and_then(|r| r);
    read.map(|()| consumed)
}
