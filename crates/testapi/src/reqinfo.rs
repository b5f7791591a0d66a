//! What a request is about, parsed once from its URL and headers: the server routes on it, and
//! the watch and exec handlers read its query.

use hyper::{Method, Request};

/// What a request is about, parsed from its URL and headers.
pub(crate) struct ReqInfo {
    pub method: Method,
    pub path: String,
    pub path_query: String,
    pub query: Vec<(String, String)>,
    pub accept: String,
    pub ctype: String,
    /// The `Authorization` header, for the RBAC check.
    pub authorization: String,
    /// The `User-Agent` header: a write without `?fieldManager=` is counted under its prefix.
    pub user_agent: String,
}

impl ReqInfo {
    /// Parses a request's method, decoded path and query, and the headers the server reads.
    pub(crate) fn of<B>(req: &Request<B>) -> ReqInfo {
        let uri = req.uri().clone();
        let path_query = uri.path_and_query().map(|p| p.as_str().to_string()).unwrap_or_else(|| uri.path().to_string());
        let header = |h: hyper::header::HeaderName| {
            req.headers().get(h).and_then(|v| v.to_str().ok()).unwrap_or_default().to_string()
        };
        ReqInfo {
            method: req.method().clone(),
            path: pct_decode(uri.path()),
            query: uri
                .query()
                .unwrap_or_default()
                .split('&')
                .filter(|p| !p.is_empty())
                .map(|p| {
                    let (k, v) = p.split_once('=').unwrap_or((p, ""));
                    (pct_decode(k), pct_decode(v))
                })
                .collect(),
            accept: header(hyper::header::ACCEPT),
            ctype: header(hyper::header::CONTENT_TYPE),
            authorization: header(hyper::header::AUTHORIZATION),
            user_agent: header(hyper::header::USER_AGENT),
            path_query,
        }
    }

    pub(crate) fn q(&self, k: &str) -> Option<&str> {
        self.query.iter().find(|(a, _)| a == k).map(|(_, v)| v.as_str())
    }

    pub(crate) fn flag(&self, k: &str) -> bool {
        matches!(self.q(k), Some("true" | "1" | "True"))
    }

    pub(crate) fn dry_run(&self) -> bool {
        self.query.iter().any(|(k, v)| k == "dryRun" && v == "All")
    }

    /// The options of a write: dry run, field manager (the user agent's prefix when none is
    /// given, as apiserver `handlers/rest.go` `managerOrUserAgent` does) and `force`.
    pub(crate) fn write_opts(&self) -> crate::ops::WriteOpts {
        let given = self.q("fieldManager").filter(|m| !m.is_empty());
        let from_agent = || {
            let prefix = self.user_agent.split('/').next().unwrap_or_default();
            prefix.chars().filter(|c| !c.is_control()).take(128).collect()
        };
        crate::ops::WriteOpts {
            dry_run: self.dry_run(),
            manager: given.map_or_else(from_agent, String::from),
            manager_given: given.is_some(),
            force: self.q("force").map(|v| matches!(v, "true" | "1" | "True")),
        }
    }
}

fn pct_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => {
                match std::str::from_utf8(&b[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(v) => {
                        out.push(v);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
