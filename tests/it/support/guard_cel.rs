//! The API server's evaluation of the guard's admission policies (k8s.io/apiserver
//! `pkg/admission/plugin/policy`), run with the `cel` crate (cel-rust) on the variables the API
//! server gives: `object`, `oldObject`, `request` (an AdmissionRequest as unstructured JSON,
//! fields absent when empty), `params` (each selected parameter object in turn) and
//! `variables` (each evaluated once, in order; an expression that reads a variable which
//! failed fails). The order is the server's: the resource rules, then per parameter the match
//! conditions (false skips, an error skips under `failurePolicy: Ignore`), then the
//! validations (false fails with the message expression's string when it is a non-empty single
//! line, else the `message`; an error is ignored). JSON numbers become CEL `int`s, as
//! Kubernetes' unstructured integers are int64.

use cel::objects::{Key, Map};
use cel::{Context, Env, Program, Value as Cel};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::Arc;

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

/// The environment of the expressions: the standard library and the strings extension
/// (cel-go's `ext.Strings`, part of Kubernetes' CEL environment), built once.
fn env() -> Arc<Env> {
    static ENV: std::sync::OnceLock<Arc<Env>> = std::sync::OnceLock::new();
    ENV.get_or_init(build_env).clone()
}

fn build_env() -> Arc<Env> {
    let mut env = Env::stdlib();
    cel::extensions::strings(&mut env).expect("the strings extension");
    Arc::new(env)
}

fn compile(expression: &str) -> Result<Program, String> {
    env().compile(expression).map_err(|e| format!("does not parse: {e}"))
}

fn run(program: &Program, context: &Context) -> Result<Cel, String> {
    program.execute(context).map_err(|e| format!("{e}"))
}

fn rule_matches(rule: &Value, req: &Request) -> bool {
    let has = |field: &str, want: &str| rule[field].as_array().is_some_and(|l| l.iter().any(|x| x == want || x == "*"));
    let scope_ok = match rule["scope"].as_str().unwrap_or("*") {
        "Namespaced" => req.namespace().is_some(),
        "Cluster" => req.namespace().is_none(),
        _ => true,
    };
    let (group, _, _) = req.group_version_kind();
    has("operations", req.operation) && has("apiGroups", &group) && has("resources", &req.plural) && scope_ok
}

/// Whether a policy's `matchConstraints` take the request.
pub fn matches(policy: &Value, req: &Request) -> bool {
    let rules = policy["spec"]["matchConstraints"]["resourceRules"].as_array().cloned().unwrap_or_default();
    rules.iter().any(|r| rule_matches(r, req))
}

/// Parameter objects as the API server's informer holds them: decoded once.
pub struct Params {
    objects: Vec<(Value, Cel)>,
}

impl Params {
    /// The shards (or none).
    pub fn new(objects: &[Value]) -> Params {
        Params { objects: objects.iter().map(|o| (o.clone(), to_cel(o))).collect() }
    }

    /// The ones a binding selects (by `matchLabels`), in name order.
    fn selected(&self, binding: &Value) -> Vec<&Cel> {
        let want = binding["spec"]["paramRef"]["selector"]["matchLabels"].as_object().cloned().unwrap_or_default();
        let mut out: Vec<&(Value, Cel)> =
            self.objects.iter().filter(|(p, _)| want.iter().all(|(k, v)| &p["metadata"]["labels"][k] == v)).collect();
        out.sort_by_key(|(p, _)| p["metadata"]["name"].as_str().unwrap_or_default().to_string());
        out.into_iter().map(|(_, c)| c).collect()
    }
}

/// The base context of one evaluation: `object`, `oldObject`, `request`, `params`.
fn context(req: &Request, param: Option<&Cel>) -> Context<'static, 'static> {
    let mut c = Context::with_env(env());
    c.add_variable_from_value("object", to_cel(&req.object));
    c.add_variable_from_value("oldObject", req.old_object.as_ref().map(to_cel).unwrap_or(Cel::Null));
    c.add_variable_from_value("request", to_cel(&req.as_json()));
    c.add_variable_from_value("params", param.cloned().unwrap_or(Cel::Null));
    c
}

struct Check {
    expression: (String, Program),
    message_expression: Option<(String, Program)>,
    message: String,
    reason: String,
}

/// A policy compiled once, as the API server keeps it.
pub struct Compiled {
    policy: Value,
    conditions: Vec<Program>,
    variables: Vec<(String, Program)>,
    checks: Vec<Check>,
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or_default()
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
                expression: (text(&v["expression"]).to_string(), program(text(&v["expression"]))),
                message_expression: v["messageExpression"].as_str().map(|m| (m.to_string(), program(m))),
                message: text(&v["message"]).to_string(),
                reason: text(&v["reason"]).to_string(),
            })
            .collect();
        Compiled {
            policy: policy.clone(),
            conditions: list("matchConditions").iter().map(|m| program(text(&m["expression"]))).collect(),
            variables: list("variables")
                .iter()
                .map(|v| (text(&v["name"]).to_string(), program(text(&v["expression"]))))
                .collect(),
            checks,
        }
    }

    /// The match conditions: true when all hold; a false or failing one skips.
    fn conditions_hold(&self, c: &Context) -> bool {
        self.conditions.iter().all(|p| matches!(run(p, c), Ok(Cel::Bool(true))))
    }

    /// Evaluates the variables in order into `variables`; the names that failed.
    fn bind_variables(&self, c: &mut Context) -> Vec<String> {
        let mut done: HashMap<Key, Cel> = HashMap::new();
        let mut failed = Vec::new();
        for (name, program) in &self.variables {
            c.add_variable_from_value("variables", Cel::Map(Map::from(done.clone())));
            match run(program, c) {
                Ok(value) => {
                    done.insert(Key::from(name.as_str()), value);
                }
                Err(_) => failed.push(name.clone()),
            }
        }
        c.add_variable_from_value("variables", Cel::Map(Map::from(done)));
        failed
    }

    /// The outcome of the validating policy and `binding` for `req`, over `params` (the shards;
    /// ignored when the policy has no `paramKind`).
    pub fn validate(&self, binding: &Value, params: &Params, req: &Request) -> Outcome {
        if !matches(&self.policy, req) {
            return Outcome::NotMatched;
        }
        let chosen: Vec<Option<&Cel>> = if self.policy["spec"]["paramKind"].is_null() {
            vec![None]
        } else {
            params.selected(binding).into_iter().map(Some).collect()
        };
        if chosen.is_empty() {
            assert_eq!(binding["spec"]["paramRef"]["parameterNotFoundAction"], "Allow");
            return Outcome::NoParams;
        }
        let mut evaluated = false;
        for param in chosen {
            let mut c = context(req, param);
            if !self.conditions_hold(&c) {
                continue;
            }
            evaluated = true;
            let failed = self.bind_variables(&mut c);
            if let Some(outcome) = self.first_failure(&c, &failed, binding) {
                return outcome;
            }
        }
        if evaluated { Outcome::Allowed } else { Outcome::Skipped }
    }

    fn first_failure(&self, c: &Context, failed_vars: &[String], binding: &Value) -> Option<Outcome> {
        let reads_failed = |e: &str| failed_vars.iter().any(|n| e.contains(&format!("variables.{n}")));
        for check in &self.checks {
            let (text, program) = &check.expression;
            if reads_failed(text) || !matches!(run(program, c), Ok(Cel::Bool(false))) {
                continue;
            }
            let from_expression =
                check.message_expression.as_ref().filter(|(m, _)| !reads_failed(m)).and_then(|(_, p)| {
                    match run(p, c) {
                        Ok(Cel::String(s)) if !s.trim().is_empty() && !s.contains(['\n', '\r']) => Some(s.to_string()),
                        _ => None,
                    }
                });
            let actions = binding["spec"]["validationActions"].as_array().into_iter().flatten();
            return Some(Outcome::Failed {
                actions: actions.map(|a| text_of(a)).collect(),
                from_expression: from_expression.is_some(),
                message: from_expression.unwrap_or_else(|| check.message.clone()),
                reason: check.reason.clone(),
            });
        }
        None
    }

    /// The object after the mutating policy and `binding` (each selected shard in turn), and
    /// how many mutations applied.
    pub fn mutate(&self, binding: &Value, params: &Params, req: &Request) -> (Value, usize) {
        let mut object = req.object.clone();
        if !matches(&self.policy, req) {
            return (object, 0);
        }
        let mutations: Vec<Program> = self.policy["spec"]["mutations"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|m| compile(&as_maps(text(&m["jsonPatch"]["expression"]))).expect("the patch parses"))
            .collect();
        let mut applied = 0;
        for param in params.selected(binding) {
            let current = Request { object: object.clone(), ..req.clone() };
            let mut c = context(&current, Some(param));
            if !self.conditions_hold(&c) {
                continue;
            }
            assert!(self.bind_variables(&mut c).is_empty(), "a variable of the mutation failed");
            for m in &mutations {
                let patch = run(m, &c).expect("the patch evaluates");
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

fn text_of(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
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
