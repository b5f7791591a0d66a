//! Streaming a provider pod's container log (current or previous container) to a synchronous
//! consumer on a blocking thread, with constant memory. What the consumer does with the lines
//! (the log scanner) is the caller's business.

use super::connect::Connection;
use super::kinds::segment;
use super::request::RequestError;
use super::retry::{self, Budget, RetryPolicy};
use futures::AsyncReadExt;
use std::io::Read;

/// How much of each container's log to read (the default: all the API server kept).
#[derive(Clone, Copy, Debug, Default)]
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

/// Which container log to read.
#[derive(Clone, Copy, Debug)]
pub struct ContainerLog<'a> {
    /// The pod's namespace.
    pub namespace: &'a str,
    /// The pod.
    pub pod: &'a str,
    /// The container.
    pub container: &'a str,
    /// The container before the last restart, instead of the current one.
    pub previous: bool,
}

/// Streams one container log of a provider pod into `consume`, which runs on a blocking thread
/// and reads the body as it arrives (constant memory). A stream that fails (refused, throttled,
/// reset, or cut off mid-body) is requested again from the start under `policy`, into a fresh
/// call of `consume`; the result of a broken attempt is dropped, so nothing is counted twice
/// nor silently truncated. An error of `consume` itself (a corrupt gzip log) is not retried.
pub async fn read_pod_log<T, F>(
    conn: &Connection,
    log: ContainerLog<'_>,
    limits: LogLimits,
    policy: &RetryPolicy,
    consume: F,
) -> Result<T, RequestError>
where
    T: Send + 'static,
    F: Fn(&mut dyn Read) -> std::io::Result<T> + Clone + Send + 'static,
{
    let mut path = format!(
        "/api/v1/namespaces/{}/pods/{}/log?container={}",
        segment(log.namespace),
        segment(log.pod),
        segment(log.container)
    );
    if log.previous {
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
    let consumed =
        retry::retrying(
            &mut budget,
            &path,
            move || async move { stream_once(conn, path_ref, consume_ref.clone()).await },
        )
        .await
        .map_err(|(e, _)| e)?;
    consumed.map_err(|e| RequestError::Kube(kube::Error::ReadEvents(e)))
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
