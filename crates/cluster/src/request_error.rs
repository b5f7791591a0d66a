//! How a request failed, told apart the way callers act on it: the API's answer (by status), a
//! transport failure, our own time limit, or a body cut short. The retry policy classifies these,
//! and every request returns them, so the type sits below both.

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
    /// A complete answer whose body does not parse: cut short by a proxy or a dropped connection
    /// that still framed it. Kept apart from a definite answer because repeating it can help.
    #[error("{0}")]
    Unreadable(String),
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
                let message = if s.code == 403 { super::connect::with_advice(&s.message) } else { s.message.clone() };
                format!("{what} ({}): {message}", s.code)
            }
            RequestError::Kube(e) => super::connect::error_text(e),
            RequestError::Timeout(d) => format!("timed out after {d:?}"),
            RequestError::Unreadable(why) => why.clone(),
        }
    }

    /// Converts into the shell's error for a request the command cannot do without.
    pub fn explain(&self, conn: &Connection, what: &str) -> upjet_core::error::Error {
        match self {
            RequestError::Kube(e) => super::connect::explain(e, &conn.server, what),
            RequestError::Timeout(d) => upjet_core::error::Error::cluster(format!(
                "the API server at {} did not answer within {d:?} while {what} (--request-timeout)",
                conn.server
            )),
            RequestError::Unreadable(why) => upjet_core::error::Error::cluster(format!(
                "the API server at {} sent an unreadable answer while {what}: {why}",
                conn.server
            )),
        }
    }
}
