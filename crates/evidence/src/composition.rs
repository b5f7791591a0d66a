//! Reading the composition tree's objects: XRDs, XRs and claims out of list items (a live list,
//! a snapshot's `kubectl get composite,claim -A -o json` beside the MRs, the objects of a
//! `crossplane resource trace -o json`, which the snapshot reader unfolds with
//! `upjet_core::composition::trace`).

use serde::Deserialize;
use serde_json::Value;
use upjet_core::composition::{Composite, Composites, Xrd};

/// The API version and kind of an item, read without the rest of it.
#[derive(Deserialize)]
struct Head {
    #[serde(default, rename = "apiVersion")]
    api_version: String,
    #[serde(default)]
    kind: String,
}

/// What a set of items holds of the composition tree: the index of its XRDs, XRs and claims,
/// which items those are (by position), and the items that could not be read as one.
#[derive(Debug, Default)]
pub struct Sorted {
    /// The XRDs, XRs and claims.
    pub index: Composites,
    /// `taken[i]`: item `i` is an XRD, XR or claim, no MR.
    pub taken: Vec<bool>,
    /// How many XRDs, XRs and claims.
    pub counts: (usize, usize, usize),
}

/// Sorts `items` (JSON texts): the XRDs first (they say which kinds are XRs and claims, and
/// those kinds count as listed in full), then every other item whose kind an XRD names or whose
/// shape is a composite's. An MR (it has `spec.forProvider`) is never taken.
pub fn sort<'a>(items: impl Iterator<Item = &'a str> + Clone) -> Sorted {
    let mut xrds = Vec::new();
    let mut taken = Vec::new();
    for text in items.clone() {
        // A byte check first: a fleet's items are MRs, and nearly none names the XRD kind.
        let head =
            text.contains("CompositeResourceDefinition").then(|| serde_json::from_str::<Head>(text).ok()).flatten();
        let is_xrd = head.is_some_and(|h| Xrd::is_xrd(&h.api_version, &h.kind));
        if is_xrd && let Some(x) = serde_json::from_str::<Value>(text).ok().and_then(|v| Xrd::from_value(&v).ok()) {
            xrds.push(x);
        }
        taken.push(is_xrd);
    }
    let mut index = Composites::of_xrds(&xrds);
    for x in &xrds {
        index.listed(&x.group, &x.kind);
        if let Some((claim, _)) = &x.claim {
            index.listed(&x.group, claim);
        }
    }
    let (mut xr_count, mut claim_count) = (0, 0);
    for (i, text) in items.enumerate() {
        // An MR has `spec.forProvider` (the byte check spares decoding a fleet twice).
        if taken[i] || text.contains("\"forProvider\"") {
            continue;
        }
        let Ok(c) = Composite::from_json(text) else { continue };
        let known = index.kind(c.group(), &c.kind).map(|k| k.role);
        if known.is_none() && c.shape.is_none() {
            continue;
        }
        let role = known.or(c.shape);
        if index.add(c) {
            taken[i] = true;
            match role {
                Some(upjet_core::composition::Role::Claim) => claim_count += 1,
                _ => xr_count += 1,
            }
        }
    }
    Sorted { index, taken, counts: (xrds.len(), xr_count, claim_count) }
}

/// Reads the XRDs of a list answer (`items`), each on its own: one that does not decode is named.
pub fn xrds(items: &[&str]) -> (Vec<Xrd>, Vec<String>) {
    let (mut out, mut bad) = (Vec::new(), Vec::new());
    for text in items {
        match serde_json::from_str::<Value>(text).and_then(|v| Xrd::from_value(&v)) {
            Ok(x) => out.push(x),
            Err(e) => bad.push(format!("CompositeResourceDefinition: {e}")),
        }
    }
    (out, bad)
}

/// Reads the XRs or claims of a list answer (`items`).
pub fn composites(items: &[&str]) -> (Vec<Composite>, Vec<String>) {
    let (mut out, mut bad) = (Vec::new(), Vec::new());
    for text in items {
        match Composite::from_json(text) {
            Ok(c) => out.push(c),
            Err(e) => bad.push(format!("composite resource: {e}")),
        }
    }
    (out, bad)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// An XRD names its kinds; without one, a composite's shape does; an MR is never taken.
    #[test]
    fn sorting_takes_xrds_xrs_and_claims_and_leaves_mrs() {
        let xrd = json!({"apiVersion": "apiextensions.crossplane.io/v1", "kind": "CompositeResourceDefinition",
            "metadata": {"name": "xdatabases.platform.example.org"},
            "spec": {"group": "platform.example.org", "names": {"kind": "XDatabase", "plural": "xdatabases"},
                "claimNames": {"kind": "Database", "plural": "databases"},
                "versions": [{"name": "v1alpha1", "served": true, "referenceable": true}]}});
        let claim = json!({"apiVersion": "platform.example.org/v1alpha1", "kind": "Database",
            "metadata": {"name": "orders", "namespace": "team-a"}, "spec": {}});
        let app = json!({"apiVersion": "apps.example.org/v1", "kind": "App", "metadata": {"name": "shop", "namespace": "b"},
            "spec": {"crossplane": {"resourceRefs": []}}});
        let mr = json!({"apiVersion": "rds.aws.upbound.io/v1beta1", "kind": "Instance", "metadata": {"name": "i"},
            "spec": {"forProvider": {}}});
        let texts: Vec<String> = [xrd, claim, app, mr].iter().map(Value::to_string).collect();
        let sorted = sort(texts.iter().map(String::as_str));
        assert_eq!(sorted.taken, [true, true, true, false]);
        assert_eq!(sorted.counts, (1, 1, 1));
        assert_eq!(sorted.index.claims().count(), 1, "the XRD says Database is a claim, though its spec is empty");
        assert!(sorted.index.kind("platform.example.org", "XDatabase").is_some_and(|k| k.listed));
    }
}
