//! The API server's evaluation of the guard's admission policies (k8s.io/apiserver
//! `pkg/admission/plugin/policy`), run with the `cel` crate (cel-rust) on the variables the API
//! server gives: `object`, `oldObject`, `request` (an AdmissionRequest as unstructured JSON,
//! fields absent when empty), `params` (each selected parameter object in turn) and
//! `variables` (each evaluated at its first use and kept, as Kubernetes' lazy variables are: an
//! expression that reads one that fails fails, one that never reads it does not). The order is
//! the server's: the resource rules, then per parameter the match conditions (false skips, an
//! error skips under `failurePolicy: Ignore`), then the validations (false fails with the
//! message expression's string when it is a non-empty single line, else the `message`; an
//! error is ignored). JSON numbers become CEL `int`s, as Kubernetes' unstructured integers are
//! int64. The request's values are converted once per write and the parameter objects once,
//! as the server holds them.

use cel::common::traits::Indexer;
use cel::common::types::{CelString, DYN_TYPE, Type};
use cel::common::value::{CowVal, Val};
use cel::context::VariableResolver;
use cel::objects::{Key, Map};
use cel::{Context, Env, ExecutionError, Program, Value as Cel};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// One write as the API server sees it.
#[derive(Clone, Debug)]
pub struct Request {
    /// `CREATE` or `UPDATE`.
    pub operation: &'static str,
    /// The written object.
    pub object: Value,
    /// The stored object (UPDATE).
    pub old_object: Option<Value>,
    /// The plural of the object's kind (`request.resource.resource`).
    pub plural: String,
    /// Who writes.
    pub username: String,
    /// Their groups.
    pub groups: Vec<String>,
    /// What the API server's authorizer allows them, for CEL's `authorizer`: (verb, group,
    /// resource, namespace), `None` for a grant everywhere (a ClusterRoleBinding), a namespace
    /// for a RoleBinding's.
    pub grants: Vec<(String, String, String, Option<String>)>,
}

impl Request {
    /// A CREATE of `object` by a human.
    pub fn create(object: Value, plural: &str) -> Request {
        Request {
            operation: "CREATE",
            object,
            old_object: None,
            plural: plural.into(),
            username: "alice@example.com".into(),
            groups: vec!["system:authenticated".into()],
            grants: Vec::new(),
        }
    }

    /// An UPDATE of `old` into `object` by a human.
    pub fn update(old: Value, object: Value, plural: &str) -> Request {
        Request { operation: "UPDATE", old_object: Some(old), ..Request::create(object, plural) }
    }

    /// The same write by another user.
    pub fn by(mut self, user: &str, groups: &[&str]) -> Request {
        self.username = user.into();
        self.groups = groups.iter().map(|g| g.to_string()).collect();
        self
    }

    /// The same write by a user the authorizer allows `verb` on `resource` of `group`,
    /// cluster-wide (`namespace` `None`) or in one namespace.
    pub fn granted(mut self, verb: &str, group: &str, resource: &str, namespace: Option<&str>) -> Request {
        self.grants.push((verb.into(), group.into(), resource.into(), namespace.map(str::to_string)));
        self
    }

    /// CEL's `authorizer` for this requester: a map carrying what it is allowed, which the
    /// builder functions ([`authorizer_functions`]) copy along and `check` decides from.
    fn authorizer(&self) -> Value {
        let grants: Vec<Value> = self
            .grants
            .iter()
            .map(|(verb, group, resource, ns)| {
                json!([verb, group, resource, ns.clone().unwrap_or_default(), ns.is_some()])
            })
            .collect();
        json!({"@grants": grants})
    }

    fn group_version_kind(&self) -> (String, String, String) {
        let api = self.object["apiVersion"].as_str().unwrap_or_default();
        let (group, version) = api.rsplit_once('/').unwrap_or(("", api));
        (group.into(), version.into(), self.object["kind"].as_str().unwrap_or_default().into())
    }

    fn namespace(&self) -> Option<&str> {
        self.object["metadata"]["namespace"].as_str()
    }

    /// `request`: AdmissionRequest's JSON, `namespace` left out for a cluster-scoped object.
    fn as_json(&self) -> Value {
        let (group, version, kind) = self.group_version_kind();
        let mut r = json!({
            "uid": "0b5a8d2c-0000-4000-8000-000000000001",
            "kind": {"group": group, "version": version, "kind": kind},
            "resource": {"group": group, "version": version, "resource": self.plural},
            "name": self.object["metadata"]["name"],
            "operation": self.operation,
            "userInfo": {"username": self.username},
        });
        if !self.groups.is_empty() {
            r["userInfo"]["groups"] = json!(self.groups);
        }
        if let Some(ns) = self.namespace() {
            r["namespace"] = json!(ns);
        }
        r
    }
}

/// What one policy and binding do to one write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The policy's resource rules do not match the request.
    NotMatched,
    /// No parameter object was found (and the binding allows that).
    NoParams,
    /// A match condition is false for every parameter (or erred: skipped).
    Skipped,
    /// Every validation held.
    Allowed,
    /// A validation failed: the binding's actions, the message and the reason.
    Failed { actions: Vec<String>, message: String, reason: String, from_expression: bool },
}

/// JSON as CEL values, with integers as `int`.
pub fn to_cel(v: &Value) -> Cel {
    match v {
        Value::Null => Cel::Null,
        Value::Bool(b) => Cel::Bool(*b),
        Value::Number(n) => n.as_i64().map(Cel::Int).unwrap_or_else(|| Cel::Float(n.as_f64().unwrap_or_default())),
        Value::String(s) => Cel::String(Arc::new(s.clone())),
        Value::Array(a) => Cel::List(Arc::new(a.iter().map(to_cel).collect())),
        Value::Object(o) => {
            let map: HashMap<Key, Cel> = o.iter().map(|(k, v)| (Key::from(k.as_str()), to_cel(v))).collect();
            Cel::Map(Map::from(map))
        }
    }
}

fn to_val(v: &Value) -> Box<dyn Val> {
    Box::<dyn Val>::try_from(to_cel(v)).expect("JSON converts")
}

/// The environment of the expressions: the standard library and the strings extension
/// (cel-go's `ext.Strings`, part of Kubernetes' CEL environment), built once.
fn env() -> Arc<Env> {
    static ENV: OnceLock<Arc<Env>> = OnceLock::new();
    ENV.get_or_init(build_env).clone()
}

fn build_env() -> Arc<Env> {
    let mut env = Env::stdlib();
    cel::extensions::strings(&mut env).expect("the strings extension");
    authorizer_functions(&mut env);
    Arc::new(env)
}

/// Kubernetes' authorizer library (k8s.io/apiserver `pkg/cel/library/authz.go`) as far as the
/// guard uses it: `authorizer.group(G).resource(R).namespace(N).check(VERB).allowed()`, each
/// builder a map that carries the requester's grants along, `check` deciding as RBAC does (the
/// verb, group and resource each equal or `*`; a cluster-wide grant allows every namespace, a
/// namespace's grant only that namespace, never the cluster scope).
fn authorizer_functions(env: &mut Env) {
    use cel::common::types::{MAP_TYPE, STRING_TYPE};
    let builders: [cel::common::functions::Function; 5] =
        [builder::<0>, builder::<1>, builder::<2>, builder::<3>, builder::<4>];
    for (name, op) in ATTRIBUTES.iter().zip(builders) {
        env.add_member_overload(name, &format!("authorizer_{name}"), MAP_TYPE, vec![STRING_TYPE], op)
            .expect("an authorizer builder");
    }
    env.add_member_overload("check", "resourcecheck_check", MAP_TYPE, vec![STRING_TYPE], check)
        .expect("the authorizer's check");
    env.add_member_overload("allowed", "decision_allowed", MAP_TYPE, vec![], allowed).expect("allowed()");
}

fn as_map(v: &dyn Val) -> Result<HashMap<Key, Cel>, ExecutionError> {
    match Cel::try_from(v) {
        Ok(Cel::Map(m)) => Ok(m.map.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
        _ => Err(ExecutionError::function_error("authorizer", "not an authorizer value")),
    }
}

fn owned<'b, 'v>(v: Cel) -> Result<CowVal<'b, 'v>, ExecutionError> {
    Box::<dyn Val>::try_from(v).map(CowVal::Owned).map_err(|e| ExecutionError::function_error("authorizer", e))
}

fn text_arg(v: &dyn Val) -> Result<String, ExecutionError> {
    v.downcast_ref::<CelString>()
        .map(|s| s.inner().to_string())
        .ok_or_else(|| ExecutionError::function_error("authorizer", "not a string"))
}

/// The attributes of a check the builders set, in the order of [`builder`]'s index.
const ATTRIBUTES: [&str; 5] = ["group", "resource", "namespace", "subresource", "name"];

/// `group`, `resource`, `namespace`, … (the attribute `ATTRIBUTES[A]`): the receiver with that
/// attribute of the check set.
fn builder<'b, 'v, const A: usize>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [this, value] = args.as_slice() else { return Err(ExecutionError::invalid_argument_count(2, args.len())) };
    let mut map = as_map(this.as_ref())?;
    map.insert(Key::from(ATTRIBUTES[A]), Cel::String(Arc::new(text_arg(value.as_ref())?)));
    owned(Cel::Map(Map::from(map)))
}

fn check<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [this, verb] = args.as_slice() else { return Err(ExecutionError::invalid_argument_count(2, args.len())) };
    let map = as_map(this.as_ref())?;
    let attr = |k: &str| match map.get(&Key::from(k)) {
        Some(Cel::String(s)) => s.to_string(),
        _ => String::new(),
    };
    let verb = text_arg(verb.as_ref())?;
    let (group, resource, namespace) = (attr("group"), attr("resource"), attr("namespace"));
    let Some(Cel::List(grants)) = map.get(&Key::from("@grants")) else {
        return Err(ExecutionError::function_error("check", "no grants"));
    };
    let allowed = grants.iter().any(|g| {
        let Cel::List(g) = g else { return false };
        let s = |i: usize| match &g[i] {
            Cel::String(s) => s.to_string(),
            _ => String::new(),
        };
        let is = |i: usize, want: &str| s(i) == want || s(i) == "*";
        let scoped = matches!(g[4], Cel::Bool(true));
        is(0, &verb) && is(1, &group) && is(2, &resource) && (!scoped || (!namespace.is_empty() && s(3) == namespace))
    });
    owned(Cel::Map(Map::from(HashMap::from([(Key::from("allowed"), Cel::Bool(allowed))]))))
}

fn allowed<'b, 'v>(args: Vec<CowVal<'b, 'v>>) -> Result<CowVal<'b, 'v>, ExecutionError> {
    let [this] = args.as_slice() else { return Err(ExecutionError::invalid_argument_count(1, args.len())) };
    match as_map(this.as_ref())?.get(&Key::from("allowed")) {
        Some(Cel::Bool(b)) => owned(Cel::Bool(*b)),
        _ => Err(ExecutionError::function_error("allowed", "not a decision")),
    }
}

fn compile(expression: &str) -> Result<Program, String> {
    env().compile(expression).map_err(|e| format!("does not parse: {e}"))
}

fn run(program: &Program, context: &Context) -> Result<Cel, String> {
    program.execute(context).map_err(|e| format!("{e}"))
}

/// The values of one write, converted once: `object`, `oldObject`, `request`.
pub struct Bound {
    values: Vec<(&'static str, Box<dyn Val>)>,
    namespaced: bool,
    operation: String,
    group: String,
    plural: String,
}

impl Bound {
    /// The request's values.
    pub fn of(req: &Request) -> Bound {
        let (group, _, _) = req.group_version_kind();
        Bound {
            values: vec![
                ("object", to_val(&req.object)),
                ("oldObject", req.old_object.as_ref().map_or_else(|| to_val(&Value::Null), to_val)),
                ("request", to_val(&req.as_json())),
                ("authorizer", to_val(&req.authorizer())),
            ],
            namespaced: req.namespace().is_some(),
            operation: req.operation.to_string(),
            group,
            plural: req.plural.clone(),
        }
    }
}

/// Parameter objects as the API server's informer holds them: decoded once.
pub struct Params {
    objects: Vec<(Value, Box<dyn Val>)>,
}

impl Params {
    /// The shards (or none).
    pub fn new(objects: &[Value]) -> Params {
        Params { objects: objects.iter().map(|o| (o.clone(), to_val(o))).collect() }
    }

    /// The ones a binding selects (by `matchLabels`), in name order.
    fn selected(&self, binding: &Value) -> Vec<&dyn Val> {
        let want = binding["spec"]["paramRef"]["selector"]["matchLabels"].as_object().cloned().unwrap_or_default();
        let mut out: Vec<&(Value, Box<dyn Val>)> =
            self.objects.iter().filter(|(p, _)| want.iter().all(|(k, v)| &p["metadata"]["labels"][k] == v)).collect();
        out.sort_by_key(|(p, _)| p["metadata"]["name"].as_str().unwrap_or_default().to_string());
        out.into_iter().map(|(_, c)| c.as_ref()).collect()
    }
}

/// One evaluation's activation (CEL's word for what an expression's names resolve to): the
/// write's values, the parameter, and `variables`, each computed at its first use and kept
/// (value or error).
struct Activation<'a> {
    bound: &'a Bound,
    param: Option<&'a dyn Val>,
    variables: &'a [(String, Program)],
    cache: Vec<OnceLock<Result<Box<dyn Val>, String>>>,
}

impl std::fmt::Debug for Activation<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("variables")
    }
}

impl<'a> Activation<'a> {
    fn new(bound: &'a Bound, param: Option<&'a dyn Val>, variables: &'a [(String, Program)]) -> Activation<'a> {
        Activation { bound, param, variables, cache: variables.iter().map(|_| OnceLock::new()).collect() }
    }

    fn run(&self, program: &Program) -> Result<Cel, String> {
        let mut c = Context::with_env(env());
        c.set_variable_resolver(self);
        run(program, &c)
    }
}

impl VariableResolver for Activation<'_> {
    fn resolve<'b>(&'b self, variable: &str) -> Option<CowVal<'b, 'b>> {
        match variable {
            "variables" => Some(CowVal::Borrowed(self as &dyn Val)),
            "params" => Some(self.param.map_or_else(|| CowVal::owned(cel::common::types::CelNull), CowVal::Borrowed)),
            name => self.bound.values.iter().find(|(n, _)| *n == name).map(|(_, v)| CowVal::Borrowed(v.as_ref())),
        }
    }
}

impl Val for Activation<'_> {
    fn get_type(&self) -> &Type {
        &DYN_TYPE
    }

    fn cel_type() -> &'static Type {
        &DYN_TYPE
    }

    fn as_indexer<'b, 'v>(&'b self) -> Option<&'b (dyn Indexer + 'v)>
    where
        Self: 'v,
    {
        Some(self)
    }

    fn clone_as_boxed<'v>(&self) -> Box<dyn Val + 'v>
    where
        Self: 'v,
    {
        Box::new(Activation::new(self.bound, self.param, self.variables))
    }
}

impl Indexer for Activation<'_> {
    fn get<'b, 'v>(&'b self, idx: &dyn Val) -> Result<CowVal<'b, 'v>, ExecutionError>
    where
        Self: 'v,
    {
        let name = idx.downcast_ref::<CelString>().map(|s| s.inner().to_string()).unwrap_or_default();
        let i =
            self.variables.iter().position(|(n, _)| *n == name).ok_or_else(|| ExecutionError::no_such_key(&name))?;
        let value = self.cache[i].get_or_init(|| {
            self.run(&self.variables[i].1).and_then(|v| Box::<dyn Val>::try_from(v).map_err(|e| format!("{e}")))
        });
        match value {
            Ok(v) => Ok(CowVal::Borrowed(v.as_ref())),
            Err(e) => Err(ExecutionError::function_error(&format!("variables.{name}"), e)),
        }
    }

    fn steal<'v>(self: Box<Self>, idx: &dyn Val) -> Result<Box<dyn Val + 'v>, ExecutionError>
    where
        Self: 'v,
    {
        self.get(idx).map(|v| v.into_owned())
    }
}

struct Check {
    expression: Program,
    message_expression: Option<Program>,
    message: String,
    reason: String,
}

/// One resource rule, read once.
struct ResourceRule {
    operations: Vec<String>,
    groups: Vec<String>,
    resources: Vec<String>,
    scope: String,
}

/// A policy compiled once, as the API server keeps it.
pub struct Compiled {
    policy: Value,
    rules: Vec<ResourceRule>,
    conditions: Vec<Program>,
    variables: Vec<(String, Program)>,
    checks: Vec<Check>,
    mutations: Vec<Program>,
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array().into_iter().flatten().map(|s| text(s).to_string()).collect()
}

impl Compiled {
    /// Compiles every expression of a validating or mutating policy; one that does not parse
    /// is a test failure.
    pub fn new(policy: &Value) -> Compiled {
        let spec = &policy["spec"];
        let list = |field: &str| spec[field].as_array().cloned().unwrap_or_default();
        let program = |e: &str| compile(e).unwrap_or_else(|err| panic!("{err}: {e}"));
        let checks = list("validations")
            .iter()
            .map(|v| Check {
                expression: program(text(&v["expression"])),
                message_expression: v["messageExpression"].as_str().map(program),
                message: text(&v["message"]).to_string(),
                reason: text(&v["reason"]).to_string(),
            })
            .collect();
        let rules = spec["matchConstraints"]["resourceRules"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| ResourceRule {
                operations: strings(&r["operations"]),
                groups: strings(&r["apiGroups"]),
                resources: strings(&r["resources"]),
                scope: r["scope"].as_str().unwrap_or("*").to_string(),
            })
            .collect();
        Compiled {
            policy: policy.clone(),
            rules,
            conditions: list("matchConditions").iter().map(|m| program(text(&m["expression"]))).collect(),
            variables: list("variables")
                .iter()
                .map(|v| (text(&v["name"]).to_string(), program(text(&v["expression"]))))
                .collect(),
            checks,
            mutations: list("mutations")
                .iter()
                .map(|m| program(&as_maps(text(&m["jsonPatch"]["expression"]))))
                .collect(),
        }
    }

    /// Whether the policy's `matchConstraints` take the request.
    fn matches(&self, b: &Bound) -> bool {
        let has = |l: &[String], want: &str| l.iter().any(|x| x == want || x == "*");
        self.rules.iter().any(|r| {
            let scope = match r.scope.as_str() {
                "Namespaced" => b.namespaced,
                "Cluster" => !b.namespaced,
                _ => true,
            };
            scope && has(&r.operations, &b.operation) && has(&r.groups, &b.group) && has(&r.resources, &b.plural)
        })
    }

    /// The parameters of one evaluation each; `None` when no parameter object is found.
    fn chosen<'p>(&self, binding: &Value, params: &'p Params) -> Option<Vec<Option<&'p dyn Val>>> {
        if self.policy["spec"]["paramKind"].is_null() {
            return Some(vec![None]);
        }
        let chosen: Vec<Option<&dyn Val>> = params.selected(binding).into_iter().map(Some).collect();
        if chosen.is_empty() {
            assert_eq!(binding["spec"]["paramRef"]["parameterNotFoundAction"], "Allow");
            return None;
        }
        Some(chosen)
    }

    /// The outcome of the validating policy and `binding` for `req`, over `params` (the shards;
    /// ignored when the policy has no `paramKind`).
    pub fn validate(&self, binding: &Value, params: &Params, req: &Request) -> Outcome {
        self.validate_bound(binding, params, &Bound::of(req))
    }

    /// [`Compiled::validate`] for a write whose values are already converted.
    pub fn validate_bound(&self, binding: &Value, params: &Params, b: &Bound) -> Outcome {
        if !self.matches(b) {
            return Outcome::NotMatched;
        }
        let Some(chosen) = self.chosen(binding, params) else { return Outcome::NoParams };
        let mut evaluated = false;
        for param in chosen {
            let scope = Activation::new(b, param, &self.variables);
            if !self.conditions.iter().all(|p| matches!(scope.run(p), Ok(Cel::Bool(true)))) {
                continue;
            }
            evaluated = true;
            if let Some(outcome) = self.first_failure(&scope, binding) {
                return outcome;
            }
        }
        if evaluated { Outcome::Allowed } else { Outcome::Skipped }
    }

    fn first_failure(&self, scope: &Activation, binding: &Value) -> Option<Outcome> {
        let check = self.checks.iter().find(|c| matches!(scope.run(&c.expression), Ok(Cel::Bool(false))))?;
        let from_expression = check.message_expression.as_ref().and_then(|p| match scope.run(p) {
            Ok(Cel::String(s)) if !s.trim().is_empty() && !s.contains(['\n', '\r']) => Some(s.to_string()),
            _ => None,
        });
        Some(Outcome::Failed {
            actions: strings(&binding["spec"]["validationActions"]),
            from_expression: from_expression.is_some(),
            message: from_expression.unwrap_or_else(|| check.message.clone()),
            reason: check.reason.clone(),
        })
    }

    /// The object after the mutating policy and `binding` (each selected shard in turn), and
    /// how many mutations applied.
    pub fn mutate(&self, binding: &Value, params: &Params, req: &Request) -> (Value, usize) {
        let mut object = req.object.clone();
        let mut applied = 0;
        if !self.matches(&Bound::of(req)) {
            return (object, 0);
        }
        for param in params.selected(binding) {
            let b = Bound::of(&Request { object: object.clone(), ..req.clone() });
            let scope = Activation::new(&b, Some(param), &self.variables);
            if !self.conditions.iter().all(|p| matches!(scope.run(p), Ok(Cel::Bool(true)))) {
                continue;
            }
            for m in &self.mutations {
                let patch = scope.run(m).expect("the patch evaluates");
                let Value::Array(ops) = to_json(&patch) else { panic!("a list of patches") };
                apply(&mut object, &ops);
                applied += 1;
            }
        }
        (object, applied)
    }
}

/// cel-rust refuses a value of any type in a struct field declared `dyn` (JSONPatch's `value`),
/// so the patch objects are read as maps with the same fields: the guard writes them in one
/// shape, `JSONPatch{op: …, path: …, value: …}`, and no literal of it holds those separators.
fn as_maps(patch: &str) -> String {
    patch.replace("JSONPatch{op: ", "{'op': ").replace(", path: ", ", 'path': ").replace(", value: ", ", 'value': ")
}

fn to_json(v: &Cel) -> Value {
    match v {
        Cel::Null => Value::Null,
        Cel::Bool(b) => json!(b),
        Cel::Int(i) => json!(i),
        Cel::UInt(u) => json!(u),
        Cel::Float(f) => json!(f),
        Cel::String(s) => json!(s.as_str()),
        Cel::List(l) => Value::Array(l.iter().map(to_json).collect()),
        Cel::Map(m) => Value::Object(
            m.map
                .iter()
                .map(|(k, v)| {
                    (
                        match k {
                            Key::String(s) => s.to_string(),
                            other => format!("{other:?}"),
                        },
                        to_json(v),
                    )
                })
                .collect(),
        ),
        other => panic!("no JSON for {other:?}"),
    }
}

/// Applies RFC 6902 `add` operations (the only one the guard writes).
fn apply(object: &mut Value, ops: &[Value]) {
    for op in ops {
        assert_eq!(op["op"], "add", "{op}");
        let path = op["path"].as_str().expect("path");
        let parts: Vec<String> = path.split('/').skip(1).map(|p| p.replace("~1", "/").replace("~0", "~")).collect();
        let (last, parents) = parts.split_last().expect("a path");
        let mut at = &mut *object;
        for p in parents {
            at = at.get_mut(p).unwrap_or_else(|| panic!("{path}: no {p}"));
        }
        at.as_object_mut().expect("an object").insert(last.clone(), op["value"].clone());
    }
}

/// Parses an expression as the policies print it (a syntax check for every printed one).
pub fn parses(expression: &str) -> Result<(), String> {
    env().compile(expression).map(|_| ()).map_err(|e| e.to_string())
}
