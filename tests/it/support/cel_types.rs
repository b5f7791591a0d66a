//! The one compile rule of Kubernetes' CEL that cel-rust does not enforce and that a printed
//! policy can break without any other test noticing: homogeneous aggregate literals. The API
//! server compiles every admission expression with cel-go's `HomogeneousAggregateLiterals` and,
//! since v1.29, its AST validator of the same name (k8s.io/apiserver `pkg/cel/environment/base.go`):
//! the elements of a list literal, and the keys and the values of a map literal, must each have
//! one type, compared exactly (`IsEquivalentType`: `dyn` is not `string`). A policy that breaks it
//! is refused by `kubectl apply` (`expected type 'dyn' but found 'string'`).
//!
//! The check here is a small type inference over cel-rust's parsed AST (macros expanded), as
//! cel-go's checker types the same nodes in Kubernetes' admission environment: `object`,
//! `oldObject` and `params` are `dyn` and so is every field read from them; `request` is the typed
//! AdmissionRequest; `authorizer` and its builders are their own types; literals, conversions
//! (`string()`, `int()`…), `size()`, comparisons and logic have their result types; `+` of a
//! string with anything is a string (the only overload that fits); a conditional whose branches
//! differ is `dyn` when one is. What it cannot prove is [`Ty::Unknown`], which matches nothing: a
//! literal mixing it fails, so the check errs towards refusing.
//!
//! Variables are checked twice: typed as their expression (what kube-apiserver v1.36 declares)
//! and typed `dyn` (how earlier releases declare `variables`): a literal must hold in both.

use cel::common::ast::{EntryExpr, Expr, IdedExpr, LiteralValue};
use serde_json::Value;
use std::collections::HashMap;

/// A CEL type as far as the check needs one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ty {
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Null,
    /// `dyn`: what the API server knows of an unstructured object's field.
    Dyn,
    List(Box<Ty>),
    Map(Box<Ty>, Box<Ty>),
    /// A message or an opaque type (`JSONPatch`, `kubernetes.authorization.Decision`, …).
    Named(String),
    /// The element type of an empty list literal, not yet bound (a comprehension's accumulator).
    Free,
    /// What the inference cannot prove: never the same as anything.
    Unknown,
}

impl Ty {
    fn list(t: Ty) -> Ty {
        Ty::List(Box::new(t))
    }

    fn named(n: &str) -> Ty {
        Ty::Named(n.into())
    }

    /// cel-go's `IsEquivalentType`, where nothing unproven is equivalent.
    fn same(&self, other: &Ty) -> bool {
        match (self, other) {
            (Ty::Unknown | Ty::Free, _) | (_, Ty::Unknown | Ty::Free) => false,
            (Ty::List(a), Ty::List(b)) => a.same(b),
            (Ty::Map(ka, va), Ty::Map(kb, vb)) => ka.same(kb) && va.same(vb),
            (a, b) => a == b,
        }
    }

    /// The type two branches (of `?:`, or two lists added) share: the same, a free element bound
    /// to the other, `dyn` when one is `dyn` (cel-go's `mostGeneral`), else unknown.
    fn join(&self, other: &Ty) -> Ty {
        match (self, other) {
            (Ty::Free, t) | (t, Ty::Free) => t.clone(),
            (Ty::List(a), Ty::List(b)) => Ty::list(a.join(b)),
            (Ty::Unknown, _) | (_, Ty::Unknown) => Ty::Unknown,
            (Ty::Dyn, _) | (_, Ty::Dyn) => Ty::Dyn,
            (a, b) if a == b => a.clone(),
            _ => Ty::Unknown,
        }
    }

    /// The type of `x[i]` and of a comprehension's variable over it.
    fn element(&self) -> Ty {
        match self {
            Ty::List(t) => (**t).clone(),
            Ty::Map(k, _) => (**k).clone(),
            Ty::Dyn => Ty::Dyn,
            _ => Ty::Unknown,
        }
    }

    fn field(&self, name: &str) -> Ty {
        match self {
            Ty::Dyn => Ty::Dyn,
            Ty::Map(_, v) => (**v).clone(),
            Ty::Named(n) => request_field(n, name),
            _ => Ty::Unknown,
        }
    }
}

/// The fields of Kubernetes' `AdmissionRequest` as admission CEL declares them
/// (k8s.io/apiserver `pkg/admission/plugin/cel/compile.go`, `buildRequestType`).
fn request_field(type_name: &str, field: &str) -> Ty {
    let gvk = "kubernetes.GroupVersionKind";
    let gvr = "kubernetes.GroupVersionResource";
    match (type_name, field) {
        ("kubernetes.AdmissionRequest", "kind" | "requestKind") => Ty::named(gvk),
        ("kubernetes.AdmissionRequest", "resource" | "requestResource") => Ty::named(gvr),
        ("kubernetes.AdmissionRequest", "userInfo") => Ty::named("kubernetes.UserInfo"),
        ("kubernetes.AdmissionRequest", "dryRun") => Ty::Bool,
        ("kubernetes.AdmissionRequest", "options") => Ty::Dyn,
        (
            "kubernetes.AdmissionRequest",
            "uid" | "subResource" | "requestSubResource" | "name" | "namespace" | "operation",
        ) => Ty::String,
        ("kubernetes.GroupVersionKind", "group" | "version" | "kind") => Ty::String,
        ("kubernetes.GroupVersionResource", "group" | "version" | "resource") => Ty::String,
        ("kubernetes.UserInfo", "username" | "uid") => Ty::String,
        ("kubernetes.UserInfo", "groups") => Ty::list(Ty::String),
        ("kubernetes.UserInfo", "extra") => Ty::Map(Box::new(Ty::String), Box::new(Ty::list(Ty::String))),
        ("kubernetes.authorization.Authorizer", "requestResource") => {
            Ty::named("kubernetes.authorization.ResourceCheck")
        }
        _ => Ty::Unknown,
    }
}

/// What a call returns, from its function and its receiver's and arguments' types.
fn call_type(name: &str, target: Option<&Ty>, args: &[Ty]) -> Ty {
    const AUTHZ: &str = "kubernetes.authorization.";
    match (name, target, args) {
        (
            "_&&_" | "_||_" | "!_" | "@not_strictly_false" | "_==_" | "_!=_" | "_<_" | "_<=_" | "_>_" | "_>=_" | "@in",
            _,
            _,
        ) => Ty::Bool,
        ("_?_:_", None, [_, t, f]) => t.join(f),
        ("_+_", None, [a, b]) => match (a, b) {
            (Ty::String, _) | (_, Ty::String) => Ty::String,
            (Ty::List(_), Ty::List(_)) => a.join(b),
            (Ty::Int, Ty::Int) => Ty::Int,
            (Ty::Dyn, Ty::Dyn) => Ty::Dyn,
            _ => Ty::Unknown,
        },
        ("_[_]", None, [c, _]) => match c {
            Ty::Map(_, v) => (**v).clone(),
            other => other.element(),
        },
        ("size", _, _) | ("int", None, _) => Ty::Int,
        ("string", None, _) => Ty::String,
        ("uint", None, _) => Ty::Uint,
        ("double", None, _) => Ty::Double,
        ("bool", None, _) => Ty::Bool,
        ("dyn", None, _) => Ty::Dyn,
        ("type", None, _) => Ty::named("type"),
        ("join" | "lowerAscii" | "upperAscii" | "trim" | "replace" | "substring", Some(_), _) => Ty::String,
        ("startsWith" | "endsWith" | "contains" | "matches", Some(_), _) => Ty::Bool,
        ("group" | "serviceAccount", Some(Ty::Named(n)), _) if n == "kubernetes.authorization.Authorizer" => {
            Ty::named(&format!("{AUTHZ}Group"))
        }
        ("resource", Some(Ty::Named(n)), _) if n.starts_with(AUTHZ) => Ty::named(&format!("{AUTHZ}ResourceCheck")),
        ("namespace" | "name" | "subresource", Some(Ty::Named(n)), _) if n.ends_with("ResourceCheck") => {
            Ty::named(&format!("{AUTHZ}ResourceCheck"))
        }
        ("check", Some(Ty::Named(n)), _) if n.starts_with(AUTHZ) => Ty::named(&format!("{AUTHZ}Decision")),
        ("allowed" | "errored", Some(Ty::Named(n)), _) if n.ends_with("Decision") => Ty::Bool,
        ("reason" | "error", Some(Ty::Named(n)), _) if n.ends_with("Decision") => Ty::String,
        _ => Ty::Unknown,
    }
}

/// One literal whose elements are not provably of one type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mixed {
    /// Which expression (`spec.variables[recordedId]`, …) and how variables were typed.
    pub at: String,
    /// The list or map literal's position in the expression (character offset).
    pub offset: u32,
    /// The two types that differ.
    pub types: (Ty, Ty),
}

/// The variables an expression sees: their types in the mode being checked.
struct TypeEnv<'a> {
    variables: &'a HashMap<String, Ty>,
    locals: Vec<(String, Ty)>,
}

impl TypeEnv<'_> {
    fn ident(&self, name: &str) -> Ty {
        if let Some((_, t)) = self.locals.iter().rev().find(|(n, _)| n == name) {
            return t.clone();
        }
        match name {
            "object" | "oldObject" | "params" => Ty::Dyn,
            "request" => Ty::named("kubernetes.AdmissionRequest"),
            "authorizer" => Ty::named("kubernetes.authorization.Authorizer"),
            "string" | "int" | "bool" | "uint" | "double" | "list" | "map" => Ty::named("type"),
            _ => Ty::Unknown,
        }
    }

    /// The expression's type, every literal below it checked into `found`.
    fn infer(&mut self, e: &IdedExpr, found: &mut Vec<(u64, Ty, Ty)>) -> Ty {
        match &e.expr {
            Expr::Literal(l) => match l {
                LiteralValue::Boolean(_) => Ty::Bool,
                LiteralValue::Int(_) => Ty::Int,
                LiteralValue::UInt(_) => Ty::Uint,
                LiteralValue::Double(_) => Ty::Double,
                LiteralValue::String(_) => Ty::String,
                LiteralValue::Bytes(_) => Ty::Bytes,
                LiteralValue::Null => Ty::Null,
            },
            Expr::Ident(name) => self.ident(name),
            Expr::Select(s) if s.test => {
                self.infer(&s.operand, found);
                Ty::Bool
            }
            Expr::Select(s) => match &s.operand.expr {
                Expr::Ident(root) if root == "variables" && !self.locals.iter().any(|(n, _)| n == root) => {
                    self.variables.get(&s.field).cloned().unwrap_or(Ty::Unknown)
                }
                _ => self.infer(&s.operand, found).field(&s.field),
            },
            Expr::List(l) => {
                let types: Vec<(u64, Ty)> = l.elements.iter().map(|x| (x.id, self.infer(x, found))).collect();
                uniform(e.id, &types, found);
                Ty::list(types.first().map_or(Ty::Free, |(_, t)| t.clone()))
            }
            Expr::Map(m) => {
                let (mut keys, mut values) = (Vec::new(), Vec::new());
                for entry in &m.entries {
                    if let EntryExpr::MapEntry(me) = &entry.expr {
                        keys.push((me.key.id, self.infer(&me.key, found)));
                        values.push((me.value.id, self.infer(&me.value, found)));
                    }
                }
                uniform(e.id, &keys, found);
                uniform(e.id, &values, found);
                let first = |v: &[(u64, Ty)]| v.first().map_or(Ty::Free, |(_, t)| t.clone());
                Ty::Map(Box::new(first(&keys)), Box::new(first(&values)))
            }
            Expr::Struct(s) => {
                for entry in &s.entries {
                    if let EntryExpr::StructField(f) = &entry.expr {
                        self.infer(&f.value, found);
                    }
                }
                Ty::Named(s.type_name.clone())
            }
            Expr::Call(c) => {
                let target = c.target.as_ref().map(|t| self.infer(t, found));
                let args: Vec<Ty> = c.args.iter().map(|a| self.infer(a, found)).collect();
                call_type(&c.func_name, target.as_ref(), &args)
            }
            Expr::Comprehension(c) => {
                let range = self.infer(&c.iter_range, found);
                let accu0 = self.infer(&c.accu_init, found);
                self.locals.push((c.iter_var.clone(), range.element()));
                self.locals.push((c.accu_var.clone(), accu0.clone()));
                self.infer(&c.loop_cond, found);
                let step = self.infer(&c.loop_step, found);
                let accu = accu0.join(&step);
                self.locals.last_mut().expect("the accumulator").1 = accu;
                let result = self.infer(&c.result, found);
                self.locals.truncate(self.locals.len() - 2);
                result
            }
            Expr::Unspecified => Ty::Unknown,
        }
    }
}

/// Records the first element of `types` whose type is not the first's.
fn uniform(literal: u64, types: &[(u64, Ty)], found: &mut Vec<(u64, Ty, Ty)>) {
    let Some((_, first)) = types.first() else { return };
    if let Some((_, other)) = types.iter().skip(1).find(|(_, t)| !first.same(t)) {
        found.push((literal, first.clone(), other.clone()));
    }
}

/// Parses `text` as the API server would (macros expanded) and returns its type and the
/// literals it mixes, each with its offset in `text`.
pub fn check_expression(text: &str, variables: &HashMap<String, Ty>) -> Result<(Ty, Vec<(u32, Ty, Ty)>), String> {
    let (ast, info) = cel::parser::Parser::new().parse_with_source_info(text).map_err(|e| format!("{e}: {text}"))?;
    let mut found = Vec::new();
    let ty = TypeEnv { variables, locals: Vec::new() }.infer(&ast, &mut found);
    let at = |id: u64| info.offset_for(id).map_or(0, |(start, _)| start);
    Ok((ty, found.into_iter().map(|(id, a, b)| (at(id), a, b)).collect()))
}

/// Every expression of a printed admission policy (validating or mutating), with where it is:
/// the variables first, in order, then every other field named `expression`,
/// `messageExpression` or `valueExpression`, wherever the spec holds one.
pub fn expressions(policy: &Value) -> (Vec<(String, String)>, Vec<(String, String)>) {
    let variables = policy["spec"]["variables"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| {
            (v["name"].as_str().unwrap_or_default().to_string(), v["expression"].as_str().unwrap_or_default().into())
        })
        .collect();
    let mut others = Vec::new();
    collect(&policy["spec"], "spec", &mut others);
    others.retain(|(at, _)| !at.starts_with("spec.variables"));
    (variables, others)
}

fn collect(v: &Value, at: &str, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("expression" | "messageExpression" | "valueExpression", Value::String(s)) => {
                        out.push((format!("{at}.{k}"), s.clone()))
                    }
                    _ => collect(x, &format!("{at}.{k}"), out),
                }
            }
        }
        Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| collect(x, &format!("{at}[{i}]"), out)),
        _ => {}
    }
}

/// The literals of `policy` whose elements are not provably of one type, with variables typed
/// as their expressions and then as `dyn`; and how many literals were checked.
pub fn mixed_literals(policy: &Value) -> Result<(Vec<Mixed>, usize), String> {
    let (variables, others) = expressions(policy);
    let mut mixed = Vec::new();
    let mut literals = 0;
    for typed in [true, false] {
        let mut types: HashMap<String, Ty> = HashMap::new();
        let mode = if typed { "variables typed" } else { "variables dyn" };
        let named = variables.iter().map(|(n, e)| (format!("spec.variables[{n}]"), e, Some(n)));
        let rest = others.iter().map(|(at, e)| (at.clone(), e, None));
        for (at, text, variable) in named.chain(rest) {
            let (ty, found) = check_expression(text, &types)?;
            if typed {
                literals += count_literals(text)?;
            }
            if let Some(name) = variable {
                types.insert(name.clone(), if typed { ty } else { Ty::Dyn });
            }
            let at = format!("{at} ({mode})");
            mixed.extend(found.into_iter().map(|(offset, a, b)| Mixed { at: at.clone(), offset, types: (a, b) }));
        }
    }
    Ok((mixed, literals))
}

/// How many list and map literals of two elements or more an expression holds (what the check
/// has something to compare in).
fn count_literals(text: &str) -> Result<usize, String> {
    fn walk(e: &IdedExpr) -> usize {
        let here = match &e.expr {
            Expr::List(l) => usize::from(l.elements.len() > 1),
            Expr::Map(m) => usize::from(m.entries.len() > 1),
            _ => 0,
        };
        here + children(e).into_iter().map(walk).sum::<usize>()
    }
    let ast = cel::parser::Parser::new().parse(text).map_err(|e| format!("{e}: {text}"))?;
    Ok(walk(&ast))
}

fn children(e: &IdedExpr) -> Vec<&IdedExpr> {
    match &e.expr {
        Expr::Call(c) => c.target.iter().map(|t| &**t).chain(&c.args).collect(),
        Expr::Select(s) => vec![&s.operand],
        Expr::List(l) => l.elements.iter().collect(),
        Expr::Map(m) => m
            .entries
            .iter()
            .flat_map(|en| match &en.expr {
                EntryExpr::MapEntry(me) => vec![&me.key, &me.value],
                EntryExpr::StructField(f) => vec![&f.value],
            })
            .collect(),
        Expr::Struct(s) => s
            .entries
            .iter()
            .filter_map(|en| match &en.expr {
                EntryExpr::StructField(f) => Some(&f.value),
                EntryExpr::MapEntry(_) => None,
            })
            .collect(),
        Expr::Comprehension(c) => vec![&c.iter_range, &c.accu_init, &c.loop_cond, &c.loop_step, &c.result],
        _ => Vec::new(),
    }
}
