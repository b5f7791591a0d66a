//! HTTP/1.1 serving: routing, discovery, faults, stats and pod logs.

use crate::crd::{Registry, ResourceDef};
use crate::ops::{self, ListQuery};
use crate::reqinfo::ReqInfo;
use crate::resp::Resp;
use crate::selector::{FieldSelector, LabelSelector};
use crate::{Fault, Inner};
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

/// The parsed route.
enum Route {
    Version,
    OpenApiRoot,
    OpenApi(String, String),
    Api,
    Apis,
    ApiGroup(String),
    ResourceList(String, String),
    Resource {
        group: String,
        version: String,
        plural: String,
        ns: Option<String>,
        name: Option<String>,
        sub: Option<String>,
    },
    Unmatched,
}

fn route(path: &str) -> Route {
    let segs: Vec<&str> = path.trim_matches('/').split('/').filter(|s| !s.is_empty()).collect();
    let resource = |group: &str, version: &str, rest: &[&str]| -> Route {
        let (ns, rest) = if rest.len() >= 3
            && rest[0] == "namespaces"
            && !(group.is_empty() && matches!(rest[2], "status" | "finalize"))
        {
            (Some(rest[1].to_string()), &rest[2..])
        } else {
            (None, rest)
        };
        if rest.is_empty() || rest.len() > 3 {
            return Route::Unmatched;
        }
        Route::Resource {
            group: group.into(),
            version: version.into(),
            plural: rest[0].into(),
            ns,
            name: rest.get(1).map(|s| s.to_string()),
            sub: rest.get(2).map(|s| s.to_string()),
        }
    };
    match segs.as_slice() {
        ["version"] => Route::Version,
        ["openapi", "v3"] => Route::OpenApiRoot,
        ["openapi", "v3", "api", v] => Route::OpenApi(String::new(), v.to_string()),
        ["openapi", "v3", "apis", g, v] => Route::OpenApi(g.to_string(), v.to_string()),
        ["api"] => Route::Api,
        ["api", v] => Route::ResourceList(String::new(), v.to_string()),
        ["api", v, rest @ ..] => resource("", v, rest),
        ["apis"] => Route::Apis,
        ["apis", g] => Route::ApiGroup(g.to_string()),
        ["apis", g, v] => Route::ResourceList(g.to_string(), v.to_string()),
        ["apis", g, v, rest @ ..] => resource(g, v, rest),
        _ => Route::Unmatched,
    }
}

/// Kubernetes verb of a request.
fn verb(info: &ReqInfo, has_name: bool) -> &'static str {
    match info.method {
        Method::GET | Method::HEAD if info.flag("watch") => "watch",
        Method::GET | Method::HEAD if has_name => "get",
        Method::GET | Method::HEAD => "list",
        Method::POST => "create",
        Method::PUT => "update",
        Method::PATCH => "patch",
        Method::DELETE if has_name => "delete",
        Method::DELETE => "deletecollection",
        _ => "other",
    }
}

fn class_of(info: &ReqInfo, r: &Route) -> &'static str {
    match r {
        Route::Version => "version",
        Route::OpenApiRoot | Route::OpenApi(..) => "openapi",
        Route::Api | Route::Apis | Route::ApiGroup(_) | Route::ResourceList(..) => "discovery",
        Route::Resource { sub: Some(s), .. } if s == "log" => "log",
        Route::Resource { sub: Some(s), .. } if s == "exec" => "exec",
        Route::Resource { name, .. } => verb(info, name.is_some()),
        Route::Unmatched => "notfound",
    }
}

enum FaultAction {
    Respond(Resp),
    Reset,
    /// Answer normally, then cut the body (see [`Fault::CutBody`]).
    Cut {
        draw: u64,
        framed: bool,
    },
}

/// Status message for an injected fault, shaped like the apiserver's.
fn fault_status(info: &ReqInfo, r: &Route, code: u16, reason: &str, retry: Option<u32>) -> Resp {
    let retry = match (code, retry) {
        (429 | 503, r) => Some(r.unwrap_or(1)),
        (_, r) => r,
    };
    let (name, group, resource, msg) = match r {
        Route::Resource { group, plural, ns, name, sub, .. } => {
            let res = match sub {
                Some(s) => format!("{plural}/{s}"),
                None => plural.clone(),
            };
            let qualified = if group.is_empty() { plural.clone() } else { format!("{plural}.{group}") };
            let msg = match code {
                403 => {
                    let scope = match ns {
                        Some(n) => format!("in the namespace {}", serde_json::json!(n)),
                        None => "at the cluster scope".into(),
                    };
                    let named = name.as_ref().map(|n| format!(" {}", serde_json::json!(n))).unwrap_or_default();
                    format!(
                        "{qualified}{named} is forbidden: User \"test\" cannot {} resource \"{res}\" in API group \"{group}\" {scope}",
                        verb(info, name.is_some())
                    )
                }
                404 => format!("{qualified} {} not found", serde_json::json!(name.clone().unwrap_or_default())),
                409 => format!(
                    "Operation cannot be fulfilled on {qualified} {}: the object has been modified; please apply your changes to the latest version and try again",
                    serde_json::json!(name.clone().unwrap_or_default())
                ),
                _ => String::new(),
            };
            (name.clone().unwrap_or_default(), group.clone(), plural.clone(), msg)
        }
        _ => {
            let msg = if code == 403 {
                format!(
                    "forbidden: User \"test\" cannot {} path \"{}\"",
                    info.method.as_str().to_lowercase(),
                    info.path
                )
            } else {
                String::new()
            };
            (String::new(), String::new(), String::new(), msg)
        }
    };
    let msg = if !msg.is_empty() {
        msg
    } else {
        match code {
            429 => "Too many requests, please try again later.".to_string(),
            503 => "the server is currently unable to handle the request".to_string(),
            500 => "Internal error occurred: injected fault".to_string(),
            504 => "the server was unable to return a response in the time allotted, but may still be processing the request".to_string(),
            400 => "the server rejected our request for an unknown reason".to_string(),
            _ => format!("{reason} (injected fault)"),
        }
    };
    let extra = retry.map(|s| format!("\"retryAfterSeconds\":{s}"));
    let mut resp = Resp::status(code, reason, &msg, Some((&name, &group, &resource)), extra);
    if let Some(s) = retry {
        resp = resp.with_header("retry-after", s.to_string());
    }
    resp
}

/// Whether a fault's selector (path, method, continue token) picks this request.
fn selects(f: &Fault, info: &ReqInfo, has_continue: bool) -> bool {
    match f {
        Fault::Delay { path_contains, .. }
        | Fault::ResetConnection { path_contains, .. }
        | Fault::CutBody { path_contains, .. } => info.path_query.contains(path_contains.as_str()),
        Fault::Status { method, path_contains, .. } | Fault::Deny { method, path_contains, .. } => {
            method.as_ref().is_none_or(|m| *m == info.method) && info.path_query.contains(path_contains.as_str())
        }
        Fault::ExpireContinue { path_contains, .. } => has_continue && info.path_query.contains(path_contains.as_str()),
        Fault::Chance { fault, .. } => selects(fault, info, has_continue),
    }
}

/// The fault itself, inside a `Chance` or not.
fn effective(f: &Fault) -> &Fault {
    match f {
        Fault::Chance { fault, .. } => effective(fault),
        f => f,
    }
}

const EXPIRED: &str = "The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.";

fn check_faults(inner: &Inner, info: &ReqInfo, r: &Route) -> (u64, Option<FaultAction>) {
    let mut faults = inner.faults.lock().expect("faults lock");
    let mut delay = 0;
    let mut action = None;
    let has_continue = info.q("continue").is_some_and(|c| !c.is_empty());
    let mut i = 0;
    while i < faults.len() {
        let slot = &mut faults[i];
        let is_delay = matches!(effective(&slot.fault), Fault::Delay { .. });
        if !selects(&slot.fault, info, has_continue) || (!is_delay && action.is_some()) {
            i += 1;
            continue;
        }
        if let Fault::Chance { percent, .. } = slot.fault
            && slot.next_random() % 100 >= u64::from(percent)
        {
            i += 1;
            continue;
        }
        let draw = slot.next_random();
        match effective(&slot.fault) {
            Fault::Delay { millis, .. } => {
                delay += *millis;
                i += 1;
                continue;
            }
            Fault::Status { code, reason, retry_after_secs, .. } => {
                action = Some(FaultAction::Respond(fault_status(info, r, *code, reason, *retry_after_secs)));
            }
            Fault::Deny { webhook, code, reason, .. } => {
                let message = format!("admission webhook {webhook:?} denied the request: {reason}");
                action = Some(FaultAction::Respond(Resp::status(*code, reason, &message, None, None)));
            }
            Fault::ExpireContinue { .. } => {
                action = Some(FaultAction::Respond(Resp::status(410, "Expired", EXPIRED, None, None)));
            }
            Fault::CutBody { framed, .. } => action = Some(FaultAction::Cut { draw, framed: *framed }),
            _ => action = Some(FaultAction::Reset),
        }
        if let Some(n) = slot.remaining.as_mut() {
            *n = n.saturating_sub(1);
            if *n == 0 {
                faults.remove(i);
                continue;
            }
        }
        i += 1;
    }
    (delay, action)
}

/// Sends `body` cut at a point chosen by `draw`: as a complete shorter response (`framed`), or
/// with the full `Content-Length` and the connection closed after the prefix.
fn cut_body(b: hyper::http::response::Builder, body: Bytes, draw: u64, framed: bool) -> Response<RespBody> {
    let at = if body.is_empty() { 0 } else { (draw % body.len() as u64) as usize };
    let prefix = body.slice(..at);
    if framed {
        return b.body(http_body_util::Either::Left(Full::new(prefix))).expect("response");
    }
    let (tx, rx) = tokio::sync::mpsc::channel(1);
    if !prefix.is_empty() {
        let _ = tx.try_send(prefix);
    }
    drop(tx);
    b.header("content-length", body.len().to_string())
        .body(http_body_util::Either::Right(crate::watch::ChanBody(rx)))
        .expect("response")
}

struct InFlight<'a>(&'a Inner);

impl Drop for InFlight<'_> {
    fn drop(&mut self) {
        self.0.stats.in_flight.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Response body: complete bytes, or a stream (watch).
pub(crate) type RespBody = http_body_util::Either<Full<Bytes>, crate::watch::ChanBody>;

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
        None => {
            let is_exec = matches!(&r, Route::Resource { sub: Some(s), .. } if s == "exec");
            if is_exec && crate::exec::is_upgrade(&req) {
                return Ok(
                    crate::exec::handle(inner.clone(), req, &info, &r_parts(&r)).map(http_body_util::Either::Left)
                );
            }
            if let Some((def, ns)) = watch_target(&inner, &info, &r) {
                match crate::watch::start(&inner, &def, &def.api_version(), ns.as_deref(), &info) {
                    Ok(body) => {
                        let resp = Response::builder()
                            .status(200)
                            .header("content-type", "application/json")
                            .header("cache-control", "no-cache, private");
                        return Ok(resp.body(http_body_util::Either::Right(body)).expect("response"));
                    }
                    Err(e) => e,
                }
            } else {
                let body = match req.into_body().collect().await {
                    Ok(b) => b.to_bytes(),
                    Err(e) => return Err(std::io::Error::other(e)),
                };
                let user = crate::rbac::authenticate(&inner, &info.authorization).ok().flatten();
                crate::admission::with_requester(user, || dispatch(&inner, &info, &r, &body, local))
            }
        }
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

/// (namespace, pod) of an exec route.
fn r_parts(r: &Route) -> (String, String) {
    match r {
        Route::Resource { ns, name, .. } => (ns.clone().unwrap_or_default(), name.clone().unwrap_or_default()),
        _ => Default::default(),
    }
}

/// Which aggregated discovery version the Accept header asks for, if any.
fn wants_aggregated(accept: &str) -> Option<&'static str> {
    for range in accept.split(',') {
        let params: Vec<&str> = range.split(';').map(str::trim).collect();
        if params.first().is_some_and(|m| *m != "application/json") {
            continue;
        }
        let has = |p: &str| params.contains(&p);
        if has("as=APIGroupDiscoveryList") && has("g=apidiscovery.k8s.io") {
            if has("v=v2") {
                return Some("v2");
            }
            if has("v=v2beta1") {
                return Some("v2beta1");
            }
        }
    }
    None
}

fn cached(inner: &Inner, key: &str, build: impl FnOnce(&Registry) -> Option<serde_json::Value>) -> Option<Bytes> {
    if let Some(b) = inner.disco.lock().expect("disco lock").get(key) {
        return Some(b.clone());
    }
    let v = {
        let reg = inner.registry.read().expect("registry lock");
        build(&reg)?
    };
    let b = Bytes::from(crate::util::to_json(&v));
    inner.disco.lock().expect("disco lock").insert(key.to_string(), b.clone());
    Some(b)
}

fn discovery(inner: &Inner, info: &ReqInfo, r: &Route, local: Option<SocketAddr>) -> Resp {
    if info.method != Method::GET && info.method != Method::HEAD {
        return Resp::method_not_allowed(&format!(
            "the server does not allow this method on the requested resource ({})",
            info.method
        ));
    }
    let agg = if inner.aggregated.load(Ordering::SeqCst) { wants_aggregated(&info.accept) } else { None };
    let (key, core) = match r {
        Route::Api => ("api".to_string(), true),
        Route::Apis => ("apis".to_string(), false),
        Route::ApiGroup(g) => (format!("group/{g}"), false),
        Route::ResourceList(g, v) => (format!("gv/{g}/{v}"), false),
        _ => return Resp::no_route(),
    };
    if let (Some(ver), Route::Api | Route::Apis) = (agg, r) {
        let av = format!("apidiscovery.k8s.io/{ver}");
        let body =
            cached(inner, &format!("agg/{key}/{ver}"), |reg| Some(reg.aggregated(core, &av))).expect("aggregated");
        let mut resp = Resp::raw_json(200, body);
        resp.ctype = format!("application/json;g=apidiscovery.k8s.io;v={ver};as=APIGroupDiscoveryList");
        resp.headers.push(("vary", "Accept".into()));
        return resp;
    }
    let body = match r {
        Route::Api => {
            let addr = local.map(|a| a.to_string()).unwrap_or_default();
            Some(Bytes::from(crate::util::to_json(&Registry::api_versions(&addr))))
        }
        Route::Apis => cached(inner, &key, |reg| Some(reg.api_group_list())),
        Route::ApiGroup(g) => cached(inner, &key, |reg| reg.api_group(g)),
        Route::ResourceList(g, v) => cached(inner, &key, |reg| reg.api_resource_list(g, v)),
        _ => None,
    };
    match body {
        Some(b) => {
            let mut resp = Resp::raw_json(200, b);
            resp.headers.push(("vary", "Accept".into()));
            resp
        }
        None => Resp::no_route(),
    }
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
        _ => return discovery(inner, info, r, local),
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
    let dry = info.dry_run();
    match sub {
        None => {}
        Some("status") if def.status_subresource => {}
        Some("log") if def.builtin && def.plural == "pods" => {
            if info.method != Method::GET {
                return Resp::method_not_allowed("the server does not allow this method on the requested resource");
            }
            return pod_log(inner, info, &def, ns.unwrap_or_default(), name.unwrap_or_default());
        }
        Some("exec") if def.builtin && def.plural == "pods" => {
            return Resp::bad_request("Upgrade request required");
        }
        Some(_) => return Resp::no_route(),
    }
    let resp = verb_call(inner, info, &def, &api_version, ns, name, sub, body, dry);
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
    dry: bool,
) -> Resp {
    let def = def.clone();
    let api_version = api_version.to_string();
    let written = |w: Result<ops::Written, Resp>, code: u16| -> Resp {
        match w {
            Ok(w) => {
                if w.changed && !def.builtin {
                    ops::run_hooks(inner, &def, &api_version, &w.obj);
                }
                obj_resp(code, &w.obj)
            }
            Err(e) => e,
        }
    };
    match (&info.method, name) {
        (m, None) if (*m == Method::GET || *m == Method::HEAD) && sub.is_none() => {
            let table = if def.builtin { None } else { crate::table::wants_table(&info.accept) };
            let r = match table {
                Some(tv) => {
                    list_query(info, &def).and_then(|q| crate::table::list(inner, &def, &api_version, ns, &q, tv))
                }
                None => list_query(info, &def)
                    .and_then(|q| ops::list(inner, &def, &api_version, ns, &q))
                    .map(|b| Resp::raw_json(200, b)),
            };
            r.unwrap_or_else(|e| e)
        }
        (m, Some(n)) if *m == Method::GET || *m == Method::HEAD => {
            let table = if def.builtin || sub.is_some() { None } else { crate::table::wants_table(&info.accept) };
            let r = match table {
                Some(tv) => crate::table::get(&def, &api_version, ns, n, tv),
                None => ops::get(&def, &api_version, ns, n).map(|b| Resp::raw_json(200, b)),
            };
            r.unwrap_or_else(|e| e)
        }
        (&Method::POST, None) if sub.is_none() => match ops::create(inner, &def, &api_version, ns, body, dry) {
            Ok(v) => obj_resp(201, &v),
            Err(e) => e,
        },
        (&Method::PUT, Some(n)) => written(ops::update(inner, &def, &api_version, ns, n, sub, body, dry), 200),
        (&Method::PATCH, Some(n)) => {
            let w = ops::patch(inner, &def, &api_version, ns, n, sub, &info.ctype, body, dry);
            written(w, 200)
        }
        (&Method::DELETE, Some(n)) if sub.is_none() => match ops::delete(inner, &def, &api_version, ns, n, body, dry) {
            Ok(v) => obj_resp(200, &v),
            Err(e) => e,
        },
        (&Method::DELETE, None) if sub.is_none() => match list_query(info, &def)
            .and_then(|q| ops::delete_collection(inner, &def, &api_version, ns, &q, body, dry))
        {
            Ok(b) => Resp::raw_json(200, b),
            Err(e) => e,
        },
        _ => Resp::method_not_allowed("the server does not allow this method on the requested resource"),
    }
}

/// `GET /api/v1/namespaces/{ns}/pods/{pod}/log`.
fn pod_log(inner: &Inner, info: &ReqInfo, def: &ResourceDef, ns: &str, pod: &str) -> Resp {
    let pod_obj = def
        .store
        .map
        .read()
        .expect("store lock")
        .get(&(ns.to_string(), pod.to_string()))
        .map(|e| e.to_value("v1", "Pod"));
    let logs = inner.logs.lock().expect("logs lock");
    let mut containers: Vec<String> = match &pod_obj {
        Some(p) => ["containers", "initContainers", "ephemeralContainers"]
            .iter()
            .flat_map(|k| p.pointer(&format!("/spec/{k}")).and_then(|v| v.as_array()).cloned().unwrap_or_default())
            .filter_map(|c| c.get("name").and_then(|n| n.as_str()).map(String::from))
            .collect(),
        None => logs.keys().filter(|(n, p, _, _)| n == ns && p == pod).map(|(_, _, c, _)| c.clone()).collect(),
    };
    containers.dedup();
    if pod_obj.is_none() && containers.is_empty() {
        return Resp::not_found(def, pod);
    }
    let main_containers: Vec<String> = match &pod_obj {
        Some(p) => p
            .pointer("/spec/containers")
            .and_then(|v| v.as_array())
            .cloned()
            .unwrap_or_default()
            .iter()
            .filter_map(|c| c.get("name").and_then(|n| n.as_str()).map(String::from))
            .collect(),
        None => {
            let mut c = containers.clone();
            c.sort();
            c.dedup();
            c
        }
    };
    let container = match info.q("container").filter(|c| !c.is_empty()) {
        Some(c) => {
            if !containers.iter().any(|x| x == c) {
                return Resp::bad_request(&format!("container {c} is not valid for pod {pod}"));
            }
            c.to_string()
        }
        None if main_containers.len() == 1 => main_containers[0].clone(),
        None if main_containers.is_empty() => {
            return Resp::bad_request(&format!("pod {pod} does not have a container"));
        }
        None => {
            return Resp::bad_request(&format!(
                "a container name must be specified for pod {pod}, choose one of: [{}]",
                main_containers.join(" ")
            ));
        }
    };
    let previous = info.flag("previous");
    let log = logs.get(&(ns.to_string(), pod.to_string(), container.clone(), previous)).cloned();
    drop(logs);
    let Some(log) = log else {
        if previous {
            return Resp::bad_request(&format!(
                "previous terminated container \"{container}\" in pod \"{pod}\" not found"
            ));
        }
        return Resp::text(200, Bytes::new());
    };
    let now = crate::util::now().0;
    let since = info
        .q("sinceSeconds")
        .and_then(|s| s.parse::<i64>().ok())
        .map(|s| now - s)
        .or_else(|| info.q("sinceTime").and_then(crate::util::parse_rfc3339).map(|t| t.0));
    let mut lines: Vec<&((i64, u32), String)> =
        log.lines.iter().filter(|(t, _)| since.is_none_or(|s| t.0 >= s)).collect();
    if let Some(n) = info.q("tailLines").and_then(|s| s.parse::<usize>().ok()) {
        let skip = lines.len().saturating_sub(n);
        lines.drain(..skip);
    }
    let ts = info.flag("timestamps");
    let mut out = String::new();
    for ((secs, nanos), l) in lines {
        if ts {
            out.push_str(&crate::util::format_rfc3339(*secs, Some(*nanos)));
            out.push(' ');
        }
        out.push_str(l);
        out.push('\n');
    }
    let mut bytes = out.into_bytes();
    if let Some(n) = info.q("limitBytes").and_then(|s| s.parse::<usize>().ok()) {
        bytes.truncate(n);
    }
    Resp::text(200, bytes)
}
