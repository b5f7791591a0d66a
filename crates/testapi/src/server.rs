//! HTTP/1.1 serving: accepting connections, counting traffic, authorizing, and handing each
//! request to its operation (routing, faults, discovery and pod logs have their own files).

use crate::Inner;
use crate::crd::ResourceDef;
use crate::discovery::cached;
use crate::faults::{FaultAction, check_faults, cut_body};
use crate::list::ListQuery;
use crate::reqinfo::ReqInfo;
use crate::resp::Resp;
use crate::route::{Route, class_of, r_parts, route, verb};
use crate::selector::{FieldSelector, LabelSelector};
use crate::update::Target;
use crate::watch::RespBody;
use crate::{create, delete, list, ops, update};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Method, Request, Response};
use hyper_util::rt::TokioIo;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use tokio::net::TcpListener;
use tokio::sync::watch;

/// Accepts connections until `stop` flips to true.
pub(crate) async fn serve(inner: Arc<Inner>, listener: TcpListener, mut stop: watch::Receiver<bool>) {
    let local = listener.local_addr().ok();
    loop {
        let accepted = tokio::select! {
            r = listener.accept() => r,
            _ = stop.changed() => break,
        };
        let Ok((stream, _)) = accepted else { continue };
        let _ = stream.set_nodelay(true);
        let inner = inner.clone();
        let mut stop = stop.clone();
        tokio::spawn(async move {
            let svc = service_fn(move |req| handle(inner.clone(), req, local));
            let conn =
                http1::Builder::new().keep_alive(true).serve_connection(TokioIo::new(stream), svc).with_upgrades();
            tokio::select! {
                _ = conn => {}
                _ = stop.changed() => {}
            }
        });
    }
}

struct InFlight<'a>(&'a Inner);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.stats.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The resource a watch request is for, if it is one.
fn watch_target(inner: &Inner, info: &ReqInfo, r: &Route) -> Option<(Arc<ResourceDef>, Option<String>)> {
    let Route::Resource { group, version, plural, ns, name: None, sub: None } = r else { return None };
    if info.method != Method::GET || !info.flag("watch") {
        return None;
    }
    let def = inner
        .registry
        .read()
        .expect("registry lock")
        .by_gvr
        .get(&(group.clone(), version.clone(), plural.clone()))
        .cloned()?;
    if ns.is_some() && !def.namespaced {
        return None;
    }
    Some((def, ns.clone()))
}

async fn handle(
    inner: Arc<Inner>,
    req: Request<Incoming>,
    local: Option<SocketAddr>,
) -> Result<Response<RespBody>, std::io::Error> {
    let stats = &inner.stats;
    let now = stats.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
    stats.max_in_flight.fetch_max(now, Ordering::SeqCst);
    let _guard = InFlight(&inner);
    stats.requests.fetch_add(1, Ordering::SeqCst);
    let info = ReqInfo::of(&req);
    {
        let mut recent = stats.recent.lock().expect("stats lock");
        if recent.len() >= crate::Stats::RECENT {
            recent.pop_front();
        }
        recent.push_back((info.method.to_string(), info.path_query.clone()));
    }
    let r = route(&info.path);
    *stats.by_class.lock().expect("stats lock").entry(class_of(&info, &r).to_string()).or_default() += 1;
    if let Err(denied) = check_access(&inner, &info, &r, &info.authorization) {
        return Ok(plain(denied));
    }

    let (delay, action) = check_faults(&inner, &info, &r);
    let (action, cut) = match action {
        Some(FaultAction::Cut { draw, framed }) => (None, Some((draw, framed))),
        other => (other, None),
    };
    if delay > 0 {
        tokio::time::sleep(std::time::Duration::from_millis(delay)).await;
    }
    let resp = match action {
        Some(FaultAction::Reset) => {
            return Err(std::io::Error::new(std::io::ErrorKind::ConnectionReset, "injected connection reset"));
        }
        Some(FaultAction::Respond(r)) => r,
        Some(FaultAction::Cut { .. }) => unreachable!("taken apart above"),
        None => match answer(&inner, req, &info, &r, local).await? {
            Answer::Done(resp) => return Ok(resp),
            Answer::Resp(resp) => resp,
        },
    };
    stats.response_bytes.fetch_add(resp.body.len() as u64, Ordering::SeqCst);
    let mut b = Response::builder()
        .status(resp.code)
        .header("content-type", resp.ctype)
        .header("cache-control", "no-cache, private");
    for (k, v) in resp.headers {
        b = b.header(k, v);
    }
    if let Some((draw, framed)) = cut.filter(|_| info.method != Method::HEAD) {
        return Ok(cut_body(b, resp.body, draw, framed));
    }
    Ok(b.body(http_body_util::Either::Left(Full::new(if info.method == Method::HEAD {
        Bytes::new()
    } else {
        resp.body
    })))
    .expect("response"))
}

/// What a request got: a finished response (exec, watch) or one to send.
enum Answer {
    Done(Response<RespBody>),
    Resp(Resp),
}

/// Answers a request no fault took: exec, watch, or a dispatched operation.
async fn answer(
    inner: &Arc<Inner>,
    req: Request<Incoming>,
    info: &ReqInfo,
    r: &Route,
    local: Option<SocketAddr>,
) -> Result<Answer, std::io::Error> {
    let is_exec = matches!(r, Route::Resource { sub: Some(s), .. } if s == "exec");
    if is_exec && crate::exec::is_upgrade(&req) {
        let resp = crate::exec::handle(inner.clone(), req, info, &r_parts(r)).map(http_body_util::Either::Left);
        return Ok(Answer::Done(resp));
    }
    if let Some((def, ns)) = watch_target(inner, info, r) {
        return Ok(match crate::watch::start(inner, &def, &def.api_version(), ns.as_deref(), info) {
            Ok(body) => {
                let resp = Response::builder()
                    .status(200)
                    .header("content-type", "application/json")
                    .header("cache-control", "no-cache, private");
                Answer::Done(resp.body(http_body_util::Either::Right(body)).expect("response"))
            }
            Err(e) => Answer::Resp(e),
        });
    }
    let body = match req.into_body().collect().await {
        Ok(b) => b.to_bytes(),
        Err(e) => return Err(std::io::Error::other(e)),
    };
    let user = crate::rbac::authenticate(inner, &info.authorization).ok().flatten();
    Ok(Answer::Resp(crate::admission::with_requester(user, || dispatch(inner, info, r, &body, local))))
}

/// Authentication and RBAC authorization, when on (see the `rbac` module).
fn check_access(inner: &Inner, info: &ReqInfo, r: &Route, authorization: &str) -> Result<(), Resp> {
    let Some(user) = crate::rbac::authenticate(inner, authorization)? else { return Ok(()) };
    let attrs = match r {
        Route::Resource { group, plural, ns, name, sub, .. } => {
            // Exec over a websocket upgrade is a GET, authorized as `create` like a POST (the
            // apiserver's behaviour since the websocket exec protocol became the default).
            let verb = if sub.as_deref() == Some("exec") { "create" } else { verb(info, name.is_some()) };
            crate::rbac::Attributes::Resource {
                verb,
                group,
                resource: plural,
                subresource: sub.as_deref(),
                namespace: ns.as_deref(),
                name: name.as_deref(),
            }
        }
        _ => {
            crate::rbac::Attributes::NonResource { verb: &info.method.as_str().to_ascii_lowercase(), path: &info.path }
        }
    };
    crate::rbac::authorize(inner, &user, &attrs)
}

/// A response with its body, without the fault and cut handling of `handle`.
fn plain(resp: Resp) -> Response<RespBody> {
    let b = Response::builder()
        .status(resp.code)
        .header("content-type", resp.ctype)
        .header("cache-control", "no-cache, private");
    b.body(http_body_util::Either::Left(Full::new(resp.body))).expect("response")
}

fn list_query(info: &ReqInfo, def: &ResourceDef) -> Result<ListQuery, Resp> {
    let limit = match info.q("limit") {
        Some(l) if !l.is_empty() => l
            .parse::<i64>()
            .map_err(|_| Resp::bad_request(&format!("limit: Invalid value: {l:?}: must be a non-negative integer")))?
            .max(0) as usize,
        _ => 0,
    };
    let label = LabelSelector::parse(info.q("labelSelector").unwrap_or_default()).map_err(|e| Resp::bad_request(&e))?;
    let field = FieldSelector::parse(info.q("fieldSelector").unwrap_or_default(), &def.field_paths())
        .map_err(|e| Resp::bad_request(&e))?;
    let meta_only = crate::watch::wants_meta(&info.accept);
    Ok(ListQuery { limit, cont: info.q("continue").map(String::from), label, field, meta_only })
}

fn obj_resp(code: u16, v: &serde_json::Value) -> Resp {
    Resp::json(code, v)
}

fn dispatch(inner: &Inner, info: &ReqInfo, r: &Route, body: &Bytes, local: Option<SocketAddr>) -> Resp {
    let (group, version, plural, ns, name, sub) = match r {
        Route::Version => {
            let (major, minor, git) = inner.version.lock().expect("version lock").clone();
            return Resp::json(
                200,
                &serde_json::json!({"major": major, "minor": minor, "gitVersion": git, "gitCommit": "testapi", "gitTreeState": "clean", "buildDate": "2025-01-01T00:00:00Z", "goVersion": "go1.23.4", "compiler": "gc", "platform": "linux/amd64"}),
            );
        }
        Route::Unmatched => return Resp::no_route(),
        Route::OpenApiRoot => {
            return cached(inner, "openapi", |reg| Some(crate::openapi::root(reg)))
                .map_or_else(Resp::no_route, |b| Resp::raw_json(200, b));
        }
        Route::OpenApi(g, v) => {
            return cached(inner, &format!("openapi/{g}/{v}"), |reg| crate::openapi::group_version(reg, g, v))
                .map_or_else(Resp::no_route, |b| Resp::raw_json(200, b));
        }
        Route::Resource { group, version, plural, ns, name, sub } => {
            (group, version, plural, ns.as_deref(), name.as_deref(), sub.as_deref())
        }
        _ => return crate::discovery::discovery(inner, info, r, local),
    };
    let def = {
        let reg = inner.registry.read().expect("registry lock");
        reg.by_gvr.get(&(group.clone(), version.clone(), plural.clone())).cloned()
    };
    let Some(def) = def else { return Resp::no_route() };
    if (ns.is_some() && !def.namespaced) || (ns.is_none() && name.is_some() && def.namespaced) {
        return Resp::no_route();
    }
    let api_version = def.api_version();
    match sub {
        None => {}
        Some("status") if def.status_subresource => {}
        Some("log") if def.builtin && def.plural == "pods" => {
            if info.method != Method::GET {
                return Resp::method_not_allowed("the server does not allow this method on the requested resource");
            }
            return crate::podlog::pod_log(inner, info, &def, ns.unwrap_or_default(), name.unwrap_or_default());
        }
        Some("exec") if def.builtin && def.plural == "pods" => {
            return Resp::bad_request("Upgrade request required");
        }
        Some(_) => return Resp::no_route(),
    }
    let resp = verb_call(inner, info, &def, &api_version, ns, name, sub, body);
    match &def.warning {
        Some(w) => resp.with_header("warning", format!("299 - {}", serde_json::json!(w))),
        None => resp,
    }
}

/// The verb on a resource (after routing and scope checks).
#[allow(clippy::too_many_arguments)]
fn verb_call(
    inner: &Inner,
    info: &ReqInfo,
    def: &Arc<ResourceDef>,
    api_version: &str,
    ns: Option<&str>,
    name: Option<&str>,
    sub: Option<&str>,
    body: &Bytes,
) -> Resp {
    let def = def.clone();
    let opts = info.write_opts();
    let dry = opts.dry_run;
    let written = |w: Result<ops::Written, Resp>, code: u16| -> Resp {
        match w {
            Ok(w) => {
                if w.changed && !def.builtin {
                    ops::run_hooks(inner, &def, api_version, &w.obj);
                }
                obj_resp(if w.created { 201 } else { code }, &w.obj)
            }
            Err(e) => e,
        }
    };
    let target = |n| Target { inner, def: &def, api_version, ns, name: n, sub };
    match (&info.method, name) {
        (m, _) if *m == Method::GET || *m == Method::HEAD => read_call(inner, info, &def, api_version, ns, name, sub),
        (&Method::POST, None) if sub.is_none() => match create::create(inner, &def, api_version, ns, body, &opts) {
            Ok(v) => obj_resp(201, &v),
            Err(e) => e,
        },
        (&Method::PUT, Some(n)) => written(update::update(&target(n), body, &opts), 200),
        (&Method::PATCH, Some(n)) => written(update::patch(&target(n), &info.ctype, body, &opts), 200),
        (&Method::DELETE, Some(n)) if sub.is_none() => match delete::delete(inner, &def, api_version, ns, n, body, dry)
        {
            Ok(v) => obj_resp(200, &v),
            Err(e) => e,
        },
        (&Method::DELETE, None) if sub.is_none() => match list_query(info, &def)
            .and_then(|q| delete::delete_collection(inner, &def, api_version, ns, &q, body, dry))
        {
            Ok(b) => Resp::raw_json(200, b),
            Err(e) => e,
        },
        _ => Resp::method_not_allowed("the server does not allow this method on the requested resource"),
    }
}

/// `GET` or `HEAD` of a list or an object, as JSON or as a server-side printed table.
fn read_call(
    inner: &Inner,
    info: &ReqInfo,
    def: &ResourceDef,
    api_version: &str,
    ns: Option<&str>,
    name: Option<&str>,
    sub: Option<&str>,
) -> Resp {
    let r = match name {
        None if sub.is_none() => {
            let table = if def.builtin { None } else { crate::table::wants_table(&info.accept) };
            match table {
                Some(tv) => list_query(info, def).and_then(|q| crate::table::list(inner, def, api_version, ns, &q, tv)),
                None => list_query(info, def)
                    .and_then(|q| list::list(inner, def, api_version, ns, &q))
                    .map(|b| Resp::raw_json(200, b)),
            }
        }
        None => Err(Resp::method_not_allowed("the server does not allow this method on the requested resource")),
        Some(n) => {
            let table = if def.builtin || sub.is_some() { None } else { crate::table::wants_table(&info.accept) };
            match table {
                Some(tv) => crate::table::get(def, api_version, ns, n, tv),
                None => ops::get(def, api_version, ns, n).map(|b| Resp::raw_json(200, b)),
            }
        }
    };
    r.unwrap_or_else(|e| e)
}
