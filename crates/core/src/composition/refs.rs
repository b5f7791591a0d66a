//! The XR and claim a finding's MR belongs to, as the report carries them beside each finding
//! (`ResourceState::composite`, `ResourceState::claim`) and the summary counts trees by.

use super::XrKey;
use super::facts::ClaimRef;
use super::index::Composites;
use crate::composed::keys::RESOURCE_NAME;
use crate::managed::ManagedResource;
use serde::Serialize;

/// The XR that composes an MR, as its controller reference (or label) names it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CompositeRef {
    /// `group/version`, when its controller reference says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_version: Option<String>,
    /// Kind, when its controller reference says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// Name.
    pub name: String,
    /// Namespace (the MR's, for a namespaced XR).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// The MR's resource name inside the composition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
}

/// The XR and claim of a composed MR, from the MR alone: its controller reference (else its
/// `crossplane.io/composite` label) and its claim labels. `(None, None)` outside a composition.
pub fn refs_of(mr: &ManagedResource) -> (Option<CompositeRef>, Option<ClaimRef>) {
    let Some(composed) = mr.composed.as_deref() else { return (None, None) };
    let resource = mr.annotation(RESOURCE_NAME).map(str::to_owned);
    let composite = match (&composed.controller, &mr.composite) {
        (Some(c), _) if resource.is_some() || mr.composite.is_some() => Some(CompositeRef {
            api_version: Some(c.api_version.clone()),
            kind: Some(c.kind.clone()),
            name: c.name.clone(),
            namespace: mr.namespace.clone(),
            resource,
        }),
        (None, Some(label)) => Some(CompositeRef {
            api_version: None,
            kind: None,
            name: label.clone(),
            namespace: mr.namespace.clone(),
            resource,
        }),
        _ => None,
    };
    let claim = composed.claim.as_ref().map(|l| ClaimRef {
        api_version: None,
        kind: None,
        namespace: l.namespace.clone(),
        name: l.name.clone(),
    });
    (composite, claim)
}

/// Completes a finding's XR and claim with what the run read: the XR's namespace as its kind
/// places it, and the claim's kind from the XR's `spec.claimRef`.
pub fn complete(composite: &mut Option<CompositeRef>, claim: &mut Option<ClaimRef>, index: &Composites) {
    let Some(c) = composite.as_mut() else { return };
    let (Some(api), Some(kind)) = (&c.api_version, &c.kind) else { return };
    let group = api.rsplit_once('/').map(|(g, _)| g).unwrap_or("");
    let key = index.key_of(group, kind, &c.name, c.namespace.as_deref());
    c.namespace = key.namespace.clone();
    let bound = index.by_key(&key).and_then(|x| index.claim_of_xr(x));
    if let (Some(claim), Some(b)) = (claim.as_mut(), bound)
        && b.name == claim.name
        && b.namespace.as_deref() == Some(claim.namespace.as_str())
    {
        claim.api_version = Some(b.api_version.clone());
        claim.kind = Some(b.kind.clone());
    }
}

/// The tree an MR belongs to, for counting: its claim when it has one, else its XR.
pub fn root_of(composite: Option<&CompositeRef>, claim: Option<&ClaimRef>) -> Option<String> {
    match (claim, composite) {
        (Some(c), _) => Some(format!("claim {}/{}", c.namespace, c.name)),
        (None, Some(x)) => {
            let key = XrKey {
                group: x
                    .api_version
                    .as_deref()
                    .and_then(|a| a.rsplit_once('/'))
                    .map(|(g, _)| g.to_string())
                    .unwrap_or_default(),
                kind: x.kind.clone().unwrap_or_default(),
                namespace: x.namespace.clone(),
                name: x.name.clone(),
            };
            Some(format!("xr {}", key.display()))
        }
        (None, None) => None,
    }
}
