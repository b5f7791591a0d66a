//! Authentication by bearer token and RBAC authorization (`rbac.authorization.k8s.io/v1`) over the
//! roles and bindings the server stores, so a test can prove what a ClusterRole lets a client do.
//!
//! Off by default (every token is the administrator, as before). [`crate::TestApi::enable_rbac`]
//! turns it on: the kubeconfig's `test-token` stays an administrator (group `system:masters`),
//! tokens added with [`crate::TestApi::add_user`] are ordinary users, anything else is 401.
//! Authorization follows the apiserver's RBAC authorizer: ClusterRoleBindings grant everywhere,
//! RoleBindings in their namespace; a ClusterRole with an `aggregationRule` holds the rules of the
//! ClusterRoles its selectors match (what the aggregation controller would have copied into it);
//! rules match verbs, API groups, resources (`*`, `resource/subresource`, `*/subresource`),
//! resource names and non-resource URLs (`/apis/*`) as `rbac/v1` helpers do. A denial is a 403
//! whose message is the apiserver's, word for word.

use crate::crd::{Registry, ResourceDef};
use crate::{Inner, resp::Resp};
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};

/// Who a token authenticates as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct User {
    /// The user name (`jane`, `system:serviceaccount:ns:sa`).
    pub name: String,
    /// Its groups.
    pub groups: Vec<String>,
}

/// The tokens the server knows once RBAC is on.
#[derive(Default)]
pub(crate) struct Auth {
    pub users: HashMap<String, User>,
}

/// What a request asks to do, as the apiserver's request-info filter derives it.
pub(crate) enum Attributes<'a> {
    /// A request on a resource.
    Resource {
        /// `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `deletecollection`.
        verb: &'a str,
        group: &'a str,
        resource: &'a str,
        subresource: Option<&'a str>,
        namespace: Option<&'a str>,
        name: Option<&'a str>,
    },
    /// Any other path (discovery, `/version`, `/openapi/v3`).
    NonResource {
        /// `get`, `post`, …
        verb: &'a str,
        path: &'a str,
    },
}

/// The user behind an `Authorization` header, or the 401 the apiserver answers.
pub(crate) fn authenticate(inner: &Inner, header: &str) -> Result<Option<User>, Resp> {
    let auth = inner.auth.read().expect("auth lock");
    let Some(auth) = auth.as_ref() else { return Ok(None) };
    let token = header.strip_prefix("Bearer ").unwrap_or_default().trim();
    match auth.users.get(token) {
        Some(user) => Ok(Some(user.clone())),
        None => Err(Resp::status(401, "Unauthorized", "Unauthorized", None, None)),
    }
}

/// Allows the request, or answers the apiserver's 403.
pub(crate) fn authorize(inner: &Inner, user: &User, attrs: &Attributes) -> Result<(), Resp> {
    if user.groups.iter().any(|g| g == "system:masters") {
        return Ok(());
    }
    let registry = inner.registry.read().expect("registry lock");
    let roles = Roles::load(&registry);
    let namespace = match attrs {
        Attributes::Resource { namespace, .. } => *namespace,
        Attributes::NonResource { .. } => None,
    };
    if roles.rules_of(user, namespace).iter().any(|rule| allows(rule, attrs)) {
        return Ok(());
    }
    Err(forbidden(user, attrs))
}

/// Every role and binding stored, read once per request.
struct Roles {
    cluster_roles: HashMap<String, Value>,
    roles: HashMap<(String, String), Value>,
    cluster_bindings: Vec<Value>,
    bindings: Vec<Value>,
}

impl Roles {
    fn load(registry: &Registry) -> Roles {
        let all = |plural: &str| -> Vec<Value> {
            let Some(store) = registry.stores.get(&(GROUP.to_string(), plural.to_string())) else { return vec![] };
            let map = store.map.read().expect("store lock");
            map.items.values().map(|e| e.to_value("rbac.authorization.k8s.io/v1", "")).collect()
        };
        let name = |v: &Value, p: &str| v.pointer(p).and_then(Value::as_str).unwrap_or_default().to_string();
        Roles {
            cluster_roles: all("clusterroles").into_iter().map(|r| (name(&r, "/metadata/name"), r)).collect(),
            roles: all("roles")
                .into_iter()
                .map(|r| ((name(&r, "/metadata/namespace"), name(&r, "/metadata/name")), r))
                .collect(),
            cluster_bindings: all("clusterrolebindings"),
            bindings: all("rolebindings"),
        }
    }

    /// The rules granted to `user` cluster-wide, plus those granted in `namespace`.
    fn rules_of(&self, user: &User, namespace: Option<&str>) -> Vec<Value> {
        let mut rules = Vec::new();
        for b in self.cluster_bindings.iter().filter(|b| binds(b, user)) {
            if let Some(("ClusterRole", name)) = role_ref(b) {
                rules.extend(self.cluster_role_rules(name, &mut BTreeSet::new()));
            }
        }
        let Some(ns) = namespace else { return rules };
        let here =
            self.bindings.iter().filter(|b| b.pointer("/metadata/namespace").and_then(Value::as_str) == Some(ns));
        for b in here.filter(|b| binds(b, user)) {
            match role_ref(b) {
                Some(("ClusterRole", name)) => rules.extend(self.cluster_role_rules(name, &mut BTreeSet::new())),
                Some(("Role", name)) => {
                    let role = self.roles.get(&(ns.to_string(), name.to_string()));
                    rules.extend(role.into_iter().flat_map(rules_field));
                }
                _ => {}
            }
        }
        rules
    }

    /// A ClusterRole's rules; with an `aggregationRule`, the rules of every ClusterRole its
    /// selectors match (the aggregation controller's result), recursively.
    fn cluster_role_rules(&self, name: &str, seen: &mut BTreeSet<String>) -> Vec<Value> {
        if !seen.insert(name.to_string()) {
            return vec![];
        }
        let Some(role) = self.cluster_roles.get(name) else { return vec![] };
        let Some(selectors) = role.pointer("/aggregationRule/clusterRoleSelectors").and_then(Value::as_array) else {
            return rules_field(role);
        };
        let mut rules = Vec::new();
        for (other, r) in &self.cluster_roles {
            let labels = r.pointer("/metadata/labels");
            if other != name && selectors.iter().any(|s| selects(s, labels)) {
                rules.extend(self.cluster_role_rules(other, seen));
            }
        }
        rules
    }
}

const GROUP: &str = "rbac.authorization.k8s.io";

fn rules_field(role: &Value) -> Vec<Value> {
    role.get("rules").and_then(Value::as_array).cloned().unwrap_or_default()
}

fn role_ref(binding: &Value) -> Option<(&str, &str)> {
    let kind = binding.pointer("/roleRef/kind").and_then(Value::as_str)?;
    Some((kind, binding.pointer("/roleRef/name").and_then(Value::as_str)?))
}

/// Whether a binding's subjects include the user, one of its groups, or its service account.
fn binds(binding: &Value, user: &User) -> bool {
    let subjects = binding.get("subjects").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    subjects.iter().any(|s| {
        let field = |k: &str| s.get(k).and_then(Value::as_str).unwrap_or_default();
        match field("kind") {
            "User" => field("name") == user.name,
            "Group" => user.groups.iter().any(|g| g == field("name")),
            "ServiceAccount" => user.name == format!("system:serviceaccount:{}:{}", field("namespace"), field("name")),
            _ => false,
        }
    })
}

/// A label selector (`matchLabels` and `matchExpressions`) against a role's labels.
fn selects(selector: &Value, labels: Option<&Value>) -> bool {
    let label = |k: &str| labels.and_then(|l| l.get(k)).and_then(Value::as_str);
    let match_labels = selector.get("matchLabels").and_then(Value::as_object);
    let labels_ok = match_labels.is_none_or(|m| m.iter().all(|(k, v)| label(k) == v.as_str()));
    let exprs = selector.get("matchExpressions").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
    let exprs_ok = exprs.iter().all(|e| {
        let key = e.get("key").and_then(Value::as_str).unwrap_or_default();
        let values: Vec<&str> =
            e.get("values").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
        match e.get("operator").and_then(Value::as_str).unwrap_or_default() {
            "In" => label(key).is_some_and(|v| values.contains(&v)),
            "NotIn" => label(key).is_none_or(|v| !values.contains(&v)),
            "Exists" => label(key).is_some(),
            "DoesNotExist" => label(key).is_none(),
            _ => false,
        }
    });
    labels_ok && exprs_ok
}

fn has(rule: &Value, field: &str, want: &str) -> bool {
    rule.get(field).and_then(Value::as_array).is_some_and(|a| a.iter().any(|x| x == "*" || x == want))
}

/// `rbac/v1` `RuleAllows` for one rule.
fn allows(rule: &Value, attrs: &Attributes) -> bool {
    match attrs {
        Attributes::Resource { verb, group, resource, subresource, name, .. } => {
            let combined = match subresource {
                Some(sub) => format!("{resource}/{sub}"),
                None => resource.to_string(),
            };
            let resources = rule.get("resources").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            let resource_ok = resources
                .iter()
                .filter_map(Value::as_str)
                .any(|r| r == "*" || r == combined || subresource.is_some_and(|sub| r.strip_prefix("*/") == Some(sub)));
            let names = rule.get("resourceNames").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            let name_ok = names.is_empty() || name.is_some_and(|n| names.iter().any(|x| x == n));
            has(rule, "verbs", verb) && has(rule, "apiGroups", group) && resource_ok && name_ok
        }
        Attributes::NonResource { verb, path } => {
            let urls = rule.get("nonResourceURLs").and_then(Value::as_array).map(Vec::as_slice).unwrap_or_default();
            let url_ok = urls
                .iter()
                .filter_map(Value::as_str)
                .any(|u| u == "*" || u == *path || u.strip_suffix('*').is_some_and(|prefix| path.starts_with(prefix)));
            has(rule, "verbs", verb) && url_ok
        }
    }
}

/// The apiserver's denial: `forbiddenMessage` (`endpoints/handlers/responsewriters/errors.go`)
/// wrapped by `NewForbidden` (`<resource>[.<group>] ["<name>"] is forbidden: <message>`).
fn forbidden(user: &User, attrs: &Attributes) -> Resp {
    match attrs {
        Attributes::NonResource { verb, path } => Resp::status(
            403,
            "Forbidden",
            &format!("forbidden: User {:?} cannot {verb} path {path:?}", user.name),
            Some(("", "", "")),
            None,
        ),
        Attributes::Resource { verb, group, resource, subresource, namespace, name } => {
            let shown = match subresource {
                Some(sub) => format!("{resource}/{sub}"),
                None => resource.to_string(),
            };
            let scope = match namespace {
                Some(ns) => format!("in the namespace {ns:?}"),
                None => "at the cluster scope".to_string(),
            };
            let why = format!("User {:?} cannot {verb} resource {shown:?} in API group {group:?} {scope}", user.name);
            let qualified = if group.is_empty() { resource.to_string() } else { format!("{resource}.{group}") };
            let message = match name {
                Some(n) => format!("{qualified} {n:?} is forbidden: {why}"),
                None => format!("{qualified} is forbidden: {why}"),
            };
            Resp::status(403, "Forbidden", &message, Some((name.unwrap_or_default(), group, resource)), None)
        }
    }
}

/// Serves the RBAC kinds and the core kinds RBAC tests deny (Secrets, ConfigMaps).
pub(crate) fn register(r: &mut Registry) {
    let defs: [(&str, &str, &str, &str, bool); 6] = [
        ("", "secrets", "secret", "Secret", true),
        ("", "configmaps", "configmap", "ConfigMap", true),
        (GROUP, "clusterroles", "clusterrole", "ClusterRole", false),
        (GROUP, "clusterrolebindings", "clusterrolebinding", "ClusterRoleBinding", false),
        (GROUP, "roles", "role", "Role", true),
        (GROUP, "rolebindings", "rolebinding", "RoleBinding", true),
    ];
    for (group, plural, singular, kind, namespaced) in defs {
        let store = r.store_for(group, plural);
        let mut def = ResourceDef::builtin((group, plural, singular), kind, namespaced, store);
        if plural == "configmaps" {
            def.short_names = vec!["cm".into()];
        }
        r.add(def);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn res<'a>(verb: &'a str, group: &'a str, resource: &'a str, sub: Option<&'a str>) -> Attributes<'a> {
        Attributes::Resource { verb, group, resource, subresource: sub, namespace: None, name: None }
    }

    /// The matching helpers of `k8s.io/kubernetes/pkg/apis/rbac/v1/evaluation_helpers.go`
    /// (`VerbMatches`, `APIGroupMatches`, `ResourceMatches`, `ResourceNameMatches`,
    /// `NonResourceURLMatches`).
    #[test]
    fn rules_match_like_the_rbac_authorizer() {
        let rule = |v: Value| v;
        let cases: Vec<(Value, Attributes, bool)> = vec![
            (rule(json!({"apiGroups": ["*"], "resources": ["*"], "verbs": ["get"]})), res("get", "g", "x", None), true),
            (
                rule(json!({"apiGroups": ["g"], "resources": ["x"], "verbs": ["get"]})),
                res("list", "g", "x", None),
                false,
            ),
            (
                rule(json!({"apiGroups": [""], "resources": ["pods"], "verbs": ["get"]})),
                res("get", "", "pods", Some("log")),
                false,
            ),
            (
                rule(json!({"apiGroups": [""], "resources": ["pods/log"], "verbs": ["get"]})),
                res("get", "", "pods", Some("log")),
                true,
            ),
            (
                rule(json!({"apiGroups": [""], "resources": ["*/log"], "verbs": ["get"]})),
                res("get", "", "pods", Some("log")),
                true,
            ),
            (
                rule(json!({"apiGroups": ["g"], "resources": ["x"], "resourceNames": ["a"], "verbs": ["list"]})),
                res("list", "g", "x", None),
                false,
            ),
            (
                rule(json!({"nonResourceURLs": ["/apis/*"], "verbs": ["get"]})),
                Attributes::NonResource { verb: "get", path: "/apis/g/v1" },
                true,
            ),
            (
                rule(json!({"nonResourceURLs": ["/apis"], "verbs": ["get"]})),
                Attributes::NonResource { verb: "get", path: "/apis/g" },
                false,
            ),
        ];
        for (i, (rule, attrs, want)) in cases.iter().enumerate() {
            assert_eq!(allows(rule, attrs), *want, "case {i}");
        }
    }

    #[test]
    fn selectors_match_labels_and_expressions() {
        let labels = json!({"a": "true", "b": "x"});
        assert!(selects(&json!({"matchLabels": {"a": "true"}}), Some(&labels)));
        assert!(!selects(&json!({"matchLabels": {"a": "false"}}), Some(&labels)));
        assert!(selects(
            &json!({"matchExpressions": [{"key": "b", "operator": "In", "values": ["x", "y"]}]}),
            Some(&labels)
        ));
        assert!(!selects(&json!({"matchExpressions": [{"key": "c", "operator": "Exists"}]}), Some(&labels)));
        assert!(selects(&json!({}), None), "an empty selector matches everything");
    }
}
