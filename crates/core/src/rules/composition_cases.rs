//! Table-test support for the composition rules: a legacy XR kind with its claim, XRs of it, MRs
//! it composes, and the tree, fleet and journal they make, so each case reads as the cluster it
//! describes and goes through `Composition::about` as a run does.

use super::{MrEvidence, findings_with};
use crate::composed::keys::{COMPOSITE, RESOURCE_NAME};
use crate::composition::{Composite, Composites, Composition, Earlier, Member, Members, Scope, Xrd};
use crate::finding::{Code, Finding};
use crate::journal::Record;
use crate::managed::FINALIZER;
use crate::testing::Mr;
use serde_json::json;

/// The XRs' apiVersion.
pub const XR_API: &str = "platform.example.org/v1alpha1";

/// The XRD of `XDatabase` (claim `Database`), a LegacyCluster kind, listed in full.
fn xrd() -> Xrd {
    Xrd {
        name: "xdatabases.platform.example.org".into(),
        group: "platform.example.org".into(),
        version: "v1alpha1".into(),
        kind: "XDatabase".into(),
        plural: "xdatabases".into(),
        claim: Some(("Database".into(), "databases".into())),
        scope: Scope::LegacyCluster,
    }
}

/// The XR `orders` with this UID, listing these RecordSets.
pub fn xr(uid: &str, refs: &[&str]) -> Composite {
    let refs: Vec<_> = refs
        .iter()
        .map(|n| json!({"apiVersion": "dns.gcp.upbound.io/v1beta1", "kind": "RecordSet", "name": n}))
        .collect();
    let obj = json!({"apiVersion": XR_API, "kind": "XDatabase",
        "metadata": {"name": "orders", "uid": uid, "labels": {COMPOSITE: "orders"}},
        "spec": {"resourceRefs": refs, "claimRef": {"apiVersion": XR_API, "kind": "Database", "name": "orders", "namespace": "team-a"}}});
    Composite::from_value(&obj).expect("XR decodes")
}

/// [`xr`], being deleted.
pub(crate) fn xr_deleting(uid: &str, refs: &[&str]) -> Composite {
    Composite { deleting: Some("2024-11-30T10:50:00Z".into()), ..xr(uid, refs) }
}

/// A RecordSet `orders-…` the XR `orders` (this UID) composes as resource `resource`, healthy,
/// with crossplane's finalizer and the claim's labels.
pub fn composed(name: &str, xr_uid: &str, resource: &str) -> Mr {
    Mr::new("RecordSet", name)
        .label(COMPOSITE, "orders")
        .label("crossplane.io/claim-name", "orders")
        .label("crossplane.io/claim-namespace", "team-a")
        .annotation(RESOURCE_NAME, resource)
        .owner(XR_API, "XDatabase", "orders", xr_uid)
        .finalizers(&[FINALIZER])
        .healthy()
}

/// The tree of `xrs`, the fleet `fleet` (MRs) and the journal `journal`, as a run builds it.
pub fn tree(xrs: Vec<Composite>, fleet: &[&Mr], journal: &[Record]) -> Composition {
    let mut index = Composites::of_xrds(&[xrd()]);
    index.listed("platform.example.org", "XDatabase");
    index.listed("platform.example.org", "Database");
    for x in xrs {
        index.add(x);
    }
    let members = Members::of(fleet.iter().filter_map(|m| Member::of(&m.build())));
    let earlier = Earlier::from_journal(journal, &members);
    Composition::of(index).with_fleet(members, earlier)
}

/// The finding of `code` on `mr`, judged with the tree.
pub fn judge(code: Code, mr: &Mr, tree: &Composition) -> Option<Finding> {
    let built = mr.build();
    let evidence = MrEvidence { composition: tree.about(&built), ..MrEvidence::default() };
    findings_with(&built, Some(&evidence), super::cases::at()).into_iter().find(|f| f.code == code)
}

/// A journal line recording `id` as the external-name of an MR, composed (`composite`,
/// `resource`) or not.
pub fn journaled(name: &str, uid: &str, id: &str, slot: Option<(&str, &str)>) -> Record {
    Record {
        time: "2024-11-30T09:00:00Z".into(),
        uid: uid.into(),
        group: "dns.gcp.upbound.io".into(),
        kind: "RecordSet".into(),
        namespace: None,
        name: name.into(),
        source: crate::journal::Source::ExternalName,
        id: id.into(),
        composite: slot.map(|(x, _)| x.into()),
        resource: slot.map(|(_, r)| r.into()),
    }
}
