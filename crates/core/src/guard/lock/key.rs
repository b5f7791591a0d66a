//! A lock entry's key: (group, kind, namespace, name) as one map key, and back.
//!
//! The components are joined with `/`, each percent-encoded outside `[A-Za-z0-9._-]` (the
//! characters of a ConfigMap key). Every name, namespace, kind and group the API server admits
//! is made of those characters, so for every real MR the key is the plain join, which is what
//! the policies compute from a request (`group/Kind/namespace/name`, the namespace empty for a
//! cluster-scoped MR). A name that breaks these rules (read from a journal line or a hand-made
//! entry) is encoded, never dropped, and decodes back to itself.

use crate::managed::ManagedResource;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};
use std::fmt;

/// What is kept as is: ASCII letters and digits, `-`, `.` and `_`.
const ENCODED: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_');

/// The identity of an MR for the lock: what a re-created MR shares with the one before it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct LockKey {
    /// API group.
    pub group: String,
    /// Kind.
    pub kind: String,
    /// Namespace of a namespaced MR.
    pub namespace: Option<String>,
    /// Name.
    pub name: String,
}

/// Why a stored key does not decode.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KeyError {
    /// Not four `/`-separated components.
    #[error("{0:?} is not group/kind/namespace/name")]
    Shape(String),
    /// A component that is not the canonical encoding of a UTF-8 string, or an empty kind or name.
    #[error("{0:?} is not an encoded lock key")]
    Encoding(String),
}

fn encode(s: &str) -> String {
    utf8_percent_encode(s, ENCODED).to_string()
}

fn decode(s: &str, whole: &str) -> Result<String, KeyError> {
    let text = percent_decode_str(s).decode_utf8().map_err(|_| KeyError::Encoding(whole.to_string()))?.into_owned();
    if encode(&text) == s { Ok(text) } else { Err(KeyError::Encoding(whole.to_string())) }
}

impl LockKey {
    /// The key of an MR.
    pub fn of(mr: &ManagedResource) -> LockKey {
        LockKey::new(mr.group(), &mr.kind, mr.namespace.as_deref(), &mr.name)
    }

    /// A key from its parts (an empty namespace is a cluster-scoped MR's).
    pub fn new(group: &str, kind: &str, namespace: Option<&str>, name: &str) -> LockKey {
        LockKey {
            group: group.to_string(),
            kind: kind.to_string(),
            namespace: namespace.filter(|n| !n.is_empty()).map(str::to_string),
            name: name.to_string(),
        }
    }

    /// The map key: `group/Kind/namespace/name`, each part encoded.
    pub fn encode(&self) -> String {
        let ns = self.namespace.as_deref().unwrap_or("");
        format!("{}/{}/{}/{}", encode(&self.group), encode(&self.kind), encode(ns), encode(&self.name))
    }

    /// A map key back to its parts.
    pub fn decode(key: &str) -> Result<LockKey, KeyError> {
        let parts: Vec<&str> = key.split('/').collect();
        let [group, kind, namespace, name] = parts[..] else { return Err(KeyError::Shape(key.to_string())) };
        let (kind, name) = (decode(kind, key)?, decode(name, key)?);
        if kind.is_empty() || name.is_empty() {
            return Err(KeyError::Encoding(key.to_string()));
        }
        let namespace = decode(namespace, key)?;
        Ok(LockKey::new(&decode(group, key)?, &kind, Some(&namespace), &name))
    }
}

impl fmt::Display for LockKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.namespace {
            Some(ns) => write!(f, "{}.{} {}/{}", self.kind, self.group, ns, self.name),
            None => write!(f, "{}.{} {}", self.kind, self.group, self.name),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn real_names_are_the_plain_join() {
        let k = LockKey::new("ec2.aws.m.upbound.io", "SecurityGroupRule", Some("team-a"), "web-1.ingress");
        assert_eq!(k.encode(), "ec2.aws.m.upbound.io/SecurityGroupRule/team-a/web-1.ingress");
        let cluster = LockKey::new("ec2.aws.upbound.io", "VPC", None, "main");
        assert_eq!(cluster.encode(), "ec2.aws.upbound.io/VPC//main");
        assert_eq!(LockKey::decode(&cluster.encode()), Ok(cluster));
    }

    #[test]
    fn names_that_break_key_rules_are_encoded_and_come_back() {
        let odd = LockKey::new("g", "K", Some("ns"), "a/b c%d:é");
        assert_eq!(odd.encode(), "g/K/ns/a%2Fb%20c%25d%3A%C3%A9");
        assert_eq!(LockKey::decode(&odd.encode()), Ok(odd));
        for bad in ["g/K/n", "g/K/n/a/b", "g/K/n/a%2", "g/K/n/a%2f", "g//n/a", "g/K/n/", "g/K/n/%FF"] {
            assert!(LockKey::decode(bad).is_err(), "{bad}");
        }
    }

    proptest! {
        #[test]
        fn every_key_round_trips(g in ".{0,20}", k in ".{1,20}", ns in ".{0,20}", n in ".{1,40}") {
            let key = LockKey::new(&g, &k, Some(&ns), &n);
            prop_assert_eq!(LockKey::decode(&key.encode()), Ok(key));
        }

        #[test]
        fn api_server_names_need_no_encoding(
            g in "[a-z0-9]([-a-z0-9.]{0,30}[a-z0-9])?",
            k in "[A-Z][A-Za-z0-9]{0,20}",
            ns in "[a-z0-9]([-a-z0-9]{0,20}[a-z0-9])?",
            n in "[a-z0-9]([-a-z0-9.]{0,40}[a-z0-9])?",
        ) {
            let key = LockKey::new(&g, &k, Some(&ns), &n);
            prop_assert_eq!(key.encode(), format!("{g}/{k}/{ns}/{n}"));
        }
    }
}
