//! Raw API requests with kubectl's `--request-timeout`, shared by discovery, scans and writes,
//! and [`read`]: a GET repeated under a [`RetryPolicy`] until its body arrives whole and parses.

use super::connect::Connection;
use super::retry::{self, Budget, RetryPolicy};

pub use super::request_error::RequestError;

/// Sends a request and returns the body text, within `--request-timeout`.
/// When the connection shares a [`super::connect::Limiter`], the request waits for a permit
/// first and holds it until its answer is read (not while a retry sleeps).
pub async fn text(conn: &Connection, req: http::Request<Vec<u8>>) -> Result<String, RequestError> {
    let _permit = match &conn.limiter {
        Some(l) => l.acquire().await.ok(),
        None => None,
    };
    let fut = conn.client.request_text(req);
    match conn.request_timeout {
        Some(limit) => {
            tokio::time::timeout(limit, fut).await.map_err(|_| RequestError::Timeout(limit))?.map_err(Into::into)
        }
        None => fut.await.map_err(Into::into),
    }
}

/// A GET with an explicit Accept header.
pub fn get(path: &str, accept: &str) -> http::Request<Vec<u8>> {
    http::Request::get(path)
        .header(http::header::ACCEPT, accept)
        .body(Vec::new())
        .expect("static request parts are valid")
}

/// GETs `path` and parses the body with `parse`, repeating the request under `policy` while it
/// fails transiently (resets, bodies cut short, 5xx, throttling, time-outs) and while the body
/// does not parse (a cut body can be framed correctly). Why: a read that a retry would have
/// completed must not cost the caller its evidence. The error is the last attempt's.
///
/// Event and provider reads take it as a one-line change from
/// `request::text(conn, request::get(&path, accept))` followed by a parse.
pub async fn read<T, E: std::fmt::Display>(
    conn: &Connection,
    path: &str,
    accept: &str,
    policy: &RetryPolicy,
    parse: impl Fn(&str) -> Result<T, E>,
) -> Result<T, RequestError> {
    let mut budget = Budget::new(policy, path);
    let parse = &parse;
    retry::retrying(&mut budget, path, move || async move {
        let body = text(conn, get(path, accept)).await?;
        parse(&body).map_err(|e| RequestError::Unreadable(format!("unreadable response: {e}")))
    })
    .await
    .map_err(|(e, attempts)| {
        tracing::debug!("giving up on {path}: {}", retry::gave_up(&e, attempts));
        e
    })
}

/// A JSON document's text, read under `policy`: a body that is cut short or not JSON counts as a
/// failed attempt (a dropped connection looks like that), so the caller parses only whole
/// documents without this module knowing their types.
pub(crate) async fn json_text(conn: &Connection, path: &str, policy: &RetryPolicy) -> Result<String, RequestError> {
    read(conn, path, "application/json", policy, |body| {
        serde_json::from_str::<serde::de::IgnoredAny>(body).map(|_| body.to_string())
    })
    .await
}
