//! Responses, and Kubernetes `Status` error bodies shaped like the apiserver's.

use crate::crd::ResourceDef;
use bytes::Bytes;
use serde_json::Value;

/// A response before it becomes an HTTP response.
#[derive(Debug)]
pub(crate) struct Resp {
    pub code: u16,
    pub body: Bytes,
    pub ctype: String,
    pub headers: Vec<(&'static str, String)>,
}

fn q(s: &str) -> String {
    Value::String(s.into()).to_string()
}

impl Resp {
    pub(crate) fn json(code: u16, v: &Value) -> Self {
        Self::raw_json(code, crate::util::to_json(v))
    }

    pub(crate) fn raw_json(code: u16, body: impl Into<Bytes>) -> Self {
        Self { code, body: body.into(), ctype: "application/json".into(), headers: vec![] }
    }

    pub(crate) fn text(code: u16, body: impl Into<Bytes>) -> Self {
        Self { code, body: body.into(), ctype: "text/plain".into(), headers: vec![] }
    }

    /// A `Status` failure body. `details` is `(name, group, kind)`, empty parts omitted;
    /// `extra_details` is raw JSON members appended inside `details` (e.g. causes).
    pub(crate) fn status(
        code: u16,
        reason: &str,
        message: &str,
        details: Option<(&str, &str, &str)>,
        extra_details: Option<String>,
    ) -> Self {
        let mut d = vec![];
        if let Some((name, group, kind)) = details {
            for (k, v) in [("name", name), ("group", group), ("kind", kind)] {
                if !v.is_empty() {
                    d.push(format!("{}:{}", q(k), q(v)));
                }
            }
        }
        if let Some(x) = extra_details {
            d.push(x);
        }
        let details =
            if d.is_empty() && details.is_none() { String::new() } else { format!(",\"details\":{{{}}}", d.join(",")) };
        let reason = if reason.is_empty() { String::new() } else { format!(",\"reason\":{}", q(reason)) };
        let body = format!(
            "{{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{{}},\"status\":\"Failure\",\"message\":{}{reason}{details},\"code\":{code}}}",
            q(message)
        );
        Self::raw_json(code, body)
    }

    pub(crate) fn with_header(mut self, k: &'static str, v: String) -> Self {
        self.headers.push((k, v));
        self
    }

    /// 404 for an unknown path.
    pub(crate) fn no_route() -> Self {
        Self::status(404, "NotFound", "the server could not find the requested resource", Some(("", "", "")), None)
    }

    pub(crate) fn not_found(def: &ResourceDef, name: &str) -> Self {
        Self::status(
            404,
            "NotFound",
            &format!("{} {} not found", def.qualified(), q(name)),
            Some((name, &def.group, &def.plural)),
            None,
        )
    }

    pub(crate) fn already_exists(def: &ResourceDef, name: &str) -> Self {
        Self::status(
            409,
            "AlreadyExists",
            &format!("{} {} already exists", def.qualified(), q(name)),
            Some((name, &def.group, &def.plural)),
            None,
        )
    }

    pub(crate) fn conflict(def: &ResourceDef, name: &str) -> Self {
        Self::status(
            409,
            "Conflict",
            &format!(
                "Operation cannot be fulfilled on {} {}: the object has been modified; please apply your changes to the latest version and try again",
                def.qualified(),
                q(name)
            ),
            Some((name, &def.group, &def.plural)),
            None,
        )
    }

    /// 422 with one field cause, like `Kind "name" is invalid: field: Type: detail`.
    pub(crate) fn invalid(def: &ResourceDef, name: &str, field: &str, cause_reason: &str, detail: &str) -> Self {
        let msg = format!("{} {} is invalid: {field}: {detail}", def.kind, q(name));
        let causes =
            format!("\"causes\":[{{\"reason\":{},\"message\":{},\"field\":{}}}]", q(cause_reason), q(detail), q(field));
        Self::status(422, "Invalid", &msg, Some((name, &def.group, &def.kind)), Some(causes))
    }

    pub(crate) fn bad_request(message: &str) -> Self {
        Self::status(400, "BadRequest", message, None, None)
    }

    pub(crate) fn method_not_allowed(message: &str) -> Self {
        Self::status(405, "MethodNotAllowed", message, Some(("", "", "")), None)
    }
}
