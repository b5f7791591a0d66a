//! Conditional writes to one object, and the reads that go with them.
//!
//! Every write `adopt` and `restore` make is a JSON merge patch that carries the
//! `metadata.resourceVersion` it was computed from, so the API server refuses it (409) when
//! someone else wrote in between; this module turns that answer into a typed [`WriteError::Conflict`]
//! the caller resolves by re-reading, never by retrying blindly. A 403 becomes one line naming
//! the verb and resource the RBAC role lacks.

use super::connect::Connection;
use super::kinds::ApiKind;
use super::request::{self, RequestError};
use serde_json::Value;
use upjet_core::error::Error;

/// The field manager recorded in `managedFields` for every write of this tool.
pub(crate) const FIELD_MANAGER: &str = "kubectl-upjet";

/// One object's address: its kind, namespace (for namespaced kinds) and name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The resource type.
    pub kind: ApiKind,
    /// The namespace, `None` for cluster-scoped kinds.
    pub namespace: Option<String>,
    /// The name.
    pub name: String,
}

impl Target {
    /// An address; the namespace is dropped for cluster-scoped kinds.
    pub fn new(kind: ApiKind, namespace: Option<&str>, name: &str) -> Target {
        let namespace = if kind.namespaced { namespace.map(str::to_owned) } else { None };
        Target { kind, namespace, name: name.to_string() }
    }

    /// The object's URL path.
    pub fn path(&self) -> String {
        self.kind.object_path(self.namespace.as_deref(), &self.name)
    }

    /// `kind.group/name [-n ns]`, as commands accept it.
    pub fn display(&self) -> String {
        let base = format!("{}.{}/{}", self.kind.kind.to_lowercase(), self.kind.group, self.name);
        match &self.namespace {
            Some(ns) => format!("{base} -n {ns}"),
            None => base,
        }
    }
}

/// Why a read or write of one object failed.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// 409: the object changed since the resourceVersion the write carried.
    #[error("{target} changed since it was read (409 Conflict)")]
    Conflict {
        /// The object.
        target: String,
    },
    /// 403: RBAC does not allow the verb.
    #[error("forbidden: RBAC does not allow you to {verb} {resource}{scope} ({target}). Server said: {message}")]
    Forbidden {
        /// `get` or `patch`.
        verb: &'static str,
        /// `plural.group`.
        resource: String,
        /// ` in namespace X`, or empty.
        scope: String,
        /// The object.
        target: String,
        /// The API server's message.
        message: String,
    },
    /// Admission refused the write, not RBAC and not a stale read: an admission policy
    /// (`ValidatingAdmissionPolicy '…' with binding '…' denied request: …`, the guard's names the
    /// permission and the role that would let it through) or a webhook, such as Crossplane's Usage
    /// webhook, which answers a refused DELETE with 409 (`admission webhook
    /// "nousages.protection.crossplane.io" denied the request: This resource is in-use by …`).
    #[error("the API server's admission refused to {verb} {target}: {message}")]
    Denied {
        /// `delete`, `patch`, …
        verb: &'static str,
        /// The object.
        target: String,
        /// The API server's message, naming the policy or webhook and its reason.
        message: String,
    },
    /// 404: the object does not exist (any more).
    #[error("{target} not found")]
    NotFound {
        /// The object.
        target: String,
    },
    /// 400/422 and similar: the server refused the content of the write.
    #[error("the API server rejected the change to {target} ({code}): {message}")]
    Rejected {
        /// The object.
        target: String,
        /// HTTP status.
        code: u16,
        /// The server's message.
        message: String,
    },
    /// Transport failure, timeout, 5xx, or an answer that is not an object.
    #[error("{what} {target}: {reason}")]
    Request {
        /// `reading` or `patching`.
        what: &'static str,
        /// The object.
        target: String,
        /// One-line reason.
        reason: String,
        /// The underlying failure, for exit-code mapping.
        #[source]
        source: Option<Box<RequestError>>,
    },
}

/// Whether a 403's message is an admission plugin's refusal rather than RBAC's (whose wording
/// is `User "…" cannot …`): a ValidatingAdmissionPolicy's (k8s.io/apiserver
/// `pkg/admission/plugin/policy/validating/dispatcher.go`) or a webhook's.
fn admission_denial(message: &str) -> bool {
    message.contains("ValidatingAdmissionPolicy '")
        || message.contains("denied request:")
        || message.contains("admission webhook")
}

impl WriteError {
    /// Converts into the shell's error with the right exit code: permission and transport
    /// problems are cluster problems (3); everything else is a failed write (5).
    pub fn into_error(self, conn: &Connection) -> Error {
        match self {
            WriteError::Forbidden { .. } => Error::cluster(self.to_string()),
            WriteError::Request { source: Some(e), what, ref target, .. } => {
                e.explain(conn, &format!("{what} {target}"))
            }
            other => Error::failed(other.to_string()),
        }
    }

    /// How a request about `target` failed, as the caller acts on it (`verb`: `get`, `create`,
    /// `update`, `delete`, `patch`).
    pub(super) fn from_request(e: RequestError, verb: &'static str, target: &Target) -> WriteError {
        let t = target.display();
        let what = match verb {
            "get" => "reading",
            "create" => "creating",
            "update" => "replacing",
            "delete" => "deleting",
            _ => "patching",
        };
        match (&e, e.status_code()) {
            (RequestError::Kube(kube::Error::Api(s)), Some(_)) if s.message.starts_with("admission webhook ") => {
                WriteError::Denied { verb, target: t, message: s.message.clone() }
            }
            (_, Some(409)) => WriteError::Conflict { target: t },
            (RequestError::Kube(kube::Error::Api(s)), Some(403)) if admission_denial(&s.message) => {
                WriteError::Denied { verb, target: t, message: s.message.clone() }
            }
            (RequestError::Kube(kube::Error::Api(s)), Some(403)) => WriteError::Forbidden {
                verb,
                resource: target.kind.resource_name(),
                scope: target.namespace.as_deref().map(|n| format!(" in namespace {n}")).unwrap_or_default(),
                target: t,
                message: super::connect::with_advice(&s.message),
            },
            (_, Some(404)) => WriteError::NotFound { target: t },
            (RequestError::Kube(kube::Error::Api(s)), Some(code @ (400 | 422))) => {
                WriteError::Rejected { target: t, code, message: s.message.clone() }
            }
            _ => WriteError::Request { what, target: t, reason: e.reason(), source: Some(Box::new(e)) },
        }
    }
}

/// The object an answer holds (an error naming `target` when it holds none).
pub(super) fn parse_object(body: &str, what: &'static str, target: &Target) -> Result<Value, WriteError> {
    match serde_json::from_str::<Value>(body) {
        Ok(v) if v.is_object() => Ok(v),
        Ok(_) => Err(WriteError::Request {
            what,
            target: target.display(),
            reason: "the answer is not an object".into(),
            source: None,
        }),
        Err(e) => Err(WriteError::Request {
            what,
            target: target.display(),
            reason: format!("unreadable answer: {e}"),
            source: None,
        }),
    }
}

/// GETs the whole object as JSON (within `--request-timeout`).
pub async fn read(conn: &Connection, target: &Target) -> Result<Value, WriteError> {
    let body = request::text(conn, request::get(&target.path(), "application/json"))
        .await
        .map_err(|e| WriteError::from_request(e, "get", target))?;
    parse_object(&body, "reading", target)
}

/// The request a merge patch is sent as: `application/merge-patch+json`, this tool's field
/// manager, and `dryRun=All` when only the server's verdict is wanted.
pub(crate) fn patch_request(target: &Target, patch: &Value, dry_run: bool) -> http::Request<Vec<u8>> {
    let mut uri = format!("{}?fieldManager={FIELD_MANAGER}", target.path());
    if dry_run {
        uri.push_str("&dryRun=All");
    }
    http::Request::patch(uri)
        .header(http::header::CONTENT_TYPE, "application/merge-patch+json")
        .header(http::header::ACCEPT, "application/json")
        .body(serde_json::to_vec(patch).unwrap_or_default())
        .expect("static request parts are valid")
}

/// Sends one merge patch (which should carry `metadata.resourceVersion`) and returns the object
/// as the server stored it — or, with `dry_run`, as it would have stored it.
pub async fn merge_patch(
    conn: &Connection,
    target: &Target,
    patch: &Value,
    dry_run: bool,
) -> Result<Value, WriteError> {
    let body = request::text(conn, patch_request(target, patch, dry_run))
        .await
        .map_err(|e| WriteError::from_request(e, "patch", target))?;
    parse_object(&body, "patching", target)
}

/// Creates `obj` at `target` (its kind and namespace; the name is the object's own) with this
/// tool's field manager — or, with `dry_run`, asks the API server to validate it with
/// `dryRun=All` (schema, defaults, admission) and returns what it would have stored.
pub async fn create(conn: &Connection, target: &Target, obj: &Value, dry_run: bool) -> Result<Value, WriteError> {
    let mut uri = format!("{}?fieldManager={FIELD_MANAGER}", target.kind.collection_path(target.namespace.as_deref()));
    if dry_run {
        uri.push_str("&dryRun=All");
    }
    let req = http::Request::post(uri)
        .header(http::header::CONTENT_TYPE, "application/json")
        .header(http::header::ACCEPT, "application/json")
        .body(serde_json::to_vec(obj).unwrap_or_default())
        .expect("static request parts are valid");
    let body = request::text(conn, req).await.map_err(|e| WriteError::from_request(e, "create", target))?;
    parse_object(&body, "creating", target)
}

/// Deletes the object, but only the incarnation `uid` names (a precondition: an object
/// re-created under the same name is left alone). A 404 is `NotFound`.
pub async fn delete(conn: &Connection, target: &Target, uid: &str) -> Result<(), WriteError> {
    let body = serde_json::json!({"kind": "DeleteOptions", "apiVersion": "v1", "preconditions": {"uid": uid}});
    let req = http::Request::delete(target.path())
        .header(http::header::CONTENT_TYPE, "application/json")
        .header(http::header::ACCEPT, "application/json")
        .body(serde_json::to_vec(&body).unwrap_or_default())
        .expect("static request parts are valid");
    request::text(conn, req).await.map_err(|e| WriteError::from_request(e, "delete", target))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(namespaced: bool) -> ApiKind {
        ApiKind {
            group: "dns.gcp.upbound.io".into(),
            version: "v1beta2".into(),
            plural: "recordsets".into(),
            singular: "recordset".into(),
            kind: "RecordSet".into(),
            namespaced,
            short_names: vec![],
            categories: vec!["managed".into()],
        }
    }

    #[test]
    fn targets_and_requests() {
        let t = Target::new(kind(false), Some("ignored"), "www");
        assert_eq!(t.namespace, None);
        assert_eq!(t.path(), "/apis/dns.gcp.upbound.io/v1beta2/recordsets/www");
        assert_eq!(t.display(), "recordset.dns.gcp.upbound.io/www");
        let t = Target::new(kind(true), Some("team-a"), "www");
        assert_eq!(t.display(), "recordset.dns.gcp.upbound.io/www -n team-a");
        let req = patch_request(&t, &serde_json::json!({"a": 1}), true);
        assert_eq!(req.method(), http::Method::PATCH);
        assert_eq!(
            req.uri().to_string(),
            "/apis/dns.gcp.upbound.io/v1beta2/namespaces/team-a/recordsets/www?fieldManager=kubectl-upjet&dryRun=All"
        );
        assert_eq!(req.headers()[http::header::CONTENT_TYPE], "application/merge-patch+json");
        assert_eq!(req.body(), br#"{"a":1}"#);
        assert!(!patch_request(&t, &serde_json::json!({}), false).uri().to_string().contains("dryRun"));
    }

    #[test]
    fn forbidden_names_the_verb_and_resource() {
        let t = Target::new(kind(true), Some("team-a"), "www");
        let status = kube::core::Status::failure("recordsets is forbidden: User \"bob\" cannot patch", "Forbidden")
            .with_code(403);
        let e = WriteError::from_request(RequestError::Kube(kube::Error::Api(Box::new(status))), "patch", &t);
        let text = e.to_string();
        assert!(
            text.starts_with(
                "forbidden: RBAC does not allow you to patch recordsets.dns.gcp.upbound.io in namespace team-a"
            ),
            "{text}"
        );
        assert!(!text.contains('\n'));
        let status = kube::core::Status::failure("conflict", "Conflict").with_code(409);
        let e = WriteError::from_request(RequestError::Kube(kube::Error::Api(Box::new(status))), "patch", &t);
        assert!(matches!(e, WriteError::Conflict { .. }));
        // Crossplane's Usage webhook refuses a DELETE with 409: a refusal, not a stale read.
        let usage = "This resource is in-use by 1 usage(s), including the *v1beta1.Usage \"u\" by resource Bucket/b.";
        let status = kube::core::Status::failure(
            &format!("admission webhook \"nousages.protection.crossplane.io\" denied the request: {usage}"),
            usage,
        )
        .with_code(409);
        let e = WriteError::from_request(RequestError::Kube(kube::Error::Api(Box::new(status))), "delete", &t);
        assert!(matches!(e, WriteError::Denied { verb: "delete", .. }), "{e:?}");
        assert!(e.to_string().contains("in-use by 1 usage(s)"), "{e}");
        let e = WriteError::from_request(RequestError::Timeout(std::time::Duration::from_secs(1)), "get", &t);
        assert!(e.to_string().starts_with("reading recordset.dns.gcp.upbound.io/www -n team-a: timed out"), "{e}");
    }

    /// A 403 from an admission policy (the guard's, say) is no RBAC denial: it is said as the
    /// refusal it is, with the policy's message whole.
    #[test]
    fn an_admission_refusal_is_not_called_rbac() {
        let t = Target::new(kind(false), None, "www");
        let message = "recordsets.dns.gcp.upbound.io \"www\" is forbidden: ValidatingAdmissionPolicy 'kubectl-upjet-guard-identity-kept' with binding 'kubectl-upjet-guard-identity-kept' denied request: missing permission: declare on identitychanges";
        let status = kube::core::Status::failure(message, "Forbidden").with_code(403);
        let e = WriteError::from_request(RequestError::Kube(kube::Error::Api(Box::new(status))), "patch", &t);
        assert!(matches!(e, WriteError::Denied { .. }), "{e:?}");
        let text = e.to_string();
        assert!(
            text.starts_with("the API server's admission refused to patch recordset.dns.gcp.upbound.io/www: "),
            "{text}"
        );
        assert!(text.ends_with("missing permission: declare on identitychanges") && !text.contains("RBAC"), "{text}");
    }
}
