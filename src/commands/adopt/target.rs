//! Which object a command works on: KIND/NAME and a namespace resolved against the cluster's
//! managed kinds, and the object read.

use crate::cli::Cli;
use crate::cluster::connect::Connection;
use crate::cluster::discover;
use crate::cluster::kinds::{self, ApiKind};
use crate::cluster::write::{self, Target, WriteError};
use crate::error::Error;
use crate::output::style;
use serde_json::Value;

/// Every API kind the cluster serves, and the managed ones.
pub(super) struct Kinds {
    /// All kinds (to say "not a managed kind" rather than "unknown").
    pub all: Vec<ApiKind>,
    /// The managed ones.
    pub managed: Vec<ApiKind>,
}

impl Kinds {
    /// Discovers the kinds.
    pub async fn discover(conn: &Connection) -> Result<Kinds, Error> {
        let (all, _) = discover::discover_all(conn, 16).await?;
        let managed = all.iter().filter(|k| k.is_managed()).cloned().collect();
        Ok(Kinds { all, managed })
    }
}

/// Why a target could not be located: the text itself, or its kind or namespace.
pub(super) enum Unlocated {
    /// Not KIND/NAME.
    Spec(Error),
    /// The kind or the namespace.
    Kind(Error),
}

/// Reads the MR `spec` (KIND/NAME) names, in `namespace` (else the context's) when namespaced.
pub(super) async fn resolve(conn: &Connection, spec: &str, namespace: Option<&str>) -> Result<(Target, Value), Error> {
    let kinds = Kinds::discover(conn).await?;
    let target = match locate(conn, &kinds, spec, namespace) {
        Ok(t) => t,
        Err(Unlocated::Spec(e) | Unlocated::Kind(e)) => return Err(e),
    };
    let obj = read_existing(conn, &target).await?;
    Ok((target, obj))
}

/// The address of `spec` (KIND/NAME) among `kinds`, without reading it.
pub(super) fn locate(
    conn: &Connection,
    kinds: &Kinds,
    spec: &str,
    namespace: Option<&str>,
) -> Result<Target, Unlocated> {
    let (kind_spec, name) = split_target(spec).map_err(Unlocated::Spec)?;
    let kind = resolve_kind(kinds, kind_spec).map_err(Unlocated::Kind)?;
    let ns = if kind.namespaced {
        let ns = namespace.map(str::to_owned).unwrap_or_else(|| conn.default_namespace.clone());
        check_name(&ns, "namespace").map_err(Unlocated::Kind)?;
        Some(ns)
    } else {
        None
    };
    Ok(Target::new(kind, ns.as_deref(), name))
}

/// The namespace a command names: `-n`, else none (the context's default applies).
pub(super) fn namespace_flag(cli: &Cli) -> Option<&str> {
    cli.kube.namespace.as_deref()
}

/// Checks that `spec` is KIND/NAME before anything is read (bad input changes nothing and needs
/// no cluster).
pub(super) fn check_spec(spec: &str) -> Result<(), Error> {
    split_target(spec).map(|_| ())
}

fn split_target(target: &str) -> Result<(&str, &str), Error> {
    match target.split_once('/') {
        Some((k, n)) if !k.is_empty() && !n.is_empty() && !n.contains('/') => {
            check_name(n, "name")?;
            Ok((k, n))
        }
        _ => Err(Error::Usage(format!("{target:?} is not KIND/NAME (for example recordset.dns.gcp.upbound.io/www)"))),
    }
}

/// Object names and namespaces go into URLs: only what Kubernetes itself allows (RFC 1123
/// subdomains: lower-case letters, digits, `-` and `.`) is accepted.
pub(super) fn check_name(name: &str, what: &str) -> Result<(), Error> {
    let ok = !name.is_empty()
        && name.len() <= 253
        && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric());
    if ok { Ok(()) } else { Err(Error::Usage(format!("{:?} is not a valid Kubernetes {what}", style::sanitize(name)))) }
}

fn resolve_kind(kinds: &Kinds, spec: &str) -> Result<ApiKind, Error> {
    match kinds::resolve(&kinds.managed, spec) {
        Ok(k) => Ok(k.clone()),
        Err(kinds::ResolveError::Unknown(_)) if kinds.all.iter().any(|k| k.matches(spec)) => {
            Err(Error::Usage(format!(
                "{spec:?} is not a managed resource kind (its CRD is not in the `managed` category); adopt works on Crossplane managed resources only"
            )))
        }
        Err(e) => Err(Error::Usage(e.to_string())),
    }
}

/// Reads the object; "not found" is the user's mistake (exit 2).
pub(super) async fn read_existing(conn: &Connection, target: &Target) -> Result<Value, Error> {
    write::read(conn, target).await.map_err(|e| match e {
        WriteError::NotFound { target } => Error::Usage(format!("{target} not found")),
        other => other.into_error(conn),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets() {
        assert_eq!(split_target("vpc.ec2.aws.upbound.io/main").unwrap(), ("vpc.ec2.aws.upbound.io", "main"));
        assert!(split_target("main").is_err());
        for bad in ["vpc/a b", "vpc/A", "vpc/-a", "vpc/a%2f", "vpc/a\u{1b}"] {
            assert!(split_target(bad).is_err(), "{bad}");
        }
        assert!(check_name("team-a", "namespace").is_ok());
        assert!(check_name(&"a".repeat(254), "name").is_err());
    }
}
