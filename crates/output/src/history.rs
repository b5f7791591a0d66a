//! The history of one MR, for a human.

use super::style::sanitize;
use std::io::{self, Write};
use upjet_core::managed::ManagedResource;
use upjet_core::shell::quoted;
use upjet_evidence::timeline::Timeline;

/// Writes the timeline, the external-names seen, and the highlights.
pub fn write_history(out: &mut dyn Write, mr: &ManagedResource, t: &Timeline, notes: &[String]) -> io::Result<()> {
    writeln!(out, "History of {} (uid {})", sanitize(&mr.command_arg()), sanitize(&mr.uid))?;
    writeln!(out)?;
    writeln!(out, "{:<32} {:<10} WHAT", "TIME", "SOURCE")?;
    for e in &t.entries {
        let source =
            serde_json::to_value(e.source).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
        writeln!(out, "{:<32} {:<10} {}", e.time.as_deref().unwrap_or("-"), source, sanitize(&e.text))?;
    }
    writeln!(out, "\nExternal names seen:")?;
    if t.external_names.is_empty() {
        writeln!(out, "  <none>")?;
    }
    for n in &t.external_names {
        let when = match (&n.first, &n.last) {
            (Some(f), Some(l)) if f != l => format!(" first {f}, last {l}"),
            (Some(f), _) => format!(" at {f}"),
            _ => String::new(),
        };
        writeln!(out, "  {}{when} ({})", quoted(&sanitize(&n.value)), n.sources.join(", "))?;
    }
    writeln!(out, "\nWhat matters:")?;
    if t.highlights.is_empty() {
        writeln!(out, "  nothing unusual")?;
    }
    for h in &t.highlights {
        writeln!(out, "  ! {}", sanitize(h))?;
    }
    for n in notes {
        writeln!(out, "  note: {}", sanitize(n))?;
    }
    Ok(())
}
