//! Which provider config an MR uses. Crossplane v2 made it a (kind, namespace, name) triple; a
//! name alone no longer says which credentials (which cloud account) an MR's object lives under.

/// The provider config kind a legacy cluster-scoped MR refers to, and a namespaced MR's
/// namespaced one (it lives in the MR's namespace).
pub(crate) const PROVIDER_CONFIG: &str = "ProviderConfig";
/// The cluster-scoped provider config kind of Crossplane v2 namespaced MRs.
pub(crate) const CLUSTER_PROVIDER_CONFIG: &str = "ClusterProviderConfig";

/// Which provider config an MR uses, as (kind, namespace, name): in Crossplane v2 a namespaced
/// MR's `providerConfigRef` is `{kind, name}` and a `ProviderConfig` lives in the MR's own
/// namespace, so team-a's ProviderConfig `default`, team-b's and the ClusterProviderConfig
/// `default` are three different credentials (accounts). Everything keyed by provider config
/// (summary groups, ID templates, the cloud record's principals, inventory accounts) keys by this.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProviderConfigKey {
    /// `ProviderConfig` or `ClusterProviderConfig` (or whatever kind the reference names).
    pub kind: String,
    /// The MR's namespace for a namespaced `ProviderConfig`; `None` for cluster-scoped ones.
    pub namespace: Option<String>,
    /// The provider config's name.
    pub name: String,
}

impl ProviderConfigKey {
    /// A legacy cluster-scoped MR's reference (`{name}` only): the cluster-scoped ProviderConfig.
    pub(crate) fn cluster_scoped(name: &str) -> ProviderConfigKey {
        ProviderConfigKey { kind: PROVIDER_CONFIG.into(), namespace: None, name: name.into() }
    }

    /// The key a reference gives for an MR in `namespace` (`None`: a legacy cluster-scoped MR,
    /// whose reference has no kind). A namespaced MR's reference without a kind reads as a
    /// ClusterProviderConfig: crossplane-runtime's v2 `ManagedResourceSpec` defaults the whole
    /// reference to `{kind: ClusterProviderConfig, name: default}` (apis/common/v2/resource.go)
    /// and the API server requires `kind` once a reference is given.
    pub(crate) fn of_ref(
        name: Option<String>,
        kind: Option<String>,
        namespace: Option<&str>,
    ) -> Option<ProviderConfigKey> {
        let name = name.filter(|n| !n.is_empty())?;
        let kind = kind.filter(|k| !k.is_empty());
        Some(match (namespace, kind) {
            (None, kind) => {
                ProviderConfigKey { kind: kind.unwrap_or_else(|| PROVIDER_CONFIG.into()), namespace: None, name }
            }
            (Some(_), None) => ProviderConfigKey { kind: CLUSTER_PROVIDER_CONFIG.into(), namespace: None, name },
            (Some(ns), Some(kind)) => {
                let namespace = (kind == PROVIDER_CONFIG).then(|| ns.to_string());
                ProviderConfigKey { kind, namespace, name }
            }
        })
    }

    /// The key the API server defaults an MR without a reference to: the ProviderConfig
    /// `default` (legacy, v1 `+kubebuilder:default={"name": "default"}`) or the
    /// ClusterProviderConfig `default` (v2 namespaced MRs).
    pub(crate) fn default_for(namespaced: bool) -> ProviderConfigKey {
        let kind = if namespaced { CLUSTER_PROVIDER_CONFIG } else { PROVIDER_CONFIG };
        ProviderConfigKey { kind: kind.into(), namespace: None, name: "default".into() }
    }
}

/// In words, as tables and messages show it: a legacy cluster-scoped ProviderConfig by its name
/// alone (as before Crossplane v2), the others with their kind and a namespaced one with its
/// namespace: `default`, `ClusterProviderConfig default`, `ProviderConfig team-a/default`.
impl std::fmt::Display for ProviderConfigKey {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match (&self.namespace, self.kind.as_str()) {
            (None, PROVIDER_CONFIG) => f.write_str(&self.name),
            (None, kind) => write!(f, "{kind} {}", self.name),
            (Some(ns), kind) => write!(f, "{kind} {ns}/{}", self.name),
        }
    }
}

/// Written as its words ([`Display`](std::fmt::Display)), so a legacy fleet's report reads as
/// it always did and a v2 one names the kind and namespace.
impl serde::Serialize for ProviderConfigKey {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}
