//! What a 403 means for this plugin: the permission the apiserver says is missing, and which of
//! the shipped ClusterRoles (`deploy/`) grants it, so every "forbidden" a command prints ends with
//! the role to bind and the command that binds it.
//!
//! The apiserver words every RBAC denial the same way (`forbiddenMessage` in
//! `k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go`):
//! `User "U" cannot VERB resource "R[/SUB]" in API group "G" (in the namespace "N"|at the cluster
//! scope)`, or `User "U" cannot VERB path "/P"` outside resources.

use upjet_core::shell::ShellCommand;

/// The permission a denial names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Missing {
    /// The user the request authenticated as.
    pub user: String,
    /// `get`, `list`, `patch`, `create`, …
    pub verb: String,
    /// `pods/log`, `recordsets`, … (empty for a path).
    pub resource: String,
    /// The API group (`""` for core).
    pub group: String,
    /// The namespace, for a namespaced request.
    pub namespace: Option<String>,
    /// The path, for a non-resource request (`/apis`).
    pub path: Option<String>,
}

/// A role shipped under `deploy/`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// `kubectl-upjet-doctor`: everything `doctor` and `history` read.
    Doctor,
    /// `kubectl-upjet-adopt`: what `doctor` reads, plus patch on managed resources.
    Adopt,
    /// `kubectl-upjet-workspace`: exec into provider pods for `history --workspace`.
    Workspace,
    /// `kubectl-upjet-migrate`: what adopt may do, plus create and delete on managed kinds and
    /// get on namespaces (`migrate`).
    Migrate,
    /// `kubectl-upjet-guard-lock`: writes to the guard's lock (`guard lock`, `guard unlock`,
    /// `watch --guard-lock`), beside the doctor role.
    GuardLock,
    /// `kubectl-upjet-guard-declare`: under `guard --authorize-declarations`, the right to
    /// declare an identity change (a repair's write), beside the role the repair needs.
    GuardDeclare,
}

impl Role {
    /// The ClusterRole's name.
    pub fn name(self) -> &'static str {
        match self {
            Role::Doctor => "kubectl-upjet-doctor",
            Role::Adopt => "kubectl-upjet-adopt",
            Role::Workspace => "kubectl-upjet-workspace",
            Role::Migrate => "kubectl-upjet-migrate",
            Role::GuardLock => "kubectl-upjet-guard-lock",
            Role::GuardDeclare => upjet_core::guard::vars::DECLARE_ROLE,
        }
    }

    /// The file that defines it.
    pub fn file(self) -> &'static str {
        match self {
            Role::Doctor => "deploy/clusterrole-doctor.yaml",
            Role::Adopt => "deploy/clusterrole-adopt.yaml",
            Role::Workspace => "deploy/clusterrole-workspace.yaml",
            Role::Migrate => "deploy/clusterrole-migrate.yaml",
            Role::GuardLock => "deploy/clusterrole-guard-lock.yaml",
            Role::GuardDeclare => "deploy/clusterrole-guard-declare.yaml",
        }
    }
}

/// Reads the permission out of an apiserver 403 message; `None` when it is worded otherwise (a
/// webhook authorizer, an admission denial).
pub fn parse(message: &str) -> Option<Missing> {
    let rest = &message[message.find("User \"")? + 6..];
    let (user, rest) = rest.split_once('"')?;
    let rest = rest.strip_prefix(" cannot ")?;
    let (verb, rest) = rest.split_once(' ')?;
    if let Some(path) = rest.strip_prefix("path \"") {
        let (path, _) = path.split_once('"')?;
        return Some(Missing {
            user: user.into(),
            verb: verb.into(),
            resource: String::new(),
            group: String::new(),
            namespace: None,
            path: Some(path.into()),
        });
    }
    let (resource, rest) = rest.strip_prefix("resource \"")?.split_once('"')?;
    let (group, rest) = rest.strip_prefix(" in API group \"")?.split_once('"')?;
    let namespace =
        rest.strip_prefix(" in the namespace \"").and_then(|r| r.split_once('"')).map(|(n, _)| n.to_string());
    Some(Missing {
        user: user.into(),
        verb: verb.into(),
        resource: resource.into(),
        group: group.into(),
        namespace,
        path: None,
    })
}

impl Missing {
    /// The shipped role that grants this permission.
    pub fn role(&self) -> Role {
        match (self.verb.as_str(), self.resource.as_str()) {
            ("create" | "get", "pods/exec") => Role::Workspace,
            ("create" | "update" | "patch", "identitylocks") => Role::GuardLock,
            ("declare", "identitychanges") => Role::GuardDeclare,
            ("get", "namespaces") | ("create" | "delete", _) => Role::Migrate,
            ("get" | "list" | "watch", _) => Role::Doctor,
            _ => Role::Adopt,
        }
    }

    /// One clause: what is missing, the role that grants it and how to bind it.
    pub fn advice(&self) -> String {
        let role = self.role();
        let what = match &self.path {
            Some(path) => format!("{} on the path {path}", self.verb),
            None => {
                let group = if self.group.is_empty() { "the core group".to_string() } else { self.group.clone() };
                let scope = self.namespace.as_ref().map(|n| format!(" in namespace {n}")).unwrap_or_default();
                format!("{} on {} ({group}){scope}", self.verb, self.resource)
            }
        };
        let subject = match self.user.strip_prefix("system:serviceaccount:") {
            Some(sa) => format!("--serviceaccount={sa}"),
            None => format!("--user={}", self.user),
        };
        let bind = match role {
            Role::Workspace => ShellCommand::kubectl("create")
                .word("rolebinding")
                .word("kubectl-upjet-workspace")
                .opt("-n", self.namespace.as_deref().unwrap_or("crossplane-system")),
            Role::GuardDeclare if self.namespace.is_some() => ShellCommand::kubectl("create")
                .word("rolebinding")
                .arg(role.name())
                .opt("-n", self.namespace.as_deref().unwrap_or_default()),
            _ => ShellCommand::kubectl("create").word("clusterrolebinding").arg(role.name()),
        };
        let bind = bind.arg(format!("--clusterrole={}", role.name())).arg(subject);
        let generated = if (role == Role::Adopt && self.verb == "patch")
            || (role == Role::Migrate && self.verb != "get")
        {
            "; a managed kind installed after the roles were applied needs `kubectl upjet rbac | kubectl apply -f -` again"
        } else {
            ""
        };
        format!(
            "missing permission: {what}; the ClusterRole {} ({}) grants it: {bind}{generated}",
            role.name(),
            role.file()
        )
    }
}

/// The advice for an apiserver 403 message, when it names a permission.
pub(crate) fn advise(message: &str) -> Option<String> {
    parse(message).map(|m| m.advice())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Messages as the apiserver's `forbiddenMessage` words them.
    #[test]
    fn denials_name_the_permission_and_the_role() {
        let cases = [
            (
                "recordsets.dns.gcp.upbound.io is forbidden: User \"jane\" cannot list resource \"recordsets\" in API group \"dns.gcp.upbound.io\" at the cluster scope",
                Role::Doctor,
                "missing permission: list on recordsets (dns.gcp.upbound.io); the ClusterRole kubectl-upjet-doctor (deploy/clusterrole-doctor.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-doctor --clusterrole=kubectl-upjet-doctor --user=jane",
            ),
            (
                "pods \"p\" is forbidden: User \"system:serviceaccount:ops:upjet\" cannot get resource \"pods/log\" in API group \"\" in the namespace \"crossplane-system\"",
                Role::Doctor,
                "missing permission: get on pods/log (the core group) in namespace crossplane-system; the ClusterRole kubectl-upjet-doctor (deploy/clusterrole-doctor.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-doctor --clusterrole=kubectl-upjet-doctor --serviceaccount=ops:upjet",
            ),
            (
                "recordsets.dns.gcp.upbound.io \"www\" is forbidden: User \"jane\" cannot patch resource \"recordsets\" in API group \"dns.gcp.upbound.io\" at the cluster scope",
                Role::Adopt,
                "missing permission: patch on recordsets (dns.gcp.upbound.io); the ClusterRole kubectl-upjet-adopt (deploy/clusterrole-adopt.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-adopt --clusterrole=kubectl-upjet-adopt --user=jane; a managed kind installed after the roles were applied needs `kubectl upjet rbac | kubectl apply -f -` again",
            ),
            (
                "pods \"provider-aws-1\" is forbidden: User \"jane\" cannot create resource \"pods/exec\" in API group \"\" in the namespace \"crossplane-system\"",
                Role::Workspace,
                "missing permission: create on pods/exec (the core group) in namespace crossplane-system; the ClusterRole kubectl-upjet-workspace (deploy/clusterrole-workspace.yaml) grants it: kubectl create rolebinding kubectl-upjet-workspace -n crossplane-system --clusterrole=kubectl-upjet-workspace --user=jane",
            ),
            (
                "subnets.ec2.aws.m.upbound.io is forbidden: User \"jane\" cannot create resource \"subnets\" in API group \"ec2.aws.m.upbound.io\" in the namespace \"infra\"",
                Role::Migrate,
                "missing permission: create on subnets (ec2.aws.m.upbound.io) in namespace infra; the ClusterRole kubectl-upjet-migrate (deploy/clusterrole-migrate.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-migrate --clusterrole=kubectl-upjet-migrate --user=jane; a managed kind installed after the roles were applied needs `kubectl upjet rbac | kubectl apply -f -` again",
            ),
            (
                "identitylocks.guard.kubectl-upjet.io \"kubectl-upjet-lock-0000\" is forbidden: User \"system:serviceaccount:crossplane-system:kubectl-upjet-watch\" cannot update resource \"identitylocks\" in API group \"guard.kubectl-upjet.io\" at the cluster scope",
                Role::GuardLock,
                "missing permission: update on identitylocks (guard.kubectl-upjet.io); the ClusterRole kubectl-upjet-guard-lock (deploy/clusterrole-guard-lock.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-guard-lock --clusterrole=kubectl-upjet-guard-lock --serviceaccount=crossplane-system:kubectl-upjet-watch",
            ),
            (
                "validatingadmissionpolicies.admissionregistration.k8s.io is forbidden: User \"jane\" cannot list resource \"validatingadmissionpolicies\" in API group \"admissionregistration.k8s.io\" at the cluster scope",
                Role::Doctor,
                "missing permission: list on validatingadmissionpolicies (admissionregistration.k8s.io); the ClusterRole kubectl-upjet-doctor (deploy/clusterrole-doctor.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-doctor --clusterrole=kubectl-upjet-doctor --user=jane",
            ),
            (
                "identitychanges.guard.kubectl-upjet.io is forbidden: User \"jane\" cannot declare resource \"identitychanges\" in API group \"guard.kubectl-upjet.io\" in the namespace \"team-a\"",
                Role::GuardDeclare,
                "missing permission: declare on identitychanges (guard.kubectl-upjet.io) in namespace team-a; the ClusterRole kubectl-upjet-guard-declare (deploy/clusterrole-guard-declare.yaml) grants it: kubectl create rolebinding kubectl-upjet-guard-declare -n team-a --clusterrole=kubectl-upjet-guard-declare --user=jane",
            ),
            (
                "forbidden: User \"jane\" cannot get path \"/apis\"",
                Role::Doctor,
                "missing permission: get on the path /apis; the ClusterRole kubectl-upjet-doctor (deploy/clusterrole-doctor.yaml) grants it: kubectl create clusterrolebinding kubectl-upjet-doctor --clusterrole=kubectl-upjet-doctor --user=jane",
            ),
        ];
        for (message, role, advice) in cases {
            let m = parse(message).unwrap_or_else(|| panic!("parses: {message}"));
            assert_eq!(m.role(), role, "{message}");
            assert_eq!(m.advice(), advice);
        }
        assert_eq!(parse("admission webhook \"x\" denied the request"), None);
    }
}
