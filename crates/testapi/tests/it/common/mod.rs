//! A minimal blocking HTTP/1.1 client (keep-alive, Content-Length and chunked
//! bodies) so the tests need no HTTP client dependency.

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;

pub const GCP: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/fixtures/crds/provider-upjet-gcp");
pub const KUBE_AGGREGATED_ACCEPT: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";

#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

pub struct Client {
    addr: String,
    conn: Option<BufReader<TcpStream>>,
    token: String,
}

impl Client {
    pub fn new(url: &str) -> Self {
        Self::with_token(url, "test-token")
    }

    /// A client presenting another bearer token (a user added with `TestApi::add_user`).
    pub fn with_token(url: &str, token: &str) -> Self {
        Self { addr: url.trim_start_matches("http://").to_string(), conn: None, token: token.to_string() }
    }

    pub fn get(&mut self, path: &str) -> Resp {
        self.request("GET", path, &[], None).expect("request")
    }

    pub fn get_json(&mut self, path: &str) -> Value {
        let r = self.get(path);
        assert_eq!(r.status, 200, "GET {path}: {}", r.text());
        r.json()
    }

    pub fn send(&mut self, method: &str, path: &str, ctype: &str, body: &Value) -> Resp {
        let b = serde_json::to_vec(body).unwrap();
        self.request(method, path, &[("Content-Type", ctype)], Some(&b)).expect("request")
    }

    /// Sends one request; `Err` if the connection closed without an answer.
    pub fn request(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> std::io::Result<Resp> {
        if self.conn.is_none() {
            self.conn = Some(BufReader::new(TcpStream::connect(&self.addr)?));
        }
        let r = self.exchange(method, path, headers, body);
        if r.is_err() {
            self.conn = None;
        }
        r
    }

    fn exchange(
        &mut self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> std::io::Result<Resp> {
        let conn = self.conn.as_mut().unwrap();
        let mut req =
            format!("{method} {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\n", self.addr, self.token);
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        let body = body.unwrap_or_default();
        req.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
        let s = conn.get_mut();
        s.write_all(req.as_bytes())?;
        s.write_all(body)?;
        let mut line = String::new();
        if conn.read_line(&mut line)? == 0 {
            return Err(std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "connection closed"));
        }
        let status: u16 = line
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .ok_or_else(|| std::io::Error::other(format!("bad status line {line:?}")))?;
        let mut headers = vec![];
        loop {
            line.clear();
            conn.read_line(&mut line)?;
            let l = line.trim_end();
            if l.is_empty() {
                break;
            }
            if let Some((k, v)) = l.split_once(':') {
                headers.push((k.trim().to_lowercase(), v.trim().to_string()));
            }
        }
        let get = |k: &str| headers.iter().find(|(h, _)| h == k).map(|(_, v)| v.clone());
        let mut body = vec![];
        if get("transfer-encoding").is_some_and(|v| v.contains("chunked")) {
            loop {
                line.clear();
                conn.read_line(&mut line)?;
                let n = usize::from_str_radix(line.trim(), 16).map_err(std::io::Error::other)?;
                let mut chunk = vec![0; n + 2];
                conn.read_exact(&mut chunk)?;
                if n == 0 {
                    break;
                }
                body.extend_from_slice(&chunk[..n]);
            }
        } else if let Some(n) = get("content-length").and_then(|v| v.parse::<usize>().ok()) {
            body = vec![0u8; n];
            conn.read_exact(&mut body)?;
        }
        if get("connection").is_some_and(|v| v.eq_ignore_ascii_case("close")) {
            self.conn = None;
        }
        Ok(Resp { status, headers, body })
    }
}

/// Registered (plural, served versions) of every CRD file in `dir` whose
/// `spec.names.categories` contains `category`, found by plain text scanning
/// (independent of the crate's YAML parsing).
pub fn crds_with_category(dir: &str, category: &str) -> Vec<(String, String, usize)> {
    let mut out = vec![];
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        let text = std::fs::read_to_string(&p).unwrap();
        let mut in_names = false;
        let mut has = false;
        let mut plural = String::new();
        let mut group = String::new();
        for l in text.lines() {
            if l == "  names:" {
                in_names = true;
                continue;
            }
            if in_names && !l.starts_with("    ") {
                in_names = false;
            }
            if in_names && l == format!("    - {category}") {
                has = true;
            }
            if in_names && let Some(pl) = l.strip_prefix("    plural: ") {
                plural = pl.to_string();
            }
            if let Some(g) = l.strip_prefix("  group: ") {
                group = g.to_string();
            }
        }
        if has {
            let served = text.lines().filter(|l| *l == "    served: true").count();
            out.push((group, plural, served));
        }
    }
    out.sort();
    out
}
