//! How client-go prints what a template selects, which is how Go prints it: scalars with
//! `fmt.Print` (floats as `%v`: `1e+06`), maps and lists as `encoding/json` writes them (keys
//! sorted, `<`, `>` and `&` escaped), and custom-columns cells with `fmt.Sprint` (`map[a:1]`).
//! Written here because neither serde_json nor Rust's `Display` print Go's forms.

use serde_json::Value;
use std::fmt::Write;

/// Go's `%v` of a float64: shortest digits, exponent form below 1e-4 or from 1e6 (at 6 digits).
pub(crate) fn go_float(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf".into() } else { "-Inf".into() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    if (-4..6).contains(&exp) {
        return format!("{f}");
    }
    exponent_form(mantissa, exp)
}

fn exponent_form(mantissa: &str, exp: i32) -> String {
    let sign = if exp < 0 { '-' } else { '+' };
    format!("{mantissa}e{sign}{:02}", exp.abs())
}

/// Go's `encoding/json` form of a float64: plain decimals, exponent form below 1e-6 or from 1e21.
fn json_float(f: f64) -> String {
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let sci = format!("{f:e}");
        let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let sign = if exp < 0 { '-' } else { '+' };
        return format!("{mantissa}e{sign}{}", exp.abs());
    }
    format!("{f}")
}

fn number(n: &serde_json::Number, float: fn(f64) -> String) -> String {
    if n.is_i64() || n.is_u64() { n.to_string() } else { float(n.as_f64().unwrap_or_default()) }
}

/// `fmt.Print` of a scalar as client-go's `evalToText` does it (`null` for a JSON null).
pub(crate) fn to_text(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => number(n, go_float),
        Value::String(s) => s.clone(),
        composite => to_json(composite),
    }
}

/// `fmt.Sprint` of any value: custom-columns cells (`map[k:v]`, `[a b]`, `<nil>`).
pub(crate) fn sprint(v: &Value) -> String {
    let mut out = String::new();
    sprint_into(&mut out, v);
    out
}

fn sprint_into(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("<nil>"),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                sprint_into(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push_str("map[");
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(k);
                out.push(':');
                sprint_into(out, &map[k]);
            }
            out.push(']');
        }
        scalar => out.push_str(&to_text(scalar)),
    }
}

/// Compact `json.Marshal`.
pub fn to_json(v: &Value) -> String {
    let mut out = String::new();
    json_into(&mut out, v, None, 0);
    out
}

/// `json.MarshalIndent(v, "", "    ")`.
pub(crate) fn to_json_indented(v: &Value) -> String {
    let mut out = String::new();
    json_into(&mut out, v, Some("    "), 0);
    out
}

fn newline(out: &mut String, indent: Option<&str>, depth: usize) {
    if let Some(step) = indent {
        out.push('\n');
        for _ in 0..depth {
            out.push_str(step);
        }
    }
}

fn json_into(out: &mut String, v: &Value, indent: Option<&str>, depth: usize) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&number(n, json_float)),
        Value::String(s) => json_string(out, s),
        Value::Array(items) if items.is_empty() => out.push_str("[]"),
        Value::Object(map) if map.is_empty() => out.push_str("{}"),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent, depth + 1);
                json_into(out, item, indent, depth + 1);
            }
            newline(out, indent, depth);
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, indent, depth + 1);
                json_string(out, k);
                out.push_str(if indent.is_some() { ": " } else { ":" });
                json_into(out, &map[k], indent, depth + 1);
            }
            newline(out, indent, depth);
            out.push('}');
        }
    }
}

fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Go's `strconv.Unquote`, extended as client-go extends it to single-quoted strings of any length.
pub fn unquote(raw: &str) -> Result<String, String> {
    let quote = raw.chars().next().ok_or("invalid syntax")?;
    let inner = raw
        .strip_prefix(quote)
        .and_then(|r| r.strip_suffix(quote))
        .filter(|_| raw.len() >= 2)
        .ok_or("invalid syntax")?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let escaped = chars.next().ok_or("invalid syntax")?;
        let simple = match escaped {
            'n' => Some('\n'),
            't' => Some('\t'),
            'r' => Some('\r'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'f' => Some('\u{c}'),
            'v' => Some('\u{b}'),
            '\\' | '"' | '\'' => Some(escaped),
            _ => None,
        };
        if let Some(s) = simple {
            out.push(s);
            continue;
        }
        let (digits, radix) = match escaped {
            'x' => (2, 16),
            'u' => (4, 16),
            'U' => (8, 16),
            '0'..='7' => (2, 8),
            _ => return Err("invalid syntax".into()),
        };
        let mut code: String = if radix == 8 { escaped.to_string() } else { String::new() };
        for _ in 0..digits {
            code.push(chars.next().ok_or("invalid syntax")?);
        }
        let n = u32::from_str_radix(&code, radix).map_err(|_| "invalid syntax")?;
        out.push(char::from_u32(n).ok_or("invalid syntax")?);
    }
    Ok(out)
}
