//! Which API a request is for, from its path: version, OpenAPI, discovery, or a resource
//! (group, version, plural, namespace, name, subresource), and its Kubernetes verb.

use crate::reqinfo::ReqInfo;
use hyper::Method;

/// The parsed route.
pub(crate) enum Route {
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

pub(crate) fn route(path: &str) -> Route {
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
pub(crate) fn verb(info: &ReqInfo, has_name: bool) -> &'static str {
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

/// The class a request is counted under in [`crate::Stats::by_class`].
pub(crate) fn class_of(info: &ReqInfo, r: &Route) -> &'static str {
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

/// (namespace, pod) of an exec route.
pub(crate) fn r_parts(r: &Route) -> (String, String) {
    match r {
        Route::Resource { ns, name, .. } => (ns.clone().unwrap_or_default(), name.clone().unwrap_or_default()),
        _ => Default::default(),
    }
}
