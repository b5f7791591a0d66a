//! The composition tree: claims, XRs and the MRs they compose, linked the way Crossplane's
//! composite reconciler links them, and what that tells about each composed MR's identity.
//!
//! One owner builds it, as one evidence source: the shell lists the XRDs, XRs and claims (live)
//! or reads them beside the MRs (a snapshot, `crossplane resource trace -o json`); this module
//! indexes them ([`Composites`]), collects from every MR scanned what the fleet must know of it
//! ([`Members`]: the slot of its XR and resource name, its UID, its ID), adds the identities
//! earlier MRs held under the same slot (the ID journal, the guard's lock: [`Earlier`]), and hands
//! each MR its share ([`Composition::about`] → [`MrComposition`]) for the rules
//! `ComposedGarbageCollected`, `ComposedRecreated`, `ComposedDuplicate`, `ComposedOrphan` and
//! `CompositionOwnsIdentity`.
//!
//! The keys later work builds on: an XR is `(group, kind, namespace, name)` ([`XrKey`]) — what
//! an XR created again keeps, unlike its UID — and a composed MR is its XR's key plus its
//! `crossplane.io/composition-resource-name`.

mod composite;
mod earlier;
mod facts;
mod index;
mod members;
mod refs;
pub mod trace;
pub mod tree;
mod xrd;

pub use composite::{Composite, ObjRef, Role};
pub use earlier::{Earlier, EarlierId, Source};
pub use facts::{ClaimRef, Composition, MrComposition, Predecessor, XrLink, XrView};
pub use index::{Composites, KindInfo};
pub use members::{Member, Members};
pub use refs::{CompositeRef, complete, refs_of, root_of};
pub use xrd::{GROUP as XRD_GROUP, Scope, Xrd};

use crate::shell::ShellCommand;

/// How long a composed MR its XR does not list yet is taken for a compose in progress: the
/// composite reconciler records a reference before it creates the resource, but the XR listed
/// before the MR can be the version from before that write.
pub(crate) const COMPOSE_GRACE_SECS: i64 = 300;

/// An XR (or claim) by what survives its re-creation: group, kind, namespace and name.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct XrKey {
    /// API group.
    pub group: String,
    /// Kind.
    pub kind: String,
    /// Namespace (a claim, a v2 namespaced XR).
    pub namespace: Option<String>,
    /// Name.
    pub name: String,
}

impl XrKey {
    /// The key of an XR or claim.
    pub fn of(c: &Composite) -> XrKey {
        XrKey {
            group: c.group().to_string(),
            kind: c.kind.clone(),
            namespace: c.namespace.clone(),
            name: c.name.clone(),
        }
    }

    /// `kind.group/name`, as every command of this tool takes an object.
    pub fn reference(&self) -> String {
        format!("{}.{}/{}", self.kind.to_lowercase(), self.group, self.name)
    }

    /// [`XrKey::reference`] with ` -n NS` when namespaced.
    pub fn display(&self) -> String {
        match &self.namespace {
            Some(ns) => format!("{} -n {ns}", self.reference()),
            None => self.reference(),
        }
    }

    /// `kubectl upjet SUBCOMMAND kind.group/name [-n ns]`.
    pub fn upjet_command(&self, subcommand: &'static str) -> ShellCommand {
        ShellCommand::upjet(subcommand).target(self.reference(), self.namespace.as_deref())
    }
}
