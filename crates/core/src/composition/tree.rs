//! A claim or XR and everything under it, as `crossplane resource trace` draws it (claim → XR →
//! composed resources, nested XRs in place), with each MR's identity and findings: what
//! `doctor CLAIM|XR` prints for the terminal. Pure: the nodes are built from what was read.
//!
//! An XR's children are its resource references, in order; then the MRs of its slots it does
//! not list (an MR it no longer lists, one an earlier XR of its name composed), each with a note
//! saying why it is there.

use super::XrKey;
use super::composite::Composite;
use super::index::Composites;
use crate::composed::keys::RESOURCE_NAME;
use crate::finding::{Code, Finding, Severity};
use crate::managed::{Condition, ManagedResource};
use serde::Serialize;

/// What a node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum NodeRole {
    /// A v1 claim.
    Claim,
    /// A composite resource.
    Xr,
    /// A managed resource.
    Mr,
    /// A reference to an object that was not found.
    Missing,
}

/// One node of the tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Node {
    /// What it is.
    pub role: NodeRole,
    /// Kind.
    pub kind: String,
    /// Name.
    pub name: String,
    /// Namespace.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// `Ready`'s status, `-` without one.
    pub ready: String,
    /// `Synced`'s status, `-` without one.
    pub synced: String,
    /// The reason of the condition that matters, as trace shows it.
    pub status: String,
    /// An MR's composition-resource-name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
    /// An MR's identity: its external-name, `placeholder …`, or `none`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identity: Option<String>,
    /// Its findings' codes and severities.
    pub findings: Vec<(Code, Severity)>,
    /// Why it hangs here though the XR does not list it, or that it is being deleted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Its children.
    pub children: Vec<Node>,
}

/// The status columns of an object with these conditions, as `crossplane resource trace`
/// computes them: both true shows Ready's reason; otherwise Synced's when false, else Ready's.
fn columns(conditions: &[Condition]) -> (String, String, String) {
    let find = |t: &str| conditions.iter().find(|c| c.type_ == t);
    let status = |c: Option<&Condition>| c.map(|c| c.status.clone()).filter(|s| !s.is_empty()).unwrap_or("-".into());
    let (ready, synced) = (find("Ready"), find("Synced"));
    let reason = match (ready, synced) {
        (Some(r), Some(s)) if r.status == "True" && s.status == "True" => r.reason.clone(),
        (_, Some(s)) if s.status == "False" => s.reason.clone(),
        (r, _) => r.map(|r| r.reason.clone()).unwrap_or_default(),
    };
    (status(ready), status(synced), reason)
}

fn composite_node(c: &Composite, role: NodeRole) -> Node {
    let (ready, synced, status) = columns(&c.conditions);
    let note = match (&c.deleting, c.paused) {
        (Some(at), _) => Some(format!("being deleted since {at}")),
        (None, true) => Some("paused (crossplane.io/paused)".to_string()),
        _ => None,
    };
    Node {
        role,
        kind: c.kind.clone(),
        name: c.name.clone(),
        namespace: c.namespace.clone(),
        ready,
        synced,
        status,
        resource: None,
        identity: None,
        findings: Vec::new(),
        note,
        children: Vec::new(),
    }
}

fn mr_node(mr: &ManagedResource, findings: &[Finding], note: Option<String>) -> Node {
    let (ready, synced, status) = columns(&mr.conditions);
    let identity = match (mr.external_name(), mr.external_name_placeholder()) {
        (Some(id), _) => id.to_string(),
        (None, Some(p)) => format!("{} (placeholder)", p.value),
        (None, None) => "none".to_string(),
    };
    let note = note.or_else(|| mr.deletion_timestamp.as_ref().map(|at| format!("being deleted since {at}")));
    Node {
        role: NodeRole::Mr,
        kind: mr.kind.clone(),
        name: mr.name.clone(),
        namespace: mr.namespace.clone(),
        ready,
        synced,
        status,
        resource: mr.annotation(RESOURCE_NAME).map(str::to_owned),
        identity: Some(identity),
        findings: findings.iter().map(|f| (f.code, f.severity)).collect(),
        note,
        children: Vec::new(),
    }
}

/// The tree under `root` (a claim or an XR): its XR's references resolved among the index's XRs
/// and `mrs` (each MR with its findings), and the MRs of its slots it does not list.
pub fn build(root: &Composite, index: &Composites, mrs: &[(ManagedResource, Vec<Finding>)]) -> Node {
    let mut placed = vec![false; mrs.len()];
    match index.role(root) {
        Some(super::Role::Claim) => {
            let mut node = composite_node(root, NodeRole::Claim);
            match index.xr_of_claim(root) {
                Some(xr) => node.children.push(xr_tree(xr, index, mrs, &mut placed, 0)),
                None => node.children.extend(root.refs.first().map(|r| missing(&r.kind, &r.name, None))),
            }
            node
        }
        _ => xr_tree(root, index, mrs, &mut placed, 0),
    }
}

fn missing(kind: &str, name: &str, namespace: Option<String>) -> Node {
    Node {
        role: NodeRole::Missing,
        kind: kind.to_string(),
        name: name.to_string(),
        namespace,
        ready: "-".into(),
        synced: "-".into(),
        status: "NotFound".into(),
        resource: None,
        identity: None,
        findings: Vec::new(),
        note: Some("referenced, not found".into()),
        children: Vec::new(),
    }
}

fn xr_tree(
    xr: &Composite,
    index: &Composites,
    mrs: &[(ManagedResource, Vec<Finding>)],
    placed: &mut [bool],
    depth: usize,
) -> Node {
    let mut node = composite_node(xr, NodeRole::Xr);
    for r in &xr.refs {
        let ns = r.namespace.clone().filter(|n| !n.is_empty()).or(xr.namespace.clone());
        let key =
            XrKey { group: r.group().to_string(), kind: r.kind.clone(), namespace: ns.clone(), name: r.name.clone() };
        let found = mrs.iter().position(|(m, _)| {
            m.group() == key.group
                && m.kind == key.kind
                && m.name == key.name
                && (m.namespace.is_none() || m.namespace == ns)
        });
        match found {
            Some(i) => {
                placed[i] = true;
                node.children.push(mr_node(&mrs[i].0, &mrs[i].1, None));
            }
            None => match index.by_key(&key).or_else(|| index.by_key(&XrKey { namespace: None, ..key.clone() })) {
                Some(nested) if depth < 8 => node.children.push(xr_tree(nested, index, mrs, placed, depth + 1)),
                _ => node.children.push(missing(&r.kind, &r.name, ns)),
            },
        }
    }
    for (i, (mr, findings)) in mrs.iter().enumerate() {
        if placed[i] {
            continue;
        }
        if let Some(note) = unlisted(mr, xr) {
            placed[i] = true;
            node.children.push(mr_node(mr, findings, Some(note)));
        }
    }
    node
}

/// Why an MR the XR does not list hangs under it, when it does: the XR controls it, an earlier
/// XR of its kind and name did, or its composite label names it.
fn unlisted(mr: &ManagedResource, xr: &Composite) -> Option<String> {
    let controller = mr.composed.as_deref().and_then(|c| c.controller.as_ref());
    match controller {
        Some(c) if c.uid == xr.uid => Some("controlled by this XR, not in its resource references".into()),
        Some(c) if c.name == xr.name && c.kind == xr.kind && c.group() == xr.group() => {
            Some(format!("composed by an earlier {} of this name (uid {})", xr.kind, c.uid))
        }
        Some(_) => None,
        None if mr.composite.as_deref() == Some(xr.name.as_str()) => {
            Some("labelled for this XR, no controller reference".into())
        }
        None => None,
    }
}

/// The nodes of a tree depth-first, each with its depth: what a printer walks.
pub fn walk(root: &Node) -> Vec<(usize, bool, &Node)> {
    fn visit<'a>(n: &'a Node, depth: usize, last: bool, out: &mut Vec<(usize, bool, &'a Node)>) {
        out.push((depth, last, n));
        for (i, c) in n.children.iter().enumerate() {
            visit(c, depth + 1, i + 1 == n.children.len(), out);
        }
    }
    let mut out = Vec::new();
    visit(root, 0, true, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::composition::Composites;
    use crate::testing::Mr;
    use serde_json::json;

    fn xr(uid: &str, refs: &[&str]) -> Composite {
        let refs: Vec<_> = refs
            .iter()
            .map(|n| json!({"apiVersion": "dns.gcp.upbound.io/v1beta1", "kind": "RecordSet", "name": n}))
            .collect();
        Composite::from_value(&json!({"apiVersion": "platform.example.org/v1alpha1", "kind": "XDns",
            "metadata": {"name": "shop", "uid": uid}, "spec": {"resourceRefs": refs},
            "status": {"conditions": [{"type": "Ready", "status": "False", "reason": "Creating"}, {"type": "Synced", "status": "True", "reason": "ReconcileSuccess"}]}}))
        .unwrap()
    }

    fn member(name: &str, xr_uid: &str, id: Option<&str>) -> ManagedResource {
        let mr = Mr::new("RecordSet", name)
            .label("crossplane.io/composite", "shop")
            .annotation(RESOURCE_NAME, "www")
            .owner("platform.example.org/v1alpha1", "XDns", "shop", xr_uid)
            .healthy();
        match id {
            Some(id) => mr.external_name(id).build(),
            None => mr.build(),
        }
    }

    /// The XR's references in order, a reference to nothing, and an earlier incarnation's MR
    /// under it with a note.
    #[test]
    fn an_xr_shows_what_it_lists_then_what_it_does_not() {
        let mut index = Composites::default();
        let root = xr("xr-2", &["shop-new", "shop-gone"]);
        index.add(root.clone());
        let mrs = vec![
            (member("shop-old", "xr-1", Some("www-1")), Vec::new()),
            (member("shop-new", "xr-2", None), Vec::new()),
        ];
        let tree = build(&root, &index, &mrs);
        let rows: Vec<(usize, &str, Option<&str>)> =
            walk(&tree).into_iter().map(|(d, _, n)| (d, n.name.as_str(), n.identity.as_deref())).collect();
        assert_eq!(
            rows,
            [(0, "shop", None), (1, "shop-new", Some("none")), (1, "shop-gone", None), (1, "shop-old", Some("www-1"))]
        );
        assert_eq!(tree.status, "Creating");
        assert_eq!(tree.children[1].role, NodeRole::Missing);
        assert!(tree.children[2].note.as_deref().is_some_and(|n| n.contains("earlier XDns")), "{:?}", tree.children[2]);
    }
}
