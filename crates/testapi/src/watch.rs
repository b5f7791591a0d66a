//! `?watch=true` on list paths: a chunked stream of watch events
//! (`{"type":"ADDED","object":{...}}` lines), with resume from a
//! resourceVersion, selectors, `sendInitialEvents` and `timeoutSeconds`.

use crate::Inner;
use crate::crd::ResourceDef;
use crate::reqinfo::ReqInfo;
use crate::resp::Resp;
use crate::selector::{FieldSelector, LabelSelector};
use crate::store::{Entry, Event, EventType, prefix};
use bytes::Bytes;
use http_body_util::Full;
use hyper::body::{Body, Frame};
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::sync::{broadcast, mpsc};

/// A response body fed by a channel (ends when the sender is dropped).
pub(crate) struct ChanBody(pub mpsc::Receiver<Bytes>);

/// Response body: complete bytes, or a stream (watch).
pub(crate) type RespBody = http_body_util::Either<Full<Bytes>, ChanBody>;

impl Body for ChanBody {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.0.poll_recv(cx).map(|o| o.map(|b| Ok(Frame::data(b))))
    }
}

struct Filter {
    ns: Option<String>,
    label: LabelSelector,
    field: FieldSelector,
    /// The client asked for metadata only (`as=PartialObjectMetadata`).
    meta_only: bool,
}

impl Filter {
    fn matches(&self, key: &(String, String), e: &Entry) -> bool {
        self.ns.as_ref().is_none_or(|n| *n == key.0)
            && self.label.matches(&e.labels)
            && self.field.matches(|p| e.field(key, p))
    }
}

/// Whether the client asked for objects as `PartialObjectMetadata` (a list or a watch).
pub(crate) fn wants_meta(accept: &str) -> bool {
    accept.contains("as=PartialObjectMetadata")
}

fn event_line(kind: &str, e: &Entry, pfx: &[u8], meta_only: bool) -> Bytes {
    let mut out = Vec::with_capacity(e.rest.len() + pfx.len() + 32);
    out.extend_from_slice(format!("{{\"type\":\"{kind}\",\"object\":").as_bytes());
    if meta_only {
        e.write_meta(&mut out);
    } else {
        e.write_json(&mut out, Some(pfx));
    }
    out.extend_from_slice(b"}\n");
    Bytes::from(out)
}

fn expired_line(message: &str) -> Bytes {
    let status = serde_json::json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure", "message": message, "reason": "Expired", "code": 410});
    Bytes::from(format!("{{\"type\":\"ERROR\",\"object\":{status}}}\n"))
}

/// The line for a store event after filtering (selector transitions become ADDED/DELETED).
fn render(ev: &Event, f: &Filter, pfx: &[u8]) -> Option<Bytes> {
    let now = f.matches(&ev.key, &ev.entry);
    let kind = match ev.kind {
        EventType::Added => now.then_some("ADDED")?,
        EventType::Deleted => now.then_some("DELETED")?,
        EventType::Modified => {
            let before = ev.prev.as_ref().is_some_and(|p| f.matches(&ev.key, p));
            match (before, now) {
                (true, true) => "MODIFIED",
                (false, true) => "ADDED",
                (true, false) => "DELETED",
                (false, false) => return None,
            }
        }
    };
    Some(event_line(kind, &ev.entry, pfx, f.meta_only))
}

/// Starts a watch; the returned body streams events until the client goes away,
/// `timeoutSeconds` passes, or the watcher falls too far behind (410 ERROR event).
pub(crate) fn start(
    inner: &Inner,
    def: &ResourceDef,
    api_version: &str,
    ns: Option<&str>,
    info: &ReqInfo,
) -> Result<ChanBody, Resp> {
    let label = LabelSelector::parse(info.q("labelSelector").unwrap_or_default()).map_err(|e| Resp::bad_request(&e))?;
    let field = FieldSelector::parse(info.q("fieldSelector").unwrap_or_default(), &def.field_paths())
        .map_err(|e| Resp::bad_request(&e))?;
    let meta_only = wants_meta(&info.accept);
    let filter = Filter { ns: if def.namespaced { ns.map(String::from) } else { None }, label, field, meta_only };
    let send_initial = info.q("sendInitialEvents") == Some("true");
    let rv: Option<u64> = match info.q("resourceVersion") {
        None | Some("") | Some("0") => None,
        Some(s) => Some(s.parse().map_err(|_| {
            Resp::bad_request(&format!("resourceVersion: Invalid value: {s:?}: must be a non-negative integer"))
        })?),
    };
    let timeout = info.q("timeoutSeconds").and_then(|s| s.parse::<u64>().ok()).filter(|s| *s > 0);
    let bookmarks = match info.q("allowWatchBookmarks") {
        Some("true") => *inner.bookmark_every.lock().expect("bookmark lock"),
        _ => None,
    };
    let epoch = inner.watch_epoch.subscribe();
    let rv_source = inner.rv_handle();
    let (kind, version) = (def.kind.clone(), api_version.to_string());
    let pfx = prefix(api_version, &def.kind);

    let objs = def.store.map.read().expect("store lock");
    let rx = objs.events.subscribe();
    let mut lines: Vec<Bytes> = vec![];
    let mut expired = None;
    if rv.is_none() || send_initial {
        lines.extend(
            objs.items
                .iter()
                .filter(|(k, e)| filter.matches(k, e))
                .map(|(_, e)| event_line("ADDED", e, &pfx, meta_only)),
        );
    } else if let Some(n) = rv {
        if n < objs.truncated_rv {
            expired = Some(format!("too old resource version: {n} ({})", objs.truncated_rv + 1));
        } else {
            lines.extend(objs.history.iter().filter(|ev| ev.rv > n).filter_map(|ev| render(ev, &filter, &pfx)));
        }
    }
    let current = inner.current_rv();
    drop(objs);
    if send_initial {
        let bookmark = serde_json::json!({"type": "BOOKMARK", "object": {"kind": def.kind, "apiVersion": api_version,
            "metadata": {"resourceVersion": current.to_string(), "annotations": {"k8s.io/initial-events-end": "true"}}}});
        lines.push(Bytes::from(format!("{bookmark}\n")));
    }

    let (tx, body) = mpsc::channel::<Bytes>(64);
    let live = Live { tx, rx, epoch, rv_source, kind, version, filter, pfx, timeout, bookmarks };
    tokio::spawn(async move {
        if let Some(msg) = expired {
            let _ = live.tx.send(expired_line(&msg)).await;
            return;
        }
        for l in lines {
            if live.tx.send(l).await.is_err() {
                return;
            }
        }
        follow(live).await;
    });
    Ok(ChanBody(body))
}

/// What a watch follows after its first events: the store's events, bookmarks, the end.
struct Live {
    tx: mpsc::Sender<Bytes>,
    rx: broadcast::Receiver<std::sync::Arc<Event>>,
    epoch: tokio::sync::watch::Receiver<u64>,
    rv_source: std::sync::Arc<std::sync::atomic::AtomicU64>,
    kind: String,
    version: String,
    filter: Filter,
    pfx: Vec<u8>,
    timeout: Option<u64>,
    bookmarks: Option<std::time::Duration>,
}

/// Streams events until the client goes away, the watch times out or falls behind, or the
/// server drops its watches.
async fn follow(live: Live) {
    let Live { tx, mut rx, mut epoch, rv_source, kind, version, filter, pfx, timeout, bookmarks } = live;
    let deadline = async {
        match timeout {
            Some(s) => tokio::time::sleep(std::time::Duration::from_secs(s)).await,
            None => std::future::pending().await,
        }
    };
    tokio::pin!(deadline);
    let mut bookmark = bookmarks.map(|every| tokio::time::interval_at(tokio::time::Instant::now() + every, every));
    loop {
        let next_bookmark = async {
            match bookmark.as_mut() {
                Some(b) => b.tick().await,
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = epoch.changed() => return,
            _ = next_bookmark => {
                let rv = rv_source.load(std::sync::atomic::Ordering::SeqCst);
                let line = serde_json::json!({"type": "BOOKMARK", "object": {"kind": kind, "apiVersion": version,
                    "metadata": {"resourceVersion": rv.to_string()}}});
                if tx.send(Bytes::from(format!("{line}\n"))).await.is_err() {
                    return;
                }
            }
            ev = rx.recv() => match ev {
                Ok(ev) => {
                    if let Some(l) = render(&ev, &filter, &pfx)
                        && tx.send(l).await.is_err()
                    {
                        return;
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => {
                    let _ = tx.send(expired_line("watch fell behind: too old resource version")).await;
                    return;
                }
                Err(broadcast::error::RecvError::Closed) => return,
            },
            _ = &mut deadline => return,
            _ = tx.closed() => return,
        }
    }
}
