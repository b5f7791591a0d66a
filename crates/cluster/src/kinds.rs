//! API resource kinds from discovery documents, and resolving what the user typed to one of them.
//! Pure: the discovery I/O lives in [`super::discover`].

use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use serde::Deserialize;
use upjet_core::shell::ShellCommand;

/// Characters kept as they are in a URL path segment (RFC 3986 unreserved).
const SEGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~');

/// Percent-encodes one URL path segment or query value. Names and namespaces come from the user
/// (or, for hostile servers, from the cluster); encoded, a name that Kubernetes could never hold
/// is simply not found instead of producing an invalid request.
pub fn segment(s: &str) -> String {
    utf8_percent_encode(s, SEGMENT).to_string()
}

/// One served resource type, with what listing and matching need.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ApiKind {
    /// API group (empty for core).
    pub group: String,
    /// Version used to list it (the group's most preferred version that serves it).
    pub version: String,
    /// Plural resource name (URL segment).
    pub plural: String,
    /// Singular resource name.
    pub singular: String,
    /// Kind.
    pub kind: String,
    /// Namespaced or cluster-scoped.
    pub namespaced: bool,
    /// Short names.
    pub short_names: Vec<String>,
    /// Categories, e.g. `managed`.
    pub categories: Vec<String>,
}

impl ApiKind {
    /// `group/version`.
    pub fn api_version(&self) -> String {
        if self.group.is_empty() { self.version.clone() } else { format!("{}/{}", self.group, self.version) }
    }

    /// `plural.group`, the name kubectl and RBAC use.
    pub fn resource_name(&self) -> String {
        if self.group.is_empty() { self.plural.clone() } else { format!("{}.{}", self.plural, self.group) }
    }

    /// Whether kubectl's `managed` category (Crossplane MRs) includes it.
    pub fn is_managed(&self) -> bool {
        self.categories.iter().any(|c| c == "managed")
    }

    /// The collection URL, optionally inside one namespace.
    pub fn collection_path(&self, namespace: Option<&str>) -> String {
        let base = if self.group.is_empty() {
            format!("/api/{}", self.version)
        } else {
            format!("/apis/{}/{}", self.group, self.version)
        };
        match namespace {
            Some(ns) if self.namespaced => format!("{base}/namespaces/{}/{}", segment(ns), self.plural),
            _ => format!("{base}/{}", self.plural),
        }
    }

    /// The URL of one object.
    pub(crate) fn object_path(&self, namespace: Option<&str>, name: &str) -> String {
        format!("{}/{}", self.collection_path(namespace), segment(name))
    }

    fn names_match(&self, name: &str) -> bool {
        let n = name.to_ascii_lowercase();
        self.kind.eq_ignore_ascii_case(&n)
            || self.plural == n
            || self.singular == n
            || self.short_names.iter().any(|s| s.eq_ignore_ascii_case(&n))
    }

    /// Whether `spec` names this kind: `kind`, `plural`, `singular`, a short name, optionally
    /// followed by `.group` or `.version.group`, as kubectl accepts.
    pub fn matches(&self, spec: &str) -> bool {
        if self.names_match(spec) && !spec.contains('.') {
            return true;
        }
        let Some((name, rest)) = spec.split_once('.') else { return false };
        if !self.names_match(name) {
            return false;
        }
        rest.eq_ignore_ascii_case(&self.group)
            || rest.split_once('.').is_some_and(|(v, g)| v == self.version && g.eq_ignore_ascii_case(&self.group))
    }
}

// ---- aggregated discovery (apidiscovery.k8s.io/v2) ----

#[derive(Deserialize)]
struct AggList {
    #[serde(default)]
    items: Vec<AggGroup>,
}
#[derive(Deserialize)]
struct AggGroup {
    #[serde(default)]
    metadata: NameMeta,
    #[serde(default)]
    versions: Vec<AggVersion>,
}
#[derive(Deserialize, Default)]
struct NameMeta {
    #[serde(default)]
    name: String,
}
#[derive(Deserialize)]
struct AggVersion {
    version: String,
    #[serde(default)]
    resources: Vec<AggResource>,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct AggResource {
    resource: String,
    #[serde(default)]
    response_kind: Option<GvkRef>,
    #[serde(default)]
    scope: String,
    #[serde(default)]
    singular_resource: String,
    #[serde(default)]
    short_names: Option<Vec<String>>,
    #[serde(default)]
    categories: Option<Vec<String>>,
}
#[derive(Deserialize)]
struct GvkRef {
    #[serde(default)]
    kind: String,
}

/// Which discovery document the server answered with.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum DiscoveryDoc {
    /// An `APIGroupDiscoveryList`: everything in one document.
    Aggregated(Vec<ApiKind>),
    /// A legacy `APIGroupList`: (group, versions in preference order) to fetch one by one.
    Legacy(Vec<(String, Vec<String>)>),
}

#[derive(Deserialize)]
struct KindOnly {
    #[serde(default)]
    kind: String,
}

#[derive(Deserialize)]
struct LegacyGroups {
    #[serde(default)]
    groups: Vec<LegacyGroup>,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LegacyGroup {
    name: String,
    #[serde(default)]
    versions: Vec<GroupVersion>,
    #[serde(default)]
    preferred_version: Option<GroupVersion>,
}
#[derive(Deserialize)]
struct GroupVersion {
    version: String,
}

/// Parses the answer to `GET /apis`, whichever form the server chose.
pub(crate) fn parse_apis(body: &str) -> Result<DiscoveryDoc, serde_json::Error> {
    let kind: KindOnly = serde_json::from_str(body)?;
    if kind.kind == "APIGroupDiscoveryList" {
        let list: AggList = serde_json::from_str(body)?;
        let mut out = Vec::new();
        for g in list.items {
            // Versions come most preferred first; a resource is listed through the first version serving it.
            let mut seen = std::collections::HashSet::new();
            for v in g.versions {
                for r in v.resources {
                    if !seen.insert(r.resource.clone()) {
                        continue;
                    }
                    out.push(ApiKind {
                        group: g.metadata.name.clone(),
                        version: v.version.clone(),
                        singular: if r.singular_resource.is_empty() { r.resource.clone() } else { r.singular_resource },
                        plural: r.resource,
                        kind: r.response_kind.map(|k| k.kind).unwrap_or_default(),
                        namespaced: r.scope == "Namespaced",
                        short_names: r.short_names.unwrap_or_default(),
                        categories: r.categories.unwrap_or_default(),
                    });
                }
            }
        }
        Ok(DiscoveryDoc::Aggregated(out))
    } else {
        let list: LegacyGroups = serde_json::from_str(body)?;
        Ok(DiscoveryDoc::Legacy(
            list.groups
                .into_iter()
                .map(|g| {
                    let preferred = g.preferred_version.map(|p| p.version);
                    let mut versions: Vec<String> = g.versions.into_iter().map(|v| v.version).collect();
                    if let Some(p) = preferred {
                        versions.retain(|v| *v != p);
                        versions.insert(0, p);
                    }
                    (g.name, versions)
                })
                .collect(),
        ))
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct ResourceList {
    #[serde(default)]
    resources: Vec<LegacyResource>,
}
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LegacyResource {
    name: String,
    #[serde(default)]
    singular_name: String,
    #[serde(default)]
    namespaced: bool,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    short_names: Option<Vec<String>>,
    #[serde(default)]
    categories: Option<Vec<String>>,
}

/// Parses one legacy `APIResourceList` (`GET /apis/{group}/{version}`); subresources are dropped.
pub(crate) fn parse_resource_list(group: &str, version: &str, body: &str) -> Result<Vec<ApiKind>, serde_json::Error> {
    let list: ResourceList = serde_json::from_str(body)?;
    Ok(list
        .resources
        .into_iter()
        .filter(|r| !r.name.contains('/'))
        .map(|r| ApiKind {
            group: group.to_string(),
            version: version.to_string(),
            singular: if r.singular_name.is_empty() { r.name.clone() } else { r.singular_name },
            plural: r.name,
            kind: r.kind,
            namespaced: r.namespaced,
            short_names: r.short_names.unwrap_or_default(),
            categories: r.categories.unwrap_or_default(),
        })
        .collect())
}

/// Keeps, per group, the first version's entry for each resource (versions arrive most preferred first).
pub(crate) fn dedup_by_preference(kinds: Vec<ApiKind>) -> Vec<ApiKind> {
    let mut seen = std::collections::HashSet::new();
    kinds.into_iter().filter(|k| seen.insert((k.group.clone(), k.plural.clone()))).collect()
}

/// Why a kind could not be resolved.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    /// Nothing matches.
    #[error(
        "no managed resource kind matches {} (try `{}`, or the kind.group form)",
        upjet_core::shell::quoted(.0),
        ShellCommand::kubectl("get").word("crds").pipe("grep").word("-i").arg(.0)
    )]
    Unknown(String),
    /// Several groups serve that name.
    #[error("{spec:?} is ambiguous; it matches {}. Use kind.group", candidates.join(", "))]
    Ambiguous {
        /// What the user typed.
        spec: String,
        /// `kind.group` of each match.
        candidates: Vec<String>,
    },
}

/// Resolves one user-typed kind to exactly one of `kinds`.
pub fn resolve<'a>(kinds: &'a [ApiKind], spec: &str) -> Result<&'a ApiKind, ResolveError> {
    let found: Vec<&ApiKind> = kinds.iter().filter(|k| k.matches(spec)).collect();
    match found.as_slice() {
        [] => Err(ResolveError::Unknown(spec.to_string())),
        [one] => Ok(one),
        many => Err(ResolveError::Ambiguous {
            spec: spec.to_string(),
            candidates: many.iter().map(|k| format!("{}.{}", k.kind.to_lowercase(), k.group)).collect(),
        }),
    }
}

/// Which managed kinds a command covers (`--kind`, `--provider`; neither: every kind), as
/// `commands::resolve` resolves them once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KindSelection {
    /// `--kind`: kind, plural or kind.group.
    pub kinds: Vec<String>,
    /// `--provider`: a group suffix or a provider name.
    pub providers: Vec<String>,
}

impl KindSelection {
    /// The selection of these flags.
    pub fn new(kinds: &[String], providers: &[String]) -> KindSelection {
        KindSelection { kinds: kinds.to_vec(), providers: providers.to_vec() }
    }

    /// The kinds it selects among those served ([`select`]).
    pub fn select(&self, served: Vec<ApiKind>) -> Result<Vec<ApiKind>, ResolveError> {
        select(served, &self.kinds, &self.providers)
    }

    /// Whether an MR read from a file is of a kind asked for (`--kind`; none asked: every kind).
    pub fn keeps(&self, mr: &upjet_core::managed::ManagedResource) -> bool {
        self.kinds.is_empty() || self.kinds.iter().any(|k| mr.matches_kind_spec(k))
    }
}

/// Selects the kinds named by `--kind` (each may match several groups) and `--provider`.
pub fn select(kinds: Vec<ApiKind>, kind_specs: &[String], providers: &[String]) -> Result<Vec<ApiKind>, ResolveError> {
    for spec in kind_specs {
        if !kinds.iter().any(|k| k.matches(spec)) {
            return Err(ResolveError::Unknown(spec.clone()));
        }
    }
    Ok(kinds
        .into_iter()
        .filter(|k| kind_specs.is_empty() || kind_specs.iter().any(|s| k.matches(s)))
        .filter(|k| providers.is_empty() || providers.iter().any(|p| provider_matches(k, p)))
        .collect())
}

/// `--provider` accepts a group suffix (`aws.upbound.io`, `aws.m.upbound.io`) or a provider name
/// (`provider-aws-ec2`, `provider-upjet-gcp`, `aws`), matched against the provider category upjet
/// puts on every CRD and, for family providers, the service part of the group.
pub fn provider_matches(k: &ApiKind, provider: &str) -> bool {
    let p = provider.to_ascii_lowercase();
    if p.contains('.') {
        return k.group == p || k.group.ends_with(&format!(".{p}"));
    }
    let name = p.trim_start_matches("provider-").trim_start_matches("upjet-");
    let mut parts = name.splitn(2, '-');
    let family = parts.next().unwrap_or_default();
    let service = parts.next();
    let in_family = k.categories.iter().any(|c| c == family) || k.group.split('.').nth(1) == Some(family);
    in_family && service.is_none_or(|s| k.group.split('.').next() == Some(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(group: &str, kind: &str, plural: &str, namespaced: bool, cats: &[&str]) -> ApiKind {
        ApiKind {
            group: group.into(),
            version: "v1beta1".into(),
            plural: plural.into(),
            singular: kind.to_lowercase(),
            kind: kind.into(),
            namespaced,
            short_names: vec![],
            categories: cats.iter().map(|s| s.to_string()).collect(),
        }
    }

    #[test]
    fn aggregated_prefers_first_version_and_keeps_categories() {
        let body = r#"{"apiVersion":"apidiscovery.k8s.io/v2","kind":"APIGroupDiscoveryList","items":[
          {"metadata":{"name":"ec2.aws.upbound.io"},"versions":[
            {"version":"v1beta2","resources":[{"resource":"instances","responseKind":{"kind":"Instance"},"scope":"Cluster","singularResource":"instance","categories":["crossplane","managed","aws"]}]},
            {"version":"v1beta1","resources":[{"resource":"instances","responseKind":{"kind":"Instance"},"scope":"Cluster"},
                                               {"resource":"vpcs","responseKind":{"kind":"VPC"},"scope":"Cluster","categories":["crossplane","managed","aws"]}]}]}]}"#;
        let DiscoveryDoc::Aggregated(kinds) = parse_apis(body).unwrap() else { panic!("expected aggregated") };
        assert_eq!(kinds.len(), 2);
        assert_eq!((kinds[0].plural.as_str(), kinds[0].version.as_str()), ("instances", "v1beta2"));
        assert!(kinds.iter().all(ApiKind::is_managed));
    }

    #[test]
    fn legacy_group_list_puts_preferred_first() {
        let body = r#"{"kind":"APIGroupList","apiVersion":"v1","groups":[{"name":"s3.aws.upbound.io","versions":[{"groupVersion":"s3.aws.upbound.io/v1beta1","version":"v1beta1"},{"groupVersion":"s3.aws.upbound.io/v1beta2","version":"v1beta2"}],"preferredVersion":{"groupVersion":"s3.aws.upbound.io/v1beta2","version":"v1beta2"}}]}"#;
        assert_eq!(
            parse_apis(body).unwrap(),
            DiscoveryDoc::Legacy(vec![("s3.aws.upbound.io".into(), vec!["v1beta2".into(), "v1beta1".into()])])
        );
        let rl = r#"{"kind":"APIResourceList","groupVersion":"s3.aws.upbound.io/v1beta2","resources":[
            {"name":"buckets","singularName":"bucket","namespaced":false,"kind":"Bucket","verbs":["get"],"categories":["crossplane","managed","aws"]},
            {"name":"buckets/status","singularName":"","namespaced":false,"kind":"Bucket","verbs":["get"]}]}"#;
        let kinds = parse_resource_list("s3.aws.upbound.io", "v1beta2", rl).unwrap();
        assert_eq!(kinds.len(), 1);
        assert!(kinds[0].is_managed() && !kinds[0].namespaced);
    }

    #[test]
    fn paths_encode_what_users_type() {
        let k = kind("dns.gcp.m.upbound.io", "RecordSet", "recordsets", true, &["managed"]);
        assert_eq!(
            k.object_path(Some("team-a"), "www.example.com"),
            "/apis/dns.gcp.m.upbound.io/v1beta1/namespaces/team-a/recordsets/www.example.com"
        );
        assert_eq!(
            k.object_path(Some("bad ns/%"), "a b?c"),
            "/apis/dns.gcp.m.upbound.io/v1beta1/namespaces/bad%20ns%2F%25/recordsets/a%20b%3Fc"
        );
        assert!(k.object_path(Some("x"), "\u{1b}[2J").parse::<http::Uri>().is_ok());
    }

    #[test]
    fn resolution_like_kubectl() {
        let kinds = vec![
            kind("s3.aws.upbound.io", "Bucket", "buckets", false, &["managed", "aws"]),
            kind("s3.aws.m.upbound.io", "Bucket", "buckets", true, &["managed", "aws"]),
            kind("dns.gcp.upbound.io", "RecordSet", "recordsets", false, &["managed", "gcp"]),
        ];
        assert_eq!(resolve(&kinds, "RecordSet").unwrap().group, "dns.gcp.upbound.io");
        assert_eq!(resolve(&kinds, "recordsets").unwrap().plural, "recordsets");
        assert_eq!(resolve(&kinds, "recordset.dns.gcp.upbound.io").unwrap().kind, "RecordSet");
        assert_eq!(resolve(&kinds, "recordset.v1beta1.dns.gcp.upbound.io").unwrap().kind, "RecordSet");
        assert!(resolve(&kinds, "bucket.s3.aws.m.upbound.io").unwrap().namespaced);
        assert!(matches!(resolve(&kinds, "bucket"), Err(ResolveError::Ambiguous { .. })));
        assert!(matches!(resolve(&kinds, "bucket.s3"), Err(ResolveError::Unknown(_))));
        assert!(matches!(resolve(&kinds, "nope"), Err(ResolveError::Unknown(_))));
    }

    #[test]
    fn selection_by_kind_and_provider() {
        let kinds = vec![
            kind("ec2.aws.upbound.io", "VPC", "vpcs", false, &["managed", "aws"]),
            kind("ec2.aws.m.upbound.io", "VPC", "vpcs", true, &["managed", "aws"]),
            kind("s3.aws.upbound.io", "Bucket", "buckets", false, &["managed", "aws"]),
            kind("dns.gcp.upbound.io", "RecordSet", "recordsets", false, &["managed", "gcp"]),
        ];
        let names = |v: Vec<ApiKind>| v.into_iter().map(|k| k.resource_name()).collect::<Vec<_>>();
        assert_eq!(
            names(select(kinds.clone(), &["vpc".into()], &[]).unwrap()),
            vec!["vpcs.ec2.aws.upbound.io", "vpcs.ec2.aws.m.upbound.io"]
        );
        assert_eq!(names(select(kinds.clone(), &[], &["aws.upbound.io".into()]).unwrap()).len(), 2);
        assert_eq!(
            names(select(kinds.clone(), &[], &["aws.m.upbound.io".into()]).unwrap()),
            vec!["vpcs.ec2.aws.m.upbound.io"]
        );
        assert_eq!(
            names(select(kinds.clone(), &[], &["provider-aws-s3".into()]).unwrap()),
            vec!["buckets.s3.aws.upbound.io"]
        );
        assert_eq!(
            names(select(kinds.clone(), &[], &["provider-upjet-gcp".into()]).unwrap()),
            vec!["recordsets.dns.gcp.upbound.io"]
        );
        assert_eq!(names(select(kinds.clone(), &[], &["gcp".into()]).unwrap()).len(), 1);
        assert!(select(kinds, &["nosuch".into()], &[]).is_err());
    }
}
