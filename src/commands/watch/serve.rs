//! `--metrics-addr`: `/metrics` (the state as Prometheus text, computed at each scrape from the
//! one state the loop keeps), `/healthz` (the process answers) and `/readyz` (every kind's first
//! list judged, in every context watched). hyper's HTTP/1 server over tokio, one task per connection.

use super::Shared;
use super::clock::Clock;
use bytes::Bytes;
use http_body_util::Full;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use std::convert::Infallible;
use tokio::net::TcpListener;
use upjet_core::error::Error;
use upjet_core::gotime::GoTime;
use upjet_core::watch::exposition;
use upjet_output::metrics;

/// Binds `HOST:PORT` (`:PORT` for every interface); a port in use or a bad address is a usage
/// error that names it (exit 2), before anything else starts.
pub(super) async fn bind(addr: &str) -> Result<TcpListener, Error> {
    let full = if addr.starts_with(':') { format!("0.0.0.0{addr}") } else { addr.to_string() };
    TcpListener::bind(&full)
        .await
        .map_err(|e| Error::usage(format!("cannot serve metrics on {addr} (--metrics-addr): {e}")))
}

/// One cluster's watch as the server sees it: the context its series are labelled with (only
/// when several are watched) and the state its loop keeps.
pub(super) struct Cluster {
    pub(super) context: Option<String>,
    pub(super) shared: Shared,
}

/// Serves until the process ends.
pub(super) async fn serve(listener: TcpListener, clusters: Vec<Cluster>, clock: Clock) {
    let shared = std::sync::Arc::new(clusters);
    loop {
        let Ok((stream, _)) = listener.accept().await else { continue };
        let shared = shared.clone();
        tokio::spawn(async move {
            let service = service_fn(move |req| {
                let shared = shared.clone();
                async move { Ok::<_, Infallible>(answer(&req, &shared, clock)) }
            });
            let _ = http1::Builder::new().serve_connection(TokioIo::new(stream), service).await;
        });
    }
}

fn text(status: StatusCode, content_type: &str, body: String) -> Response<Full<Bytes>> {
    let mut resp = Response::new(Full::new(Bytes::from(body)));
    *resp.status_mut() = status;
    if let Ok(v) = content_type.parse() {
        resp.headers_mut().insert(hyper::header::CONTENT_TYPE, v);
    }
    resp
}

fn families(cluster: &Cluster, now: GoTime) -> Vec<exposition::Family> {
    let w = cluster.shared.lock().unwrap_or_else(|p| p.into_inner());
    exposition::families(&w.state, &w.counters, now)
}

fn answer(req: &Request<Incoming>, clusters: &[Cluster], clock: Clock) -> Response<Full<Bytes>> {
    const PLAIN: &str = "text/plain; charset=utf-8";
    match req.uri().path() {
        "/metrics" => {
            let now = clock.now();
            let families = match clusters {
                [one] if one.context.is_none() => families(one, now),
                _ => exposition::by_context(
                    clusters.iter().map(|c| (c.context.clone().unwrap_or_default(), families(c, now))).collect(),
                ),
            };
            text(StatusCode::OK, metrics::CONTENT_TYPE, metrics::encode(&families))
        }
        "/healthz" => text(StatusCode::OK, PLAIN, "ok\n".into()),
        "/readyz" => {
            let waiting: Vec<&str> = clusters
                .iter()
                .filter(|c| !c.shared.lock().unwrap_or_else(|p| p.into_inner()).state.ready())
                .map(|c| c.context.as_deref().unwrap_or(""))
                .collect();
            match (waiting.is_empty(), clusters.len()) {
                (true, _) => text(StatusCode::OK, PLAIN, "ready\n".into()),
                (false, 1) => text(
                    StatusCode::SERVICE_UNAVAILABLE,
                    PLAIN,
                    "not ready: a kind's first list is not judged yet\n".into(),
                ),
                (false, _) => text(
                    StatusCode::SERVICE_UNAVAILABLE,
                    PLAIN,
                    format!("not ready: not every kind's first list is judged in {}\n", waiting.join(", ")),
                ),
            }
        }
        _ => text(StatusCode::NOT_FOUND, PLAIN, "not found: /metrics, /healthz, /readyz\n".into()),
    }
}
