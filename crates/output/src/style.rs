//! Terminal safety, applied by every printer (whether to colour is decided once, in the
//! settings layer).

/// Makes text from the cluster safe to print: control characters (ESC, CR, BEL, C1 …) become
/// visible escapes, so a crafted name or message cannot rewrite the user's terminal.
pub fn sanitize(s: &str) -> String {
    if !s.chars().any(char::is_control) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizes_control_characters() {
        assert_eq!(sanitize("plain-name"), "plain-name");
        assert_eq!(sanitize("a\x1b[2Jb"), "a\\u{1b}[2Jb");
        assert_eq!(sanitize("x\ry\n"), "x\\ry\\n");
        assert_eq!(sanitize("ünïcödé ✓"), "ünïcödé ✓");
        assert_eq!(sanitize("\u{9b}31m"), "\\u{9b}31m");
    }
}
