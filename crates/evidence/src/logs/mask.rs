//! Credential masking for log excerpts.
//!
//! Evidence excerpts end up in terminal output, bug reports and JSON files, so any
//! value whose key looks like a credential is replaced by `***` before it is stored.

use std::borrow::Cow;
use std::sync::OnceLock;

use memchr::memmem::Finder;

const KEYWORDS: &[&str] = &[
    "password",
    "passwd",
    "secret",
    "token",
    "private_key",
    "privatekey",
    "private-key",
    "apikey",
    "api_key",
    "api-key",
    "access_key",
    "accesskey",
    "credential",
];

fn keyword_finders() -> &'static [Finder<'static>] {
    static F: OnceLock<Vec<Finder<'static>>> = OnceLock::new();
    F.get_or_init(|| KEYWORDS.iter().map(|k| Finder::new(k.as_bytes())).collect())
}

fn find_from(f: &Finder<'_>, hay: &[u8], from: usize) -> Option<usize> {
    f.find(&hay[from..]).map(|p| from + p)
}

fn is_key_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.')
}

/// Finds the value range after a credential-looking key at `key_end` (the first byte
/// after the keyword), or `None` if no `key: value` / `key=value` follows.
fn value_range(b: &[u8], key_end: usize) -> Option<(usize, usize)> {
    let mut i = key_end;
    while i < b.len() && is_key_char(b[i]) {
        i += 1;
    }
    // Closing quote of the key, possibly escaped (`\"`).
    let mut q = 0;
    while i < b.len() && q < 3 && matches!(b[i], b'"' | b'\'' | b'\\') {
        i += 1;
        q += 1;
    }
    while i < b.len() && b[i] == b' ' {
        i += 1;
    }
    if i >= b.len() || !matches!(b[i], b':' | b'=') {
        return None;
    }
    i += 1;
    while i < b.len() && b[i] == b' ' {
        i += 1;
    }
    // Opening quote: `\"`, `"` or `'`.
    let (start, close): (usize, &[u8]) = if b[i..].starts_with(b"\\\"") {
        (i + 2, b"\\\"")
    } else if b.get(i) == Some(&b'"') {
        (i + 1, b"\"")
    } else if b.get(i) == Some(&b'\'') {
        (i + 1, b"'")
    } else {
        (i, b"")
    };
    let end = if close.is_empty() {
        let mut j = start;
        while j < b.len() && !matches!(b[j], b' ' | b'\t' | b',' | b'}' | b']' | b')' | b';' | b'&' | b'"' | b'\\') {
            j += 1;
        }
        j
    } else {
        let mut j = start;
        loop {
            if j >= b.len() {
                break b.len();
            }
            if close == b"\"" && b[j] == b'\\' {
                // `\"` inside a plain-quoted value ends it only when the key was escaped too.
                j += 2;
                continue;
            }
            if b[j..].starts_with(close) {
                break j;
            }
            j += 1;
        }
    };
    let end = end.min(b.len());
    if end <= start {
        return None;
    }
    let v = &b[start..end];
    if v == b"***" || v == b"null" || v == b"true" || v == b"false" {
        return None;
    }
    Some((start, end))
}

/// Replaces values of credential-looking keys (`password`, `token`, `secret`,
/// `private_key`, `apiKey`, `credentials`, ...), `Bearer` tokens and PEM private-key
/// blocks with `***`. Exists so evidence excerpts can be shown and shared safely;
/// IDs used for matching are never passed through it.
pub(crate) fn mask_secrets(s: &str) -> Cow<'_, str> {
    let lower = s.to_ascii_lowercase();
    let lb = lower.as_bytes();
    let mut ranges: Vec<(usize, usize)> = Vec::new();

    // PEM private key blocks.
    let mut from = 0;
    while let Some(p) = memchr::memmem::find(&lb[from..], b"-----begin") {
        let start = from + p;
        let head_end = match lower[start + 10..].find("-----") {
            Some(e) => start + 10 + e + 5,
            None => break,
        };
        if !lower[start..head_end].contains("private key") {
            from = head_end;
            continue;
        }
        let end = match lower[head_end..].find("-----end") {
            Some(e) => {
                let e = head_end + e;
                lower[e + 8..].find("-----").map_or(lower.len(), |x| e + 8 + x + 5)
            }
            None => lower.len(),
        };
        ranges.push((head_end, end));
        from = end;
    }

    // Bearer tokens.
    from = 0;
    while let Some(p) = memchr::memmem::find(&lb[from..], b"bearer ") {
        let start = from + p + 7;
        let mut end = start;
        while end < lb.len() && !matches!(lb[end], b' ' | b'"' | b'\\' | b',' | b'\'' | b'\t') {
            end += 1;
        }
        if end > start {
            ranges.push((start, end));
        }
        from = end.max(start);
    }

    for f in keyword_finders() {
        let kw_len = f.needle().len();
        let mut from = 0;
        while let Some(p) = find_from(f, lb, from) {
            let key_end = p + kw_len;
            if let Some(r) = value_range(lb, key_end) {
                ranges.push(r);
                from = r.1;
            } else {
                from = key_end;
            }
        }
    }
    if ranges.is_empty() {
        return Cow::Borrowed(s);
    }
    ranges.sort_unstable();
    let mut out = String::with_capacity(s.len());
    let mut pos = 0;
    for (a, b) in ranges {
        if a < pos {
            continue; // overlaps a range already masked
        }
        // Ranges are found on ASCII boundaries (quotes, spaces, keyword ends), so they are
        // char boundaries; guard anyway.
        if !s.is_char_boundary(a) || !s.is_char_boundary(b) {
            continue;
        }
        out.push_str(&s[pos..a]);
        out.push_str("***");
        pos = b;
    }
    out.push_str(&s[pos..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::mask_secrets;

    #[test]
    fn masks_table() {
        let cases: &[(&str, &str)] = &[
            (r#"{"password": "hunter2", "user": "bob"}"#, r#"{"password": "***", "user": "bob"}"#),
            (r#"{"db_password":"hunter2"}"#, r#"{"db_password":"***"}"#),
            (r#"token=abc123&x=1"#, r#"token=***&x=1"#),
            (r#"Authorization: Bearer eyJhbGciOi.x.y"#, r#"Authorization: Bearer ***"#),
            (r#"{\"client_secret\": \"s3cr3t\", \"a\": 1}"#, r#"{\"client_secret\": \"***\", \"a\": 1}"#),
            (r#"secret: plain value"#, r#"secret: *** value"#),
            (r#"privateKey='abc'"#, r#"privateKey='***'"#),
            (r#"{"credentials": "{\"type\": \"service_account\"}"}"#, r#"{"credentials": "***"}"#),
            (
                "key -----BEGIN RSA PRIVATE KEY-----\nMIIabc\n-----END RSA PRIVATE KEY----- tail",
                "key -----BEGIN RSA PRIVATE KEY-----*** tail",
            ),
            (
                "-----BEGIN CERTIFICATE-----abc-----END CERTIFICATE-----",
                "-----BEGIN CERTIFICATE-----abc-----END CERTIFICATE-----",
            ),
            // Not credentials: keyword only inside a value, or no value.
            (r#"{"external-name": "my-secret-bucket"}"#, r#"{"external-name": "my-secret-bucket"}"#),
            (r#"password authentication failed for user x"#, r#"password authentication failed for user x"#),
            (r#"{"token": null}"#, r#"{"token": null}"#),
            (r#"{"token": ""}"#, r#"{"token": ""}"#),
            ("résumé token: ünïcode secret", "résumé token: *** secret"),
            ("", ""),
        ];
        for (input, want) in cases {
            assert_eq!(mask_secrets(input), *want, "input {input:?}");
        }
    }
}
