//! `doctor KIND/NAME`: one MR in depth, for a human.

use super::style::sanitize;
use std::io::{self, Write};
use upjet_core::age::age;
use upjet_core::create_marks::CreateMarks;
use upjet_core::deletion::Deletion;
use upjet_core::finding::{Code, Finding};
use upjet_core::gotime::GoTime;
use upjet_core::kstatus;
use upjet_core::managed::ManagedResource;
use upjet_core::policies::Policies;

/// Writes the detail view of one MR and its findings.
pub fn write_detail(out: &mut dyn Write, mr: &ManagedResource, findings: &[Finding], now: GoTime) -> io::Result<()> {
    let s = sanitize;
    let verdict = kstatus::compute(mr);
    writeln!(out, "Name:            {}", s(&mr.name))?;
    writeln!(out, "Namespace:       {}", s(mr.namespace.as_deref().unwrap_or("(cluster-scoped)")))?;
    writeln!(out, "Kind:            {}.{} ({})", s(&mr.kind), s(mr.group()), s(&mr.api_version))?;
    writeln!(out, "UID:             {}", s(&mr.uid))?;
    let external_name = match (mr.external_name(), mr.external_name_placeholder()) {
        (Some(name), _) => name.to_owned(),
        (None, Some(stub)) => format!("<none> (holds the placeholder {:?}, which names no cloud object)", stub.value),
        (None, None) => "<none>".to_owned(),
    };
    writeln!(out, "External name:   {}", s(&external_name))?;
    writeln!(out, "atProvider.id:   {}", s(mr.at_provider_id.as_deref().unwrap_or("<none>")))?;
    writeln!(out, "Policies:        {}", s(&Policies::of(mr).describe()))?;
    if let Some(p) = &mr.deletion_policy {
        writeln!(out, "Deletion policy: {}", s(p))?;
    }
    // What `kubectl delete` would do to the cloud object: crossplane-runtime's ShouldDelete and
    // the reconciler's gates, so nobody has to work out the policy/deletionPolicy interplay.
    let due = findings.iter().find(|f| f.code == Code::CreateInFlight).and_then(|f| f.evidence.get("resultDue"));
    let deletion = Deletion::of(mr);
    let on_delete = due.map(|d| deletion.describe_after_create(d)).unwrap_or_else(|| deletion.describe());
    writeln!(out, "On delete:       {}", s(&on_delete))?;
    writeln!(out, "kstatus:         {}", s(&verdict.to_string()))?;

    write_marks(out, mr, due.map(String::as_str), now)?;

    writeln!(out, "\nAnnotations (crossplane.io):")?;
    if mr.annotations.is_empty() {
        writeln!(out, "  <none>")?;
    }
    for (k, v) in &mr.annotations {
        writeln!(out, "  {}: {}", s(k), s(v))?;
    }

    writeln!(out, "\nConditions:")?;
    if mr.conditions.is_empty() {
        writeln!(out, "  <none>")?;
    }
    for c in &mr.conditions {
        let age = c
            .last_transition_time
            .as_deref()
            .and_then(GoTime::parse_rfc3339)
            .map(|t| age(&t, &now))
            .unwrap_or_else(|| "-".into());
        writeln!(out, "  {:<20} {:<8} {:<20} {:<6} {}", s(&c.type_), s(&c.status), s(&c.reason), age, s(&c.message))?;
    }

    writeln!(out, "\nFindings:")?;
    if findings.is_empty() {
        writeln!(out, "  none: creation and identity tracking look consistent")?;
    }
    for f in findings {
        writeln!(out, "  {} {}: {}", f.severity.to_string().to_uppercase(), f.code, s(&f.message))?;
        for (k, v) in &f.evidence {
            writeln!(out, "      {}: {}", s(k), s(v))?;
        }
        writeln!(out, "      next: {}", s(&f.next))?;
    }
    Ok(())
}

/// The create marks, oldest first, with their ages and crossplane-runtime's verdict on them;
/// `due`: when the result of a create still in flight is due (doctor's `CreateInFlight`).
fn write_marks(out: &mut dyn Write, mr: &ManagedResource, due: Option<&str>, now: GoTime) -> io::Result<()> {
    let s = sanitize;
    writeln!(out, "\nCreate marks (oldest first):")?;
    let marks = CreateMarks::of(mr);
    let timeline = marks.timeline();
    if timeline.is_empty() {
        writeln!(out, "  <none>")?;
    }
    for m in timeline {
        let raw = m.raw.as_deref().unwrap_or("");
        let when = if m.at.is_zero() {
            "unparsable: crossplane reads zero time".to_string()
        } else {
            format!("{} ago", age(&m.at, &now))
        };
        writeln!(out, "  {:<40} {:<27} {}", m.key, s(raw), when)?;
    }
    let verdict_line = match (marks.incomplete(), due) {
        (true, Some(due)) => format!(
            "incomplete (pending is newer than any result), but the create may still be running: its result is due by {due}"
        ),
        (true, None) => "incomplete (pending is newer than any result)".to_string(),
        (false, _) => "complete".to_string(),
    };
    if marks.pending.raw.is_some() {
        writeln!(out, "  => creation {verdict_line}")?;
    }
    Ok(())
}
