//! Label and field selectors with the apiserver's syntax.

/// One requirement of a label selector.
#[derive(Debug, Clone)]
pub(crate) enum Req {
    Eq(String, String),
    Ne(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    NotExists(String),
    Gt(String, i64),
    Lt(String, i64),
}

/// A parsed label selector: all requirements must hold (comma = AND).
#[derive(Debug, Clone, Default)]
pub(crate) struct LabelSelector(pub Vec<Req>);

fn valid_key(k: &str) -> bool {
    !k.is_empty()
        && k.len() <= 317
        && k.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
}

fn valid_value(v: &str) -> bool {
    v.len() <= 63 && v.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Splits on commas that are not inside parentheses.
fn split_top(s: &str) -> Vec<&str> {
    let mut out = vec![];
    let (mut depth, mut start) = (0i32, 0usize);
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// One requirement of a label selector (its key and values checked by the caller).
fn parse_requirement(p: &str) -> Result<Req, String> {
    let err = || format!("unable to parse requirement: found '{p}', expected: identifier");
    if p.is_empty() {
        return Err("unable to parse requirement: found '', expected: identifier".into());
    }
    let int = |v: &str| {
        v.trim().parse().map_err(|_| {
            format!("unable to parse requirement: for 'Gt', 'Lt' operators, the value must be an integer: {p}")
        })
    };
    Ok(if let Some(k) = p.strip_prefix('!') {
        let k = k.trim();
        if !valid_key(k) {
            return Err(err());
        }
        Req::NotExists(k.into())
    } else if let Some((k, v)) = p.split_once("!=") {
        Req::Ne(k.trim().into(), v.trim().into())
    } else if let Some((k, v)) = p.split_once("==") {
        Req::Eq(k.trim().into(), v.trim().into())
    } else if let Some((k, v)) = p.split_once('=') {
        Req::Eq(k.trim().into(), v.trim().into())
    } else if let Some((k, v)) = p.split_once('>') {
        Req::Gt(k.trim().into(), int(v)?)
    } else if let Some((k, v)) = p.split_once('<') {
        Req::Lt(k.trim().into(), int(v)?)
    } else if let Some(open) = p.find('(') {
        let head = p[..open].trim();
        let close = p
            .rfind(')')
            .filter(|c| *c > open && p[c + 1..].trim().is_empty())
            .ok_or_else(|| format!("unable to parse requirement: found '{p}', expected: ')'"))?;
        let vals: Vec<String> =
            p[open + 1..close].split(',').map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect();
        let (k, op) = head.rsplit_once(char::is_whitespace).ok_or_else(err)?;
        let k = k.trim().to_string();
        match op {
            "in" => Req::In(k, vals),
            "notin" => Req::NotIn(k, vals),
            _ => {
                return Err(format!(
                    "unable to parse requirement: found '{op}', expected: in, notin, =, ==, !=, gt, lt"
                ));
            }
        }
    } else {
        if !valid_key(p) {
            return Err(err());
        }
        Req::Exists(p.into())
    })
}

impl LabelSelector {
    /// Parses `k=v`, `k==v`, `k!=v`, `k`, `!k`, `k in (a,b)`, `k notin (a,b)`, `k>1`, `k<1`.
    pub(crate) fn parse(s: &str) -> Result<Self, String> {
        let mut reqs = vec![];
        if s.trim().is_empty() {
            return Ok(Self(reqs));
        }
        for part in split_top(s) {
            let req = parse_requirement(part.trim())?;
            let (key, vals): (&str, Vec<&str>) = match &req {
                Req::Eq(k, v) | Req::Ne(k, v) => (k, vec![v]),
                Req::In(k, v) | Req::NotIn(k, v) => (k, v.iter().map(String::as_str).collect()),
                Req::Exists(k) | Req::NotExists(k) | Req::Gt(k, _) | Req::Lt(k, _) => (k, vec![]),
            };
            if !valid_key(key) {
                return Err(format!("unable to parse requirement: invalid label key \"{key}\""));
            }
            if let Some(v) = vals.iter().find(|v| !valid_value(v)) {
                return Err(format!("unable to parse requirement: invalid label value: \"{v}\""));
            }
            reqs.push(req);
        }
        Ok(Self(reqs))
    }

    /// Whether labels (sorted key/value pairs) satisfy every requirement.
    pub(crate) fn matches(&self, labels: &[(String, String)]) -> bool {
        let get = |k: &str| labels.iter().find(|(lk, _)| lk == k).map(|(_, v)| v.as_str());
        self.0.iter().all(|r| match r {
            Req::Eq(k, v) => get(k) == Some(v.as_str()),
            Req::Ne(k, v) => get(k) != Some(v.as_str()),
            Req::In(k, vs) => get(k).is_some_and(|x| vs.iter().any(|v| v == x)),
            Req::NotIn(k, vs) => get(k).is_none_or(|x| !vs.iter().any(|v| v == x)),
            Req::Exists(k) => get(k).is_some(),
            Req::NotExists(k) => get(k).is_none(),
            Req::Gt(k, n) => get(k).and_then(|x| x.parse::<i64>().ok()).is_some_and(|x| x > *n),
            Req::Lt(k, n) => get(k).and_then(|x| x.parse::<i64>().ok()).is_some_and(|x| x < *n),
        })
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// A parsed field selector: `field=value`, `field==value`, `field!=value`, comma = AND.
#[derive(Debug, Clone, Default)]
pub(crate) struct FieldSelector(pub Vec<(String, bool, String)>);

impl FieldSelector {
    /// Parses and checks every field against the resource's selectable fields.
    pub(crate) fn parse(s: &str, supported: &[&str]) -> Result<Self, String> {
        let mut out = vec![];
        if s.trim().is_empty() {
            return Ok(Self(out));
        }
        for part in s.split(',') {
            let p = part.trim();
            let (k, eq, v) = if let Some((k, v)) = p.split_once("!=") {
                (k, false, v)
            } else if let Some((k, v)) = p.split_once("==") {
                (k, true, v)
            } else if let Some((k, v)) = p.split_once('=') {
                (k, true, v)
            } else {
                return Err(format!("invalid selector: '{s}'; can't understand '{p}'"));
            };
            let k = k.trim();
            if !supported.contains(&k) {
                return Err(format!("field label not supported: {k}"));
            }
            out.push((k.to_string(), eq, v.trim().to_string()));
        }
        Ok(Self(out))
    }

    /// Whether the object's field values (missing = "") satisfy every term.
    pub(crate) fn matches(&self, get: impl Fn(&str) -> String) -> bool {
        self.0.iter().all(|(k, eq, v)| (get(k) == *v) == *eq)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn label_selectors() {
        let labels = l(&[("app", "web"), ("tier", "front"), ("n", "5")]);
        for (sel, want) in [
            ("app=web", true),
            ("app==web", true),
            ("app!=web", false),
            ("app", true),
            ("!app", false),
            ("!missing", true),
            ("app in (web, db)", true),
            ("app notin (web,db)", false),
            ("missing notin (a)", true),
            ("app=web,tier=back", false),
            ("app in (web),tier", true),
            ("n>4,n<6", true),
            ("", true),
        ] {
            assert_eq!(LabelSelector::parse(sel).unwrap().matches(&labels), want, "{sel}");
        }
        assert!(LabelSelector::parse("app=(").is_err());
        assert!(LabelSelector::parse("a b").is_err());
    }

    #[test]
    fn field_selectors() {
        let f = FieldSelector::parse("metadata.name=a,metadata.namespace!=b", &["metadata.name", "metadata.namespace"])
            .unwrap();
        assert!(f.matches(|k| if k == "metadata.name" { "a".into() } else { "c".into() }));
        assert!(FieldSelector::parse("spec.x=1", &["metadata.name"]).is_err());
    }
}
