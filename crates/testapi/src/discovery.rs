//! Discovery answers: legacy (`/api`, `/apis`, a group, a group version) and aggregated
//! (`apidiscovery.k8s.io/v2`, `v2beta1`), cached until the CRDs change.

use crate::Inner;
use crate::crd::Registry;
use crate::reqinfo::ReqInfo;
use crate::resp::Resp;
use crate::route::Route;
use bytes::Bytes;
use hyper::Method;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;

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

/// A discovery or OpenAPI body, built once per registry state.
pub(crate) fn cached(
    inner: &Inner,
    key: &str,
    build: impl FnOnce(&Registry) -> Option<serde_json::Value>,
) -> Option<Bytes> {
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

/// Answers a discovery request (legacy or aggregated).
pub(crate) fn discovery(inner: &Inner, info: &ReqInfo, r: &Route, local: Option<SocketAddr>) -> Resp {
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
