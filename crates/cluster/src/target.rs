//! The one gateway from what a user typed (`KIND/NAME`, `-n`) to one object in the cluster:
//! doctor, history, adopt, restore and completion all resolve and read MRs through it, so a
//! name is validated, a kind resolved and a 404 explained the same way everywhere.
//!
//! It follows kube-rs's `discovery` + `DynamicObject` pattern: discovery turns the user's kind
//! into an API resource, and the object is read as untyped JSON.

use super::connect::Connection;
use super::discover;
use super::kinds::{self, ApiKind};
use super::request;
use super::write::{self, WriteError};
use serde_json::Value;
use upjet_core::error::Error;

pub use super::write::Target;

/// `KIND/NAME` as typed: a kind spec (`kind`, plural, short name, optionally `.group`) and a name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TargetSpec {
    /// The kind as typed.
    pub kind: String,
    /// The object name (validated).
    pub name: String,
}

impl TargetSpec {
    /// Splits and validates `KIND/NAME`.
    pub fn parse(text: &str) -> Result<TargetSpec, Error> {
        match text.split_once('/') {
            Some((k, n)) if !k.is_empty() && !n.is_empty() && !n.contains('/') => {
                check_name(n, "name")?;
                Ok(TargetSpec { kind: k.to_string(), name: n.to_string() })
            }
            _ => Err(Error::usage(format!("{text:?} is not KIND/NAME (for example recordset.dns.gcp.upbound.io/www)"))),
        }
    }
}

/// Object names and namespaces go into URLs: only what Kubernetes itself allows (RFC 1123
/// subdomains: lower-case letters, digits, `-` and `.`, at most 253 characters) is accepted.
pub fn check_name(name: &str, what: &str) -> Result<(), Error> {
    let ok = !name.is_empty()
        && name.len() <= 253
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric());
    if ok { Ok(()) } else { Err(Error::usage(format!("{name:?} is not a valid Kubernetes {what}"))) }
}

/// Every kind the cluster serves, and the managed ones (kubectl's `managed` category): all of
/// them are kept so that a kind that exists but is not managed is named as such.
#[derive(Clone, Debug, Default)]
pub struct Kinds {
    /// Every served kind.
    pub all: Vec<ApiKind>,
    /// The managed ones.
    pub managed: Vec<ApiKind>,
}

impl Kinds {
    /// Asks the API server (uncached: one-object commands must see a kind installed a second ago).
    pub async fn discover(conn: &Connection) -> Result<Kinds, Error> {
        let (all, _) = discover::discover_all(conn, 16).await?;
        let managed = all.iter().filter(|k| k.is_managed()).cloned().collect();
        Ok(Kinds { all, managed })
    }

    /// Resolves a kind spec among the managed kinds; every command here works on Crossplane
    /// managed resources only.
    pub fn resolve(&self, spec: &str) -> Result<ApiKind, Error> {
        match kinds::resolve(&self.managed, spec) {
            Ok(k) => Ok(k.clone()),
            Err(kinds::ResolveError::Unknown(_)) if self.all.iter().any(|k| k.matches(spec)) => {
                Err(Error::usage(format!(
                    "{spec:?} is not a managed resource kind (its CRD is not in the `managed` category); kubectl upjet works on Crossplane managed resources only"
                )))
            }
            Err(e) => Err(Error::usage(e.to_string())),
        }
    }
}

/// The address of `spec` among `kinds`, without reading it. A namespaced kind is looked up in
/// `namespace`, else the kubeconfig context's default, which is validated like a name.
pub fn locate(conn: &Connection, kinds: &Kinds, spec: &TargetSpec, namespace: Option<&str>) -> Result<Target, Error> {
    let kind = kinds.resolve(&spec.kind)?;
    let ns = if kind.namespaced {
        let ns = namespace.unwrap_or(&conn.default_namespace);
        check_name(ns, "namespace")?;
        Some(ns)
    } else {
        None
    };
    Ok(Target::new(kind, ns, &spec.name))
}

/// Resolves `spec` (in `namespace`, for namespaced kinds) to an address.
pub async fn resolve_target(conn: &Connection, spec: &TargetSpec, namespace: Option<&str>) -> Result<Target, Error> {
    locate(conn, &Kinds::discover(conn).await?, spec, namespace)
}

/// Reads one object; a 404 is the user's mistake (exit 2), anything else is explained.
pub async fn get(conn: &Connection, target: &Target) -> Result<Value, Error> {
    write::read(conn, target).await.map_err(|e| match e {
        WriteError::NotFound { .. } => not_found(target),
        other => other.into_error(conn),
    })
}

fn not_found(target: &Target) -> Error {
    let where_ = target.namespace.as_ref().map(|n| format!(" in namespace {n}")).unwrap_or_default();
    Error::usage(format!(
        "{}.{} {:?} not found{where_}",
        target.kind.kind.to_lowercase(),
        target.kind.group,
        target.name
    ))
}

/// The names of the objects of one kind (first 500), for completion.
pub async fn names(conn: &Connection, kind: &ApiKind, namespace: Option<&str>) -> Option<Vec<String>> {
    let path = format!("{}?limit=500", kind.collection_path(namespace));
    let body = request::text(conn, request::get(&path, "application/json")).await.ok()?;
    Some(names_in_list(&body))
}

/// The namespaces of the cluster, for completion.
pub async fn namespaces(conn: &Connection) -> Option<Vec<String>> {
    let body = request::text(conn, request::get("/api/v1/namespaces", "application/json")).await.ok()?;
    Some(names_in_list(&body))
}

fn names_in_list(body: &str) -> Vec<String> {
    #[derive(serde::Deserialize)]
    struct List {
        #[serde(default)]
        items: Vec<Item>,
    }
    #[derive(serde::Deserialize)]
    struct Item {
        metadata: Meta,
    }
    #[derive(serde::Deserialize)]
    struct Meta {
        name: String,
    }
    serde_json::from_str::<List>(body)
        .map(|l| l.items.into_iter().map(|i| i.metadata.name).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_split_and_names_validated() {
        let spec = TargetSpec::parse("recordset.dns.gcp.upbound.io/www").unwrap();
        assert_eq!((spec.kind.as_str(), spec.name.as_str()), ("recordset.dns.gcp.upbound.io", "www"));
        for bad in ["www", "/www", "kind/", "a/b/c"] {
            assert!(TargetSpec::parse(bad).unwrap_err().to_string().contains("is not KIND/NAME"), "{bad}");
        }
        for bad in ["w w", "W", "-a", "a-", "a\u{1b}[2J"] {
            let err = TargetSpec::parse(&format!("recordset/{bad}")).unwrap_err().to_string();
            assert!(err.contains("is not a valid Kubernetes name") && !err.contains('\u{1b}'), "{bad}: {err}");
        }
        assert!(check_name(&"a".repeat(253), "name").is_ok());
        assert!(check_name(&"a".repeat(254), "name").is_err());
    }

    #[test]
    fn lists_yield_names() {
        assert_eq!(names_in_list(r#"{"items":[{"metadata":{"name":"a"}},{"metadata":{"name":"b"}}]}"#), ["a", "b"]);
        assert!(names_in_list("not json").is_empty());
    }
}
