//! Evaluation of parsed nodes over a JSON value, with client-go's rules: missing keys are
//! errors unless allowed, indexes wrap once when negative, a filter compares one value with one
//! value of the same basic type, `..` yields each container before what is inside it.

use super::parse::{Node, Param};
use super::text::sprint;
use serde_json::Value;
use std::borrow::Cow;

/// A selected value: borrowed from the input, or made by the template (text, numbers).
pub type Val<'a> = Cow<'a, Value>;

/// Evaluation settings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Eval {
    /// kubectl's `--allow-missing-template-keys` (true by default in kubectl).
    pub allow_missing_keys: bool,
}

fn child<'a>(parent: &Val<'a>, pick: impl Fn(&Value) -> Option<&Value>) -> Option<Val<'a>> {
    match parent {
        Cow::Borrowed(v) => pick(v).map(Cow::Borrowed),
        Cow::Owned(v) => pick(v).map(|c| Cow::Owned(c.clone())),
    }
}

/// The values directly inside a container (a string's bytes, as Go iterates a string).
fn children<'a>(parent: &Val<'a>) -> Vec<Val<'a>> {
    match parent.as_ref() {
        Value::Array(items) => (0..items.len()).filter_map(|i| child(parent, |v| v.get(i))).collect(),
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            keys.into_iter().filter_map(|k| child(parent, |v| v.get(k))).collect()
        }
        Value::String(s) => s.bytes().map(|b| Cow::Owned(Value::from(b))).collect(),
        _ => Vec::new(),
    }
}

/// Go's type name for a JSON value as kubectl decodes it (unstructured content).
fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "<nil>",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() || n.is_u64() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

impl Eval {
    /// Applies an action's nodes one after the other.
    pub fn list<'a>(&self, input: Vec<Val<'a>>, nodes: &[Node]) -> Result<Vec<Val<'a>>, String> {
        nodes.iter().try_fold(input, |cur, node| self.walk(cur, node))
    }

    fn walk<'a>(&self, input: Vec<Val<'a>>, node: &Node) -> Result<Vec<Val<'a>>, String> {
        match node {
            Node::Text(t) => Ok(vec![Cow::Owned(Value::String(t.clone()))]),
            Node::Int(i) => Ok(vec![Cow::Owned(Value::from(*i))]),
            Node::Float(f) => Ok(vec![Cow::Owned(Value::from(*f))]),
            Node::Bool(b) => Ok(vec![Cow::Owned(Value::Bool(*b))]),
            Node::List(nodes) => self.list(input, nodes),
            Node::Field(name) => self.field(input, name),
            Node::Wildcard => Ok(input.iter().flat_map(|v| children(v)).collect()),
            Node::Recursive => Ok(recursive(input)),
            Node::Array(params) => array(input, params),
            Node::Union(members) => {
                let mut out = Vec::new();
                for m in members {
                    out.extend(self.list(input.clone(), m)?);
                }
                Ok(out)
            }
            Node::Filter { left, right, op } => self.filter(input, left, right, op),
            Node::Identifier(name) => match name.as_str() {
                "range" => Ok(input),
                "end" => Ok(Vec::new()),
                other => Err(format!("unrecognized identifier {other}")),
            },
        }
    }

    fn field<'a>(&self, input: Vec<Val<'a>>, name: &str) -> Result<Vec<Val<'a>>, String> {
        if input.is_empty() {
            return Ok(input);
        }
        let found: Vec<Val<'a>> = input.iter().filter_map(|v| child(v, |v| v.as_object()?.get(name))).collect();
        if found.is_empty() && !self.allow_missing_keys {
            return Err(format!("{name} is not found"));
        }
        Ok(found)
    }

    fn filter<'a>(&self, input: Vec<Val<'a>>, left: &[Node], right: &[Node], op: &str) -> Result<Vec<Val<'a>>, String> {
        let mut out = Vec::new();
        for value in &input {
            if value.is_null() {
                continue;
            }
            if !value.is_array() {
                return Err(format!("{} is not array or slice and cannot be filtered", sprint(value)));
            }
            for item in children(value) {
                let lefts = self.list(vec![item.clone()], left);
                if op == "exists" {
                    if lefts.is_ok_and(|l| !l.is_empty()) {
                        out.push(item);
                    }
                    continue;
                }
                let Some(l) = single(lefts?)? else { continue };
                let Some(r) = single(self.list(vec![item.clone()], right)?)? else { continue };
                if compare(&l, &r, op)? {
                    out.push(item);
                }
            }
        }
        Ok(out)
    }
}

fn single(values: Vec<Val<'_>>) -> Result<Option<Val<'_>>, String> {
    match values.len() {
        0 => Ok(None),
        1 => Ok(values.into_iter().next()),
        _ => Err("can only compare one element at a time".into()),
    }
}

/// Go template's basic kinds, which a comparison requires to be equal on both sides.
#[derive(PartialEq)]
enum Basic {
    Bool,
    Int,
    Float,
    Str,
}

fn basic(v: &Value) -> Result<Basic, String> {
    match v {
        Value::Bool(_) => Ok(Basic::Bool),
        Value::Number(n) if n.is_i64() || n.is_u64() => Ok(Basic::Int),
        Value::Number(_) => Ok(Basic::Float),
        Value::String(_) => Ok(Basic::Str),
        _ => Err("invalid type for comparison".into()),
    }
}

fn compare(l: &Value, r: &Value, op: &str) -> Result<bool, String> {
    use std::cmp::Ordering;
    if op == "=~" {
        let (Value::String(text), Value::String(pattern)) = (l, r) else {
            return Err(format!(
                "regular expression match requires string operands, got {} and {}",
                go_type(l),
                go_type(r)
            ));
        };
        let re = regex::Regex::new(pattern).map_err(|e| format!("invalid regular expression {pattern}: {e}"))?;
        return Ok(re.is_match(text));
    }
    if !matches!(op, "==" | "!=" | "<" | ">" | "<=" | ">=") {
        return Err(format!("unrecognized filter operator {op}"));
    }
    let (kl, kr) = (basic(l)?, basic(r)?);
    if kl != kr {
        return Err("incompatible types for comparison".into());
    }
    if matches!(op, "==" | "!=") {
        return Ok((l == r || same_number(l, r)) == (op == "=="));
    }
    let ordering = match (l, r) {
        (Value::String(a), Value::String(b)) => a.cmp(b),
        (Value::Number(a), Value::Number(b)) if kl == Basic::Int => match (a.as_i64(), b.as_i64()) {
            (Some(x), Some(y)) => x.cmp(&y),
            _ => a.as_u64().cmp(&b.as_u64()),
        },
        (Value::Number(a), Value::Number(b)) => {
            let (x, y) = (a.as_f64().unwrap_or_default(), b.as_f64().unwrap_or_default());
            x.partial_cmp(&y).ok_or("invalid type for comparison")?
        }
        _ => return Err("invalid type for comparison".into()),
    };
    Ok(match op {
        "<" => ordering == Ordering::Less,
        ">" => ordering == Ordering::Greater,
        "<=" => ordering != Ordering::Greater,
        _ => ordering != Ordering::Less,
    })
}

fn same_number(l: &Value, r: &Value) -> bool {
    matches!((l.as_f64(), r.as_f64()), (Some(a), Some(b)) if a == b)
}

/// `..`: each non-empty container, then the same for what it holds, depth first.
fn recursive(input: Vec<Val<'_>>) -> Vec<Val<'_>> {
    let mut out = Vec::new();
    for value in input {
        let inner = children(&value);
        if !inner.is_empty() {
            out.push(value);
            out.extend(recursive(inner));
        }
    }
    out
}

fn array<'a>(input: Vec<Val<'a>>, params: &[Param; 3]) -> Result<Vec<Val<'a>>, String> {
    let mut out = Vec::new();
    for value in &input {
        if value.is_null() {
            continue;
        }
        let Value::Array(items) = value.as_ref() else {
            return Err(format!("{} is not array or slice", go_type(value)));
        };
        let len = items.len() as i64;
        let mut start = if params[0].known { params[0].value } else { 0 };
        if start < 0 {
            start += len;
        }
        let mut end = if params[1].known { params[1].value } else { len };
        if end < 0 || (end == 0 && params[1].derived) {
            end += len;
        }
        if start == end {
            return Ok(out);
        }
        if start >= len || start < 0 {
            return Err(format!("array index out of bounds: index {start}, length {len}"));
        }
        if end > len || end < 0 {
            return Err(format!("array index out of bounds: index {}, length {len}", end - 1));
        }
        if start > end {
            return Err(format!("starting index {start} is greater than ending index {end}"));
        }
        let step = if params[2].known { params[2].value } else { 1 };
        if step <= 0 {
            return Err("step must be > 0".into());
        }
        let picked = (start..end).step_by(step as usize);
        out.extend(picked.filter_map(|i| child(value, |v| v.get(i as usize))));
    }
    Ok(out)
}
