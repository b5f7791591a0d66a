//! The fleet summary (`doctor -o summary`): one aligned row per code × kind × provider config,
//! worst first, each followed by the command that deals with the whole group.

use super::style::sanitize;
use std::io::{self, Write};
use upjet_core::finding::Severity;
use upjet_core::summary::Group;

/// Summary options.
#[derive(Clone, Debug, Default)]
pub struct SummaryOptions {
    /// Colour severities.
    pub color: bool,
    /// The summary stands in for the table doctor would have printed: say how to get the table.
    pub table_hint: bool,
    /// How many cloud objects a provider restart would create again, and the command that saves
    /// their IDs first (`summary.restartDuplicates`).
    pub restart: Option<(usize, String)>,
}

/// `4012` → `4,012`: counts in the thousands are read at a glance.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn severity(s: Severity, color: bool, width: usize) -> String {
    let text = format!("{:<width$}", s.to_string().to_uppercase());
    if !color {
        return text;
    }
    let code = match s {
        Severity::Error => 31,
        Severity::Warning => 33,
        Severity::Info => 36,
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}

/// Writes the summary; one line saying so when there are no findings.
pub fn write_summary(out: &mut dyn Write, groups: &[Group], opts: &SummaryOptions) -> io::Result<()> {
    let total: usize = groups.iter().map(|g| g.count).sum();
    if groups.is_empty() {
        return writeln!(out, "No findings.");
    }
    let plural = |n: usize, one: &str, many: &str| if n == 1 { one.to_string() } else { many.to_string() };
    writeln!(
        out,
        "{} {} in {} {}, most severe first:",
        thousands(total),
        plural(total, "finding", "findings"),
        groups.len(),
        plural(groups.len(), "group", "groups")
    )?;
    writeln!(out)?;
    let clusters = groups.iter().any(|g| g.cluster.is_some());
    let rows: Vec<Vec<String>> = groups
        .iter()
        .map(|g| {
            let mut row = vec![thousands(g.count), g.severity.to_string().to_uppercase(), g.code.to_string()];
            if clusters {
                row.push(sanitize(g.cluster.as_deref().unwrap_or("-")));
            }
            row.extend([
                sanitize(&g.kind),
                sanitize(&g.provider_config.as_ref().map_or_else(|| "-".to_string(), ToString::to_string)),
                if g.with_id == 0 { "-".into() } else { format!("{} of {}", thousands(g.with_id), thousands(g.count)) },
            ]);
            row
        })
        .collect();
    let mut header: Vec<String> = ["COUNT", "SEVERITY", "CODE"].map(String::from).to_vec();
    if clusters {
        header.push("CLUSTER".into());
    }
    header.extend(["KIND", "PROVIDERCONFIG", "IDS KNOWN"].map(String::from));
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    // COUNT right-aligned, SEVERITY (coloured) given, the others left-aligned; the last unpadded.
    let line = |row: &[String], sev: String| {
        let mut text = format!("{:>w$}   {sev}", row[0], w = widths[0]);
        for (i, cell) in row.iter().enumerate().skip(2) {
            if i + 1 == row.len() {
                text.push_str(&format!("   {cell}"));
            } else {
                text.push_str(&format!("   {cell:<w$}", w = widths[i]));
            }
        }
        text
    };
    writeln!(out, "{}", line(&header, format!("{:<w$}", header[1], w = widths[1])).trim_end())?;
    for (g, row) in groups.iter().zip(&rows) {
        writeln!(out, "{}", line(row, severity(g.severity, opts.color, widths[1])).trim_end())?;
        writeln!(out, "{:>w$}   → {}", "", sanitize(&g.next), w = widths[0])?;
        if g.per_mr {
            writeln!(out, "{:>w$}     (the first MR's command; each of the others needs its own)", "", w = widths[0])?;
        }
    }
    if let Some((n, command)) = opts.restart.as_ref().filter(|(n, _)| *n > 0) {
        write_restart(out, *n, command, widths[0])?;
    }
    if opts.table_hint {
        writeln!(out)?;
        writeln!(
            out,
            "This is the summary of {} findings; the full table is one flag away: -o table",
            thousands(total)
        )?;
    }
    Ok(())
}

/// The footer of a live fleet: what a provider restart would create again, and the command that
/// saves the IDs first.
fn write_restart(out: &mut dyn Write, n: usize, command: &str, indent: usize) -> io::Result<()> {
    let one = n == 1;
    writeln!(out)?;
    writeln!(
        out,
        "A provider restart would create {} cloud {} again right now: {} ID lives only in the provider's memory. Save {} first:",
        thousands(n),
        if one { "object" } else { "objects" },
        if one { "its" } else { "their" },
        if one { "it" } else { "them" }
    )?;
    writeln!(out, "{:>indent$}   → {}", "", sanitize(command))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        for (n, want) in [(0, "0"), (999, "999"), (1000, "1,000"), (4012, "4,012"), (1234567, "1,234,567")] {
            assert_eq!(thousands(n), want);
        }
    }
}
