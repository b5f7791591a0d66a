//! Raw API requests with kubectl's `--request-timeout`, shared by discovery, scans and writes.

use super::connect::Connection;
use std::time::Duration;

/// A request that failed: the API's answer, a transport failure, or our own time limit.
#[derive(Debug, thiserror::Error)]
pub enum RequestError {
    /// kube's error (API Status, transport, TLS).
    #[error(transparent)]
    Kube(#[from] kube::Error),
    /// `--request-timeout` elapsed.
    #[error("no answer within {0:?} (--request-timeout)")]
    Timeout(Duration),
}

impl RequestError {
    /// The HTTP status code of an API error, if this is one.
    pub fn status_code(&self) -> Option<u16> {
        match self {
            RequestError::Kube(kube::Error::Api(s)) => Some(s.code),
            _ => None,
        }
    }

    /// A one-line reason for reports.
    pub fn reason(&self) -> String {
        match self {
            RequestError::Kube(kube::Error::Api(s)) => {
                let what = match s.code {
                    403 => "forbidden",
                    404 => "not found",
                    410 => "gone",
                    429 => "throttled",
                    _ => "failed",
                };
                format!("{what} ({}): {}", s.code, s.message)
            }
            RequestError::Kube(e) => super::connect::error_text(e),
            RequestError::Timeout(d) => format!("timed out after {d:?}"),
        }
    }

    /// Converts into the shell's error for a request the command cannot do without.
    pub fn explain(&self, conn: &Connection, what: &str) -> crate::error::Error {
        match self {
            RequestError::Kube(e) => super::connect::explain(e, &conn.server, what),
            RequestError::Timeout(d) => crate::error::Error::cluster(format!(
                "the API server at {} did not answer within {d:?} while {what} (--request-timeout)",
                conn.server
            )),
        }
    }
}

/// Sends a request and returns the body text, within `--request-timeout`.
pub async fn text(conn: &Connection, req: http::Request<Vec<u8>>) -> Result<String, RequestError> {
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
