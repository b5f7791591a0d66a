//! CEL text as the guard's policies carry it, each piece built together with its worst-case
//! runtime cost, so that every printed expression comes with an estimate and none can exceed the
//! API server's limits unnoticed.
//!
//! The API server enforces cost at run time, per expression (`PerCallLimit`), per evaluation of
//! a (policy, binding, parameter) triple (`RuntimeCELCostBudget`) and for the match conditions
//! (`RuntimeCELCostBudgetMatchConditions`); it does not reject a policy for its static estimate,
//! since `object` is untyped for custom resources. An expression that runs over the limit errs,
//! and with `failurePolicy: Ignore` the write goes through. The estimate here follows cel-go's
//! cost model (`checker/cost.go`, `interpreter/runtimecost.go`): an identifier or a field
//! selection costs 1, a constant 0, a list literal 10 and a map literal 30 plus their elements, a
//! call 1 plus, for strings, a tenth of the bytes it traverses (rounded up); `in` over a list
//! pays one comparison per element, over a map one lookup; a comprehension pays its body once
//! per element. Sizes come from the API's own limits ([`bound`]): a string's cost is taken at
//! its largest allowed size, and every list the guard iterates is first checked against
//! [`bound::LIST`], so that its cost has a bound at all.

use std::fmt::Write as _;

/// The API server's CEL cost limits (`k8s.io/apiserver/pkg/apis/cel/config.go`).
pub mod limit {
    /// One expression's evaluation (`PerCallLimit`).
    pub const PER_CALL: u64 = 1_000_000;
    /// Every expression of a policy for one binding and one parameter (`RuntimeCELCostBudget`).
    pub(crate) const PER_POLICY: u64 = 10_000_000;
    /// The match conditions of one binding (`RuntimeCELCostBudgetMatchConditions`).
    pub(crate) const MATCH_CONDITIONS: u64 = 2_500_000;
}

/// What one authorization check costs (`authorizer….check(verb)`): a fixed 350,000, set by
/// k8s.io/apiserver's CEL cost estimator (`pkg/cel/library/cost.go`) so that one expression
/// holds at most two.
pub const AUTHZ_CHECK: u64 = 350_000;

/// The largest sizes the expressions can meet, from Kubernetes' own validation: strings in
/// bytes, lists and maps in elements.
pub mod bound {
    /// `metadata.name` of a custom resource: a DNS subdomain.
    pub const NAME: u64 = 253;
    /// `metadata.namespace`: a DNS label.
    pub const NAMESPACE: u64 = 63;
    /// An API group: a DNS subdomain.
    pub const GROUP: u64 = 253;
    /// A kind or a plural: a CRD's names are DNS-1035 labels once lower-cased.
    pub const KIND: u64 = 63;
    /// One annotation value: every annotation of an object together is at most 256 KiB
    /// (`TotalAnnotationSizeLimitB`).
    pub(crate) const ANNOTATION: u64 = 262_144;
    /// A list the guard iterates or compares (management policies, conditions): the expressions
    /// check `size(list) <= LIST` first and judge nothing beyond it, so no list costs more.
    pub const LIST: u64 = 64;
    /// Any list in a request, before the guard's own check: the request's 3 MiB
    /// (`MaxRequestSizeBytes`), two bytes an element.
    pub(crate) const OBJECT_LIST: u64 = 3 * 1024 * 1024 / 2;
    /// A `spec.forProvider` scalar the format rule reads (what doctor's format inference keeps).
    pub(crate) const SCALAR: u64 = 512;
    /// The groups of a requesting user: no authenticator gives more (an assumption, stated).
    pub(crate) const USER_GROUPS: u64 = 4_096;
    /// A username: compared with literals only, so the literal's size bounds the comparison.
    pub(crate) const USERNAME: u64 = 1_024;
}

/// One CEL expression: its text, its worst-case runtime cost and the largest size of its value
/// (bytes of a string, elements of a list or map, 1 otherwise).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cel {
    text: String,
    cost: u64,
    size: u64,
}

/// A tenth of `bytes`, rounded up: cel-go's `StringTraversalCostFactor`.
fn tenth(bytes: u64) -> u64 {
    bytes.div_ceil(10)
}

/// A CEL string literal: single-quoted, with `\`, `'` and control characters escaped (both
/// cel-go and cel-rust read `\\`, `\'` and `\uXXXX`); other UTF-8 text is kept as it is.
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('\'');
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\'' => out.push_str("\\'"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

impl Cel {
    fn new(text: String, cost: u64, size: u64) -> Cel {
        Cel { text, cost, size }
    }

    /// The expression text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The worst-case runtime cost.
    pub fn cost(&self) -> u64 {
        self.cost
    }

    /// The largest size of the value.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// A string literal (cost 0).
    pub fn lit(s: &str) -> Cel {
        Cel::new(quote(s), 0, s.len() as u64)
    }

    /// A boolean or integer constant, or `null`.
    pub fn constant(text: &str) -> Cel {
        Cel::new(text.to_string(), 0, 1)
    }

    /// A variable or a chain of field selections (`object.metadata.name`): 1 per identifier or
    /// selection. `size` is the value's largest size.
    pub fn path(text: &str, size: u64) -> Cel {
        Cel::new(text.to_string(), text.split('.').count() as u64, size)
    }

    /// `variables.NAME`, with the variable's own cost counted at every use (the API server
    /// evaluates a variable once, at its first use, so this over-counts: conservative).
    pub fn var(name: &str, def: &Cel) -> Cel {
        Cel::new(format!("variables.{name}"), 2 + def.cost, def.size)
    }

    /// `self.field`.
    pub fn dot(&self, field: &str, size: u64) -> Cel {
        Cel::new(format!("{}.{field}", self.text), self.cost + 1, size)
    }

    /// `self[key]`.
    pub fn at(&self, key: &Cel, size: u64) -> Cel {
        Cel::new(format!("{}[{}]", self.text, key.text), self.cost + key.cost + 1, size)
    }

    /// `has(self)`: `self` must end in a field selection.
    pub fn has(&self) -> Cel {
        Cel::new(format!("has({})", self.text), self.cost, 1)
    }

    /// `key in self`, for a map (one lookup).
    pub(crate) fn has_key(&self, key: &Cel) -> Cel {
        Cel::new(format!("({} in {})", key.text, self.text), self.cost + key.cost + 1, 1)
    }

    /// `self in [literals]`: one comparison per element.
    pub(crate) fn one_of(&self, list: &[&str]) -> Cel {
        let literal = Cel::list(list.iter().map(|s| Cel::lit(s)).collect());
        let longest = list.iter().map(|s| s.len() as u64).max().unwrap_or(0);
        let compare = 1 + tenth(self.size.min(longest));
        Cel::new(
            format!("({} in {})", self.text, literal.text),
            self.cost + literal.cost + list.len() as u64 * compare,
            1,
        )
    }

    /// `item in self`, for a list whose size is bounded and whose elements are at most `elem`
    /// bytes: one comparison per element.
    pub fn contains(&self, item: &Cel, elem: u64) -> Cel {
        let compare = 1 + tenth(item.size.min(elem));
        Cel::new(format!("({} in {})", item.text, self.text), self.cost + item.cost + self.size * compare, 1)
    }

    /// `self == other`.
    pub fn eq(&self, other: &Cel) -> Cel {
        self.compare("==", other)
    }

    /// `self != other`.
    pub(crate) fn ne(&self, other: &Cel) -> Cel {
        self.compare("!=", other)
    }

    /// `self < other` (strings: lexicographic).
    pub fn lt(&self, other: &Cel) -> Cel {
        self.compare("<", other)
    }

    fn compare(&self, op: &str, other: &Cel) -> Cel {
        let cost = self.cost + other.cost + 1 + tenth(self.size.min(other.size));
        Cel::new(format!("({} {op} {})", self.text, other.text), cost, 1)
    }

    /// `self != other` over two lists of bounded size whose elements are at most `elem` bytes:
    /// one comparison per element.
    pub(crate) fn list_ne(&self, other: &Cel, elem: u64) -> Cel {
        let cost = self.cost + other.cost + 1 + self.size.min(other.size) * (1 + tenth(elem));
        Cel::new(format!("({} != {})", self.text, other.text), cost, 1)
    }

    /// `self OP n` for an integer comparison (`<=`, `>`).
    pub(crate) fn int_cmp(&self, op: &str, n: u64) -> Cel {
        Cel::new(format!("({} {op} {n})", self.text), self.cost + 1, 1)
    }

    /// `a && b && …` (`true` when empty).
    pub fn and(parts: Vec<Cel>) -> Cel {
        Cel::chain(parts, " && ", "true")
    }

    /// `a || b || …` (`false` when empty).
    pub fn or(parts: Vec<Cel>) -> Cel {
        Cel::chain(parts, " || ", "false")
    }

    fn chain(parts: Vec<Cel>, op: &str, empty: &str) -> Cel {
        match parts.len() {
            0 => Cel::constant(empty),
            1 => parts.into_iter().next().expect("one part"),
            n => {
                let cost = parts.iter().map(|p| p.cost).sum::<u64>() + n as u64 - 1;
                let text = parts.iter().map(|p| p.text.as_str()).collect::<Vec<_>>().join(op);
                Cel::new(format!("({text})"), cost, 1)
            }
        }
    }

    /// `!self`.
    pub fn not(&self) -> Cel {
        Cel::new(format!("!{}", self.text), self.cost + 1, 1)
    }

    /// `c ? t : f`.
    pub fn cond(c: &Cel, t: &Cel, f: &Cel) -> Cel {
        Cel::new(format!("({} ? {} : {})", c.text, t.text, f.text), c.cost + t.cost.max(f.cost) + 1, t.size.max(f.size))
    }

    /// `a + b + …` over strings, left to right: each `+` traverses everything joined so far,
    /// so put the largest parts last.
    pub fn concat(parts: Vec<Cel>) -> Cel {
        let mut iter = parts.into_iter();
        let Some(first) = iter.next() else { return Cel::lit("") };
        let mut text = first.text;
        let (mut cost, mut size) = (first.cost, first.size);
        for p in iter {
            size += p.size;
            cost += p.cost + 1 + tenth(size);
            text.push_str(" + ");
            text.push_str(&p.text);
        }
        Cel::new(format!("({text})"), cost, size)
    }

    /// `size(self)`.
    pub fn size_of(&self) -> Cel {
        Cel::new(format!("size({})", self.text), self.cost + 1, 1)
    }

    /// `string(self)` of a string, an integer or a boolean.
    pub fn to_str(&self, size: u64) -> Cel {
        Cel::new(format!("string({})", self.text), self.cost + 1 + tenth(size), size)
    }

    /// `type(self) == NAME` (`string`, `int`, `bool`).
    pub(crate) fn is_type(&self, name: &str) -> Cel {
        Cel::new(format!("(type({}) == {name})", self.text), self.cost + 2, 1)
    }

    /// A list literal.
    pub fn list(items: Vec<Cel>) -> Cel {
        let cost = 10 + items.iter().map(|i| i.cost).sum::<u64>();
        let text = items.iter().map(|i| i.text.as_str()).collect::<Vec<_>>().join(", ");
        Cel::new(format!("[{text}]"), cost, items.len() as u64)
    }

    /// A map literal from string keys to `true`: a set whose membership is one lookup.
    pub fn set(keys: &[String]) -> Cel {
        let mut text = String::from("{");
        for (i, k) in keys.iter().enumerate() {
            if i > 0 {
                text.push_str(", ");
            }
            text.push_str(&quote(k));
            text.push_str(": true");
        }
        text.push('}');
        Cel::new(text, 30, keys.len() as u64)
    }

    /// `self.exists(VAR, body)`: `body` receives the element as a path of size `elem`. The
    /// list's size must be bounded by the caller ([`bound::LIST`]).
    pub fn exists(&self, var: &str, elem: u64, body: impl Fn(&Cel) -> Cel) -> Cel {
        self.comprehension("exists", var, elem, body)
    }

    /// `self.all(VAR, body)`, as [`Cel::exists`].
    pub fn all(&self, var: &str, elem: u64, body: impl Fn(&Cel) -> Cel) -> Cel {
        self.comprehension("all", var, elem, body)
    }

    fn comprehension(&self, macro_: &str, var: &str, elem: u64, body: impl Fn(&Cel) -> Cel) -> Cel {
        let b = body(&Cel::path(var, elem));
        let cost = self.cost + 1 + self.size * (b.cost + 2);
        Cel::new(format!("{}.{macro_}({var}, {})", self.text, b.text), cost, 1)
    }

    /// `self.filter(VAR, body)`: a list of at most as many elements.
    pub fn filter(&self, var: &str, elem: u64, body: impl Fn(&Cel) -> Cel) -> Cel {
        let mut out = self.comprehension("filter", var, elem, body);
        out.size = self.size;
        out
    }

    /// `self.map(VAR, body)`: as many elements as `self`.
    pub(crate) fn map_each(&self, var: &str, elem: u64, body: impl Fn(&Cel) -> Cel) -> Cel {
        let b = body(&Cel::path(var, elem));
        let cost = self.cost + 1 + self.size * (b.cost + 2);
        Cel::new(format!("{}.map({var}, {})", self.text, b.text), cost, self.size)
    }

    /// `self.join()` over a list of strings joined into at most `bytes` bytes: the strings
    /// extension's `join`, traversing every byte.
    pub fn join(&self, bytes: u64) -> Cel {
        Cel::new(format!("{}.join()", self.text), self.cost + 1 + tenth(bytes), bytes)
    }

    /// `self.join(SEP)`, as [`Cel::join`].
    pub(crate) fn join_with(&self, sep: &str, bytes: u64) -> Cel {
        Cel::new(format!("{}.join({})", self.text, quote(sep)), self.cost + 1 + tenth(bytes), bytes)
    }

    /// `self.NAME(args)`, a member function of the API server's CEL libraries whose call costs
    /// `cost` (the authorizer's builders 1, its `check` [`AUTHZ_CHECK`]).
    pub fn method(&self, name: &str, args: &[Cel], cost: u64) -> Cel {
        let text = args.iter().map(|a| a.text.as_str()).collect::<Vec<_>>().join(", ");
        let operands = self.cost + args.iter().map(|a| a.cost).sum::<u64>();
        Cel::new(format!("{}.{name}({text})", self.text), operands + cost, 1)
    }

    /// `self[i]`, an element of a list.
    pub fn nth(&self, i: usize, size: u64) -> Cel {
        Cel::new(format!("{}[{i}]", self.text), self.cost + 1, size)
    }

    /// The same expression with its size replaced: for a list whose size the expression's
    /// own guard bounds (`size(x) <= bound::LIST && …`).
    pub fn bounded(mut self, size: u64) -> Cel {
        self.size = size;
        self
    }

    /// Raw text for the one construct the builder has no combinator for (the mutation's
    /// JSONPatch objects), with its cost given by the caller.
    pub fn raw(text: String, cost: u64, size: u64) -> Cel {
        Cel::new(text, cost, size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotes_what_cel_needs_escaped() {
        assert_eq!(quote("a'b\\c"), r"'a\'b\\c'");
        assert_eq!(quote("line\nbreak"), r"'line\u000abreak'");
        assert_eq!(quote("é/x"), "'é/x'");
    }

    #[test]
    fn costs_follow_cel_go() {
        let name = Cel::path("object.metadata.name", bound::NAME);
        assert_eq!(name.cost(), 3);
        // 3 + 0 + 1 + ceil(min(253, 3) / 10)
        assert_eq!(name.eq(&Cel::lit("abc")).cost(), 5);
        // ("a" + name): 1 + ceil(254 / 10) = 27 on top of the operands' 3.
        assert_eq!(Cel::concat(vec![Cel::lit("a"), name.clone()]).cost(), 3 + 1 + 26);
        let list = Cel::path("l", 1_000).bounded(bound::LIST);
        let ex = list.exists("x", 10, |x| x.eq(&Cel::lit("y")));
        // 1 + 1 + 64 * ((1 + 0 + 1 + 1) + 2)
        assert_eq!(ex.cost(), 2 + 64 * 5);
        assert_eq!(Cel::and(vec![]).text(), "true");
        assert_eq!(Cel::or(vec![Cel::constant("x")]).text(), "x");
        assert_eq!(Cel::set(&["a/B".into()]).text(), "{'a/B': true}");
    }
}
