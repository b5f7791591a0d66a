//! Text escaped for the markup the printers write: HTML (`-o html`) and XML (`-o junit`). What
//! they print comes from clusters, snapshots and logs, so every text and attribute value passes
//! through [`escape`].

/// The markup a text is escaped for. The two differ only in the apostrophe's entity and in what
/// becomes of a control character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Markup {
    /// HTML: `'` as `&#39;`; a control character other than newline and tab becomes U+FFFD, which
    /// a page shows instead of acting on it.
    Html,
    /// XML 1.0: `'` as `&apos;`; a character below U+0020 other than tab, newline and carriage
    /// return is dropped, since XML 1.0 cannot carry it.
    Xml,
}

impl Markup {
    /// What `c` is written as, when not as itself: an entity, U+FFFD, or nothing at all.
    fn replacement(self, c: char) -> Option<&'static str> {
        Some(match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' => "&quot;",
            '\'' if self == Markup::Html => "&#39;",
            '\'' => "&apos;",
            '\n' | '\t' => return None,
            c if !c.is_control() => return None,
            _ if self == Markup::Html => "\u{fffd}",
            c if c == '\r' || u32::from(c) >= 0x20 => return None,
            _ => "",
        })
    }
}

/// Text or an attribute value, escaped for `markup`: `&`, `<`, `>`, `"` and `'`, and the control
/// characters it should not carry.
pub fn escape(s: &str, markup: Markup) -> String {
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match markup.replacement(c) {
            Some(text) => out.push_str(text),
            None => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{Markup, escape};

    #[test]
    fn escapes_what_would_become_markup() {
        let text = "<img src=x onerror=\"alert('1')\">&\u{7}\r\u{7f}";
        assert_eq!(
            escape(text, Markup::Html),
            "&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;\u{fffd}\u{fffd}\u{fffd}"
        );
        assert_eq!(
            escape(text, Markup::Xml),
            "&lt;img src=x onerror=&quot;alert(&apos;1&apos;)&quot;&gt;&amp;\r\u{7f}"
        );
        assert_eq!(escape("a\tb\nc", Markup::Html), escape("a\tb\nc", Markup::Xml));
    }
}
