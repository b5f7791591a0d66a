//! The values several rules read from a write (the external-name before and after, whether the
//! MR created its object, the MR as a command argument), each a named policy variable so that
//! the printed policy says what it computes. A rule asks for the variables it needs; they are
//! listed in the order of first use, as the API server requires (a variable may only read the
//! ones before it).

use super::cel::{Cel, bound};
use crate::managed::keys;
use crate::placeholder;
use std::cell::RefCell;

/// The annotation kubectl-upjet's own repairs (adopt, restore, promote, migrate) set, in the
/// same write, to the external-name they write: the identity rules let such a write through
/// when, and only when, its value equals the external-name written.
pub const IDENTITY_CHANGE: &str = "kubectl-upjet.io/identity-change";

/// The annotation `guard --mutate` leaves on an MR whose create got its locked ID back.
pub(crate) const IDENTITY_RESTORED: &str = "kubectl-upjet.io/identity-restored";

/// Under `guard --authorize-declarations`, the verb a user must be allowed on
/// [`DECLARE_RESOURCE`] for a declaration ([`IDENTITY_CHANGE`]) to count.
pub const DECLARE_VERB: &str = "declare";

/// The resource of the lock's API group the permission is about. No object of it exists: RBAC
/// grants a verb on a resource name whether or not the API server serves it, and no role that
/// predates the guard names it, so only a role made for it (or a wildcard) grants it.
pub const DECLARE_RESOURCE: &str = "identitychanges";

/// The ClusterRole shipped in `deploy/` that grants [`DECLARE_VERB`] on [`DECLARE_RESOURCE`].
pub const DECLARE_ROLE: &str = "kubectl-upjet-guard-declare";

/// Who a repair's declaration ([`IDENTITY_CHANGE`]) counts for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Declarers {
    /// Anyone who may write the MR (the default): the declaration is a statement, not a right.
    #[default]
    Writers,
    /// Only a user the API server's authorizer allows [`DECLARE_VERB`] on [`DECLARE_RESOURCE`]
    /// of the lock's group (in the MR's namespace, for a namespaced MR): asked by CEL's
    /// `authorizer` in the policy itself, no webhook.
    Authorized,
}

/// The variables one policy uses, in order of first use.
#[derive(Debug, Default)]
pub struct Vars {
    defs: RefCell<Vec<(&'static str, Cel)>>,
    declarers: Declarers,
}

/// `root.metadata.annotations[key]`, or `''` when absent. `nullable` roots (`oldObject`) are
/// checked against null first.
pub fn annotation(root: &str, key: &str, nullable: bool) -> Cel {
    let (present, value) = annotation_parts(root, key, nullable);
    Cel::cond(&present, &value, &Cel::lit(""))
}

/// Whether `root` carries the annotation `key` (with any value).
pub(crate) fn has_annotation(root: &str, key: &str, nullable: bool) -> Cel {
    annotation_parts(root, key, nullable).0
}

fn annotation_parts(root: &str, key: &str, nullable: bool) -> (Cel, Cel) {
    let annotations = Cel::path(&format!("{root}.metadata.annotations"), bound::ANNOTATION);
    let mut present = vec![annotations.has(), annotations.has_key(&Cel::lit(key))];
    if nullable {
        present.insert(0, Cel::path(root, 1).ne(&Cel::constant("null")));
    }
    (Cel::and(present), annotations.at(&Cel::lit(key), bound::ANNOTATION))
}

/// Whether `root` shows a condition `Ready` with status `True` (among its first
/// [`bound::LIST`] conditions; an MR has a handful).
pub fn ready(root: &str) -> Cel {
    let status = Cel::path(&format!("{root}.status"), 1);
    let conditions = status.dot("conditions", bound::OBJECT_LIST);
    let field = |c: &Cel, name: &str, want: &str| {
        let f = c.dot(name, 64);
        Cel::and(vec![f.has(), f.eq(&Cel::lit(want))])
    };
    Cel::and(vec![
        status.has(),
        conditions.has(),
        conditions.size_of().int_cmp("<=", bound::LIST),
        conditions
            .clone()
            .bounded(bound::LIST)
            .exists("c", 1, |c| Cel::and(vec![field(c, "type", "Ready"), field(c, "status", "True")])),
    ])
}

/// The placeholder values a provider writes in place of an ID (`domain::placeholder::KNOWN`).
pub fn placeholders() -> Vec<&'static str> {
    placeholder::KNOWN.iter().map(|p| p.value).collect()
}

impl Vars {
    /// The variables of a policy whose declarations count for `declarers`.
    pub(crate) fn declared_by(declarers: Declarers) -> Vars {
        Vars { declarers, ..Vars::default() }
    }

    /// The variables asked for, in order, as the policy's `variables`.
    pub(crate) fn into_defs(self) -> Vec<(&'static str, Cel)> {
        self.defs.into_inner()
    }

    /// The reference to variable `name`, defined by `def` at its first use.
    pub fn get(&self, name: &'static str, def: impl FnOnce(&Vars) -> Cel) -> Cel {
        if let Some((_, d)) = self.defs.borrow().iter().find(|(n, _)| *n == name) {
            return Cel::var(name, d);
        }
        let d = def(self);
        let reference = Cel::var(name, &d);
        self.defs.borrow_mut().push((name, d));
        reference
    }

    /// The external-name the write carries (`''` when none).
    pub fn ext(&self) -> Cel {
        self.get("externalName", |_| annotation("object", keys::EXTERNAL_NAME, false))
    }

    /// The external-name before the write (`''` on a create or when none).
    pub(crate) fn old_ext(&self) -> Cel {
        self.get("oldExternalName", |_| annotation("oldObject", keys::EXTERNAL_NAME, true))
    }

    /// Whether the written external-name names an object: set and not a placeholder.
    pub(crate) fn ext_is_id(&self) -> Cel {
        self.get("externalNameIsId", |v| is_id(&v.ext()))
    }

    /// Whether the external-name before the write named an object.
    pub(crate) fn old_ext_is_id(&self) -> Cel {
        self.get("oldExternalNameIsId", |v| is_id(&v.old_ext()))
    }

    /// Whether the write changes the external-name (a create always does).
    pub(crate) fn ext_changed(&self) -> Cel {
        self.get("externalNameChanged", |v| {
            Cel::or(vec![Cel::path("request.operation", 1).eq(&Cel::lit("CREATE")), v.ext().ne(&v.old_ext())])
        })
    }

    /// Whether one of kubectl-upjet's repairs says it writes this very external-name
    /// ([`IDENTITY_CHANGE`] equal to it, and not empty), and, under [`Declarers::Authorized`],
    /// the writer may say so.
    pub(crate) fn change_declared(&self) -> Cel {
        match self.declarers {
            Declarers::Writers => self.get("identityChangeDeclared", |v| v.carried_parts()),
            Declarers::Authorized => self.get("identityChangeDeclared", |v| {
                let carried = v.change_carried();
                Cel::and(vec![carried, may_declare()])
            }),
        }
    }

    /// Whether the write carries a declaration of its external-name, allowed or not: what a
    /// refusal's message reads (a message expression has no `authorizer`).
    pub(crate) fn change_carried(&self) -> Cel {
        self.get("identityChangeCarried", |v| v.carried_parts())
    }

    fn carried_parts(&self) -> Cel {
        let declared = annotation("object", IDENTITY_CHANGE, false);
        Cel::and(vec![self.ext().ne(&Cel::lit("")), declared.eq(&self.ext())])
    }

    /// Who the policy's declarations count for.
    pub fn declarers(&self) -> Declarers {
        self.declarers
    }

    /// Whether the MR had created its cloud object before the write: a create-succeeded mark,
    /// a non-empty `status.atProvider`, or Ready=True.
    pub fn created(&self) -> Cel {
        self.get("createdBefore", |_| {
            let succeeded = annotation("oldObject", keys::CREATE_SUCCEEDED, true).ne(&Cel::lit(""));
            let status = Cel::path("oldObject.status", 1);
            let at_provider = status.dot("atProvider", 1);
            let observed = Cel::and(vec![status.has(), at_provider.has(), at_provider.size_of().int_cmp(">", 0)]);
            let not_null = Cel::path("oldObject", 1).ne(&Cel::constant("null"));
            Cel::and(vec![not_null, Cel::or(vec![succeeded, observed, ready("oldObject")])])
        })
    }

    /// The MR as kubectl-upjet's commands take it: `plural.group/name [-n namespace]`.
    pub fn target(&self) -> Cel {
        self.get("target", |_| {
            let ns = Cel::path("object.metadata.namespace", bound::NAMESPACE);
            Cel::concat(vec![
                Cel::path("request.resource.resource", bound::KIND),
                Cel::lit("."),
                Cel::path("request.resource.group", bound::GROUP),
                Cel::lit("/"),
                Cel::path("object.metadata.name", bound::NAME),
                Cel::cond(&ns.has(), &Cel::concat(vec![Cel::lit(" -n "), ns.clone()]), &Cel::lit("")),
            ])
        })
    }

    /// `group/Kind` of the written object.
    pub(crate) fn kind_key(&self) -> Cel {
        self.get("kindKey", |_| {
            Cel::concat(vec![
                Cel::path("request.kind.group", bound::GROUP),
                Cel::lit("/"),
                Cel::path("request.kind.kind", bound::KIND),
            ])
        })
    }
}

/// The namespace of the written object, `''` for a cluster-scoped one (the authorizer's
/// cluster scope).
fn namespace_or_cluster() -> Cel {
    let ns = Cel::path("object.metadata.namespace", bound::NAMESPACE);
    Cel::cond(&ns.has(), &ns, &Cel::lit(""))
}

/// Whether the API server's authorizer allows the requester [`DECLARE_VERB`] on
/// [`DECLARE_RESOURCE`] of the lock's group, in the MR's namespace (cluster-wide for a
/// cluster-scoped MR): one authorization check, the most expensive call admission CEL has.
pub(crate) fn may_declare() -> Cel {
    Cel::path("authorizer", 1)
        .method("group", &[Cel::lit(super::lock::crd::GROUP)], 1)
        .method("resource", &[Cel::lit(DECLARE_RESOURCE)], 1)
        .method("namespace", &[namespace_or_cluster()], 1)
        .method("check", &[Cel::lit(DECLARE_VERB)], super::cel::AUTHZ_CHECK)
        .method("allowed", &[], 1)
}

/// The refusal's last sentence when the write carried a declaration the authorizer did not
/// allow: the permission, the role that grants it and the binding that gives it to the writer
/// (a RoleBinding in the MR's namespace suffices for a namespaced MR).
pub(crate) fn declaration_not_allowed(carried: &Cel) -> Cel {
    let ns = Cel::path("object.metadata.namespace", bound::NAMESPACE);
    let user = Cel::path("request.userInfo.username", bound::USERNAME);
    let permission = format!("{DECLARE_VERB} on {DECLARE_RESOURCE} ({})", super::lock::crd::GROUP);
    let role =
        format!("; the ClusterRole {DECLARE_ROLE} (deploy/clusterrole-guard-declare.yaml) grants it: kubectl create ");
    let bind = Cel::cond(
        &ns.has(),
        &Cel::concat(vec![
            Cel::lit(" in namespace "),
            ns.clone(),
            Cel::lit(&format!("{role}rolebinding {DECLARE_ROLE} -n ")),
            ns.clone(),
            Cel::lit(&format!(" --clusterrole={DECLARE_ROLE} --user=")),
            user.clone(),
        ]),
        &Cel::concat(vec![
            Cel::lit(&format!("{role}clusterrolebinding {DECLARE_ROLE} --clusterrole={DECLARE_ROLE} --user=")),
            user.clone(),
        ]),
    );
    let sentence = Cel::concat(vec![
        Cel::lit(&format!(
            " The write declares it ({IDENTITY_CHANGE}), but the guard counts a declaration only from a user allowed to declare identity changes, and "
        )),
        user,
        Cel::lit(&format!(" is not: missing permission: {permission}")),
        bind,
    ]);
    Cel::cond(carried, &sentence, &Cel::lit(""))
}

/// What the fallback message adds under [`Declarers::Authorized`].
pub(crate) fn declaration_note(declarers: Declarers) -> String {
    match declarers {
        Declarers::Writers => String::new(),
        Declarers::Authorized => format!(
            "; a repair's {IDENTITY_CHANGE} counts only from a user allowed {DECLARE_VERB} on {DECLARE_RESOURCE} ({}), which the ClusterRole {DECLARE_ROLE} grants",
            super::lock::crd::GROUP
        ),
    }
}

/// Whether an external-name names an object: set, and not a placeholder.
pub(crate) fn is_id(ext: &Cel) -> Cel {
    Cel::and(vec![ext.ne(&Cel::lit("")), ext.one_of(&placeholders()).not()])
}
