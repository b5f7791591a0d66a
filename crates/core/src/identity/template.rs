//! The identity template: literal text and placeholders over an MR's own fields, e.g.
//! `projects/{providerConfig.project}/managedZones/{forProvider.managedZone}/rrsets/{forProvider.name}/{forProvider.type}`.
//!
//! It is the same idea as upjet's `TemplatedStringAsIdentifier` (pkg/config/externalname.go),
//! whose Go templates read `.parameters`, `.setup.configuration` and `.external_name`, reduced to
//! what an MR snapshot can answer: braces hold a field, everything else is literal.

use std::fmt;

/// A field of an MR that a template may read.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Field {
    /// `metadata.name`.
    Name,
    /// `metadata.namespace`.
    Namespace,
    /// A top-level scalar of `spec.forProvider`, by its camelCase key.
    ForProvider(String),
    /// A field of the MR's ProviderConfig; only `name` (`spec.providerConfigRef.name`) is in the MR.
    ProviderConfig(String),
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Field::Name => f.write_str("name"),
            Field::Namespace => f.write_str("namespace"),
            Field::ForProvider(k) => write!(f, "forProvider.{k}"),
            Field::ProviderConfig(k) => write!(f, "providerConfig.{k}"),
        }
    }
}

/// One piece of a template.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Part {
    /// Text copied as is.
    Lit(String),
    /// A field's value.
    Field(Field),
}

/// A template: parts in order. Built by [`Template::parse`] or by inference.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Template {
    parts: Vec<Part>,
}

/// Why a template could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TemplateError {
    /// `{` without `}`.
    #[error("unclosed `{{` at byte {0}")]
    Unclosed(usize),
    /// `}` without `{`.
    #[error("`}}` without `{{` at byte {0}")]
    Unopened(usize),
    /// `{}`.
    #[error("empty placeholder `{{}}` at byte {0}")]
    Empty(usize),
    /// A placeholder naming nothing an MR has.
    #[error(
        "unknown field `{0}`: use name, namespace, forProvider.KEY (or parameters.KEY, snake_case accepted) or providerConfig.KEY"
    )]
    Unknown(String),
    /// No placeholder at all: every MR of the kind would get the same ID.
    #[error("the template has no placeholder, so every MR of the kind would get the same ID")]
    Constant,
}

impl Template {
    /// A template from its parts, merging adjacent literals.
    pub(crate) fn from_parts(parts: impl IntoIterator<Item = Part>) -> Template {
        let mut out: Vec<Part> = Vec::new();
        for p in parts {
            match (out.last_mut(), p) {
                (_, Part::Lit(s)) if s.is_empty() => {}
                (Some(Part::Lit(prev)), Part::Lit(s)) => prev.push_str(&s),
                (_, p) => out.push(p),
            }
        }
        Template { parts: out }
    }

    /// Parses `literal{field}literal…`. A field is `name`, `namespace`, `forProvider.KEY`,
    /// `parameters.KEY` (upjet's snake_case parameter names become forProvider's camelCase) or
    /// `providerConfig.KEY`, with an optional leading dot and surrounding spaces.
    pub fn parse(text: &str) -> Result<Template, TemplateError> {
        let mut parts = Vec::new();
        let mut rest = text;
        let mut offset = 0;
        while let Some(open) = rest.find(['{', '}']) {
            if rest.as_bytes()[open] == b'}' {
                return Err(TemplateError::Unopened(offset + open));
            }
            let close = rest[open..].find('}').ok_or(TemplateError::Unclosed(offset + open))? + open;
            parts.push(Part::Lit(rest[..open].to_string()));
            let inner = rest[open + 1..close].trim();
            if inner.contains('{') {
                return Err(TemplateError::Unclosed(offset + open));
            }
            parts.push(Part::Field(parse_field(inner, offset + open)?));
            offset += close + 1;
            rest = &rest[close + 1..];
        }
        parts.push(Part::Lit(rest.to_string()));
        let t = Template::from_parts(parts);
        if t.placeholders() == 0 {
            return Err(TemplateError::Constant);
        }
        Ok(t)
    }

    /// The parts.
    pub fn parts(&self) -> &[Part] {
        &self.parts
    }

    /// How many fields the template reads.
    pub fn placeholders(&self) -> usize {
        self.parts.iter().filter(|p| matches!(p, Part::Field(_))).count()
    }

    /// Fills the template; the error is the first field `value` has no value for.
    pub fn render<'a>(&self, value: impl Fn(&Field) -> Option<&'a str>) -> Result<String, Field> {
        let mut out = String::new();
        for p in &self.parts {
            match p {
                Part::Lit(s) => out.push_str(s),
                Part::Field(f) => out.push_str(value(f).filter(|v| !v.is_empty()).ok_or_else(|| f.clone())?),
            }
        }
        Ok(out)
    }
}

fn parse_field(inner: &str, at: usize) -> Result<Field, TemplateError> {
    let name = inner.strip_prefix('.').unwrap_or(inner);
    let unknown = || TemplateError::Unknown(inner.to_string());
    let key = |k: &str| (!k.is_empty() && !k.contains(['.', ' '])).then(|| k.to_string()).ok_or_else(unknown);
    match name.split_once('.') {
        _ if name.is_empty() => Err(TemplateError::Empty(at)),
        None if name == "name" => Ok(Field::Name),
        None if name == "namespace" => Ok(Field::Namespace),
        Some(("forProvider", k)) => Ok(Field::ForProvider(key(k)?)),
        Some(("parameters", k)) => Ok(Field::ForProvider(camel(&key(k)?))),
        Some(("providerConfig", k)) => Ok(Field::ProviderConfig(key(k)?)),
        _ => Err(unknown()),
    }
}

/// upjet names Terraform arguments in snake_case; the CRD's forProvider uses camelCase.
fn camel(snake: &str) -> String {
    let mut out = String::new();
    let mut up = false;
    for c in snake.chars() {
        match c {
            '_' => up = true,
            c if up => {
                out.extend(c.to_uppercase());
                up = false;
            }
            c => out.push(c),
        }
    }
    out
}

impl fmt::Display for Template {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in &self.parts {
            match p {
                Part::Lit(s) => f.write_str(s)?,
                Part::Field(x) => write!(f, "{{{x}}}")?,
            }
        }
        Ok(())
    }
}

/// `--id-template KIND=TEMPLATE`: a user's template for one kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserTemplate {
    /// The kind, lower-case, as `kind` or `kind.group` (`recordset.dns.gcp.upbound.io`).
    pub kind: String,
    /// The template.
    pub template: Template,
}

impl UserTemplate {
    /// Whether it applies to an MR of `kind` in `group`: `kind` alone matches every group.
    pub fn matches(&self, kind: &str, group: &str) -> bool {
        let (k, g) = self.kind.split_once('.').map_or((self.kind.as_str(), None), |(k, g)| (k, Some(g)));
        k.eq_ignore_ascii_case(kind) && g.is_none_or(|g| g.eq_ignore_ascii_case(group))
    }
}

impl std::str::FromStr for UserTemplate {
    type Err = String;
    fn from_str(s: &str) -> Result<UserTemplate, String> {
        let (kind, text) = s.split_once('=').ok_or_else(|| {
            format!("{s:?} is not KIND=TEMPLATE (example: recordset.dns.gcp.upbound.io=projects/my-project/managedZones/{{forProvider.managedZone}}/rrsets/{{forProvider.name}}/{{forProvider.type}})")
        })?;
        let kind = kind.trim();
        if kind.is_empty() || kind.contains(['/', ' ', '{']) {
            return Err(format!("{kind:?} is not a kind (kind or kind.group, e.g. recordset.dns.gcp.upbound.io)"));
        }
        let template = Template::parse(text).map_err(|e| format!("template for {kind}: {e}"))?;
        Ok(UserTemplate { kind: kind.to_lowercase(), template })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_render() {
        const CASES: &[(&str, Result<&str, &str>)] = &[
            ("{name}", Ok("{name}")),
            ("{ .name }", Ok("{name}")),
            ("ns/{namespace}/{name}", Ok("ns/{namespace}/{name}")),
            ("{parameters.managed_zone}/{forProvider.type}", Ok("{forProvider.managedZone}/{forProvider.type}")),
            ("projects/{providerConfig.project}/x/{name}", Ok("projects/{providerConfig.project}/x/{name}")),
            ("abc", Err("no placeholder")),
            ("a{name", Err("unclosed")),
            ("a}b{name}", Err("without")),
            ("a{}b", Err("empty placeholder")),
            ("{spec.name}", Err("unknown field `spec.name`")),
            ("{forProvider.}", Err("unknown field")),
            ("{forProvider.a.b}", Err("unknown field")),
            ("{{name}}", Err("unclosed")),
        ];
        for (text, want) in CASES {
            match (Template::parse(text), want) {
                (Ok(t), Ok(w)) => assert_eq!(t.to_string(), *w, "{text}"),
                (Err(e), Err(w)) => assert!(e.to_string().contains(w), "{text}: {e}"),
                (got, want) => panic!("{text}: got {got:?}, want {want:?}"),
            }
        }
        let t = Template::parse("projects/p/managedZones/{forProvider.managedZone}/rrsets/{name}").unwrap();
        let value = |f: &Field| match f {
            Field::ForProvider(k) if k == "managedZone" => Some("z"),
            Field::Name => Some("www"),
            _ => None,
        };
        assert_eq!(t.render(value), Ok("projects/p/managedZones/z/rrsets/www".to_string()));
        let missing = Template::parse("{namespace}/{name}").unwrap().render(value);
        assert_eq!(missing, Err(Field::Namespace));
    }

    #[test]
    fn user_templates() {
        let u: UserTemplate = "RecordSet.dns.gcp.upbound.io={forProvider.name}".parse().unwrap();
        assert!(u.matches("RecordSet", "dns.gcp.upbound.io") && !u.matches("RecordSet", "dns.gcp.m.upbound.io"));
        let any_group: UserTemplate = "recordset={name}".parse().unwrap();
        assert!(any_group.matches("RecordSet", "dns.gcp.m.upbound.io"));
        for (bad, why) in [
            ("recordset", "not KIND=TEMPLATE"),
            ("={name}", "not a kind"),
            ("a/b={name}", "not a kind"),
            ("recordset=static", "no placeholder"),
            ("recordset={nope}", "unknown field"),
        ] {
            let err = bad.parse::<UserTemplate>().unwrap_err();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }
}
