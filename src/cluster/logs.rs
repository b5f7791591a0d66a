//! Streaming a provider pod's container log (current or previous container) to a synchronous
//! consumer on a blocking thread, with constant memory. What the consumer does with the lines
//! (the log scanner) is the caller's business.

use super::connect::Connection;
use super::kinds::segment;
use super::request::RequestError;
use futures::AsyncReadExt;
use std::io::Read;

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
pub struct ChunkReader {
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
/// and reads the log through a [`ChunkReader`] while it arrives.
pub async fn read_pod_log<T: Send + 'static>(
    conn: &Connection,
    log: ContainerLog<'_>,
    limits: LogLimits,
    consume: impl FnOnce(ChunkReader) -> std::io::Result<T> + Send + 'static,
) -> Result<T, RequestError> {
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
    let req = http::Request::get(path).body(Vec::new()).expect("valid request");
    let fut = conn.client.request_stream(req);
    let mut body = match conn.request_timeout {
        Some(limit) => tokio::time::timeout(limit, fut).await.map_err(|_| RequestError::Timeout(limit))??,
        None => fut.await?,
    };
    let (tx, rx) = tokio::sync::mpsc::channel::<Vec<u8>>(8);
    let consumer = tokio::task::spawn_blocking(move || consume(ChunkReader { rx, chunk: Vec::new(), pos: 0 }));
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = body.read(&mut buf).await.map_err(|e| RequestError::Kube(kube::Error::ReadEvents(e)))?;
        if n == 0 || tx.send(buf[..n].to_vec()).await.is_err() {
            break;
        }
    }
    drop(tx);
    consumer
        .await
        .map_err(|e| RequestError::Kube(kube::Error::ReadEvents(std::io::Error::other(e))))?
        .map_err(|e| RequestError::Kube(kube::Error::ReadEvents(e)))
}
