//! Terminal safety and kubectl's time format, applied by every printer (whether to colour is
//! decided once, in the settings layer).

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

/// kubectl's `duration.HumanDuration`, the AGE column's format.
pub fn human_duration(secs: i64) -> String {
    if secs < -1 {
        return "<invalid>".into();
    }
    let s = secs.max(0);
    let (m, h, d) = (s / 60, s / 3600, s / 86_400);
    if s < 120 {
        format!("{s}s")
    } else if m < 10 {
        if s % 60 == 0 { format!("{m}m") } else { format!("{m}m{}s", s % 60) }
    } else if m < 180 {
        format!("{m}m")
    } else if h < 8 {
        if m % 60 == 0 { format!("{h}h") } else { format!("{h}h{}m", m % 60) }
    } else if h < 48 {
        format!("{h}h")
    } else if h < 24 * 8 {
        if h % 24 == 0 { format!("{d}d") } else { format!("{d}d{}h", h % 24) }
    } else if h < 24 * 365 * 2 {
        format!("{d}d")
    } else if d / 365 < 8 {
        let y = d / 365;
        if d % 365 == 0 { format!("{y}y") } else { format!("{y}y{}d", d % 365) }
    } else {
        format!("{}y", d / 365)
    }
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

    #[test]
    fn ages_like_kubectl() {
        for (secs, want) in [
            (0, "0s"),
            (59, "59s"),
            (119, "119s"),
            (120, "2m"),
            (150, "2m30s"),
            (600, "10m"),
            (10_799, "179m"),
            (10_800, "3h"),
            (11_000, "3h3m"),
            (8 * 3600, "8h"),
            (47 * 3600, "47h"),
            (48 * 3600, "2d"),
            (50 * 3600, "2d2h"),
            (8 * 86_400, "8d"),
            (730 * 86_400, "2y"),
            (731 * 86_400, "2y1d"),
            (9 * 365 * 86_400, "9y"),
            (-5, "<invalid>"),
            (-1, "0s"),
        ] {
            assert_eq!(human_duration(secs), want, "{secs}");
        }
    }
}
