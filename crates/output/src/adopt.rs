//! How `adopt` and `restore` print: the plan, the progress events, what state a stop leaves the
//! MR in, and the end-of-run lines. Everything from the cluster goes through [`sanitize`].

use crate::style::sanitize;
use serde_json::Value;
use std::io::{self, Write};
use std::time::Duration;
use upjet_core::adopt::machine::{MAX_BENIGN_CONFLICTS, Phase, Stop, TimedOut};
use upjet_core::adopt::{Change, Event, Plan};
use upjet_core::patch::resource_version;
use upjet_core::shell::{ShellCommand, quoted};

/// One changed field: `field: "before" -> "after"` (`<none>` for absent).
pub fn change_line(c: &Change) -> String {
    let show = |v: &Option<String>| {
        v.as_deref().map(|s| format!("{}", quoted(&sanitize(s)))).unwrap_or_else(|| "<none>".into())
    };
    format!("{}: {} -> {}", sanitize(&c.field), show(&c.before), show(&c.after))
}

/// The line an event prints as (progress lines are indented under their step).
pub fn event_line(event: &Event) -> String {
    match event {
        Event::Resuming { started, backup } => {
            format!("resuming the adoption started at {}; original backup: {}", sanitize(started), sanitize(backup))
        }
        Event::BackupWritten(path) => format!("backup: {}", path.display()),
        Event::StepStarted { number, total, title } => format!("[{number}/{total}] {}", sanitize(title)),
        Event::StepSkipped { number, total, title } => format!("[{number}/{total}] {} (already done)", sanitize(title)),
        Event::Written { resource_version } => format!("      done (resourceVersion {})", sanitize(resource_version)),
        Event::RetryingStatusOnly { resource_version } => format!(
            "      the object changed meanwhile (status only); retrying on resourceVersion {}",
            sanitize(resource_version)
        ),
        Event::ChangedMeanwhile { target } => {
            format!("      {} was changed by someone else meanwhile:", sanitize(target))
        }
        Event::ChangedField(c) => format!("        {}", change_line(c)),
        Event::Replanning => "      re-planning from its current state".to_string(),
        Event::Progress(m) => format!("      {}", sanitize(m)),
        Event::ReadFailed(e) => format!("      could not read the MR: {}", sanitize(e)),
        Event::PausingAgain => "      pausing it again and putting its management policies back".to_string(),
        Event::CouldNotPauseChanged(n) => format!("      could not pause it: it changed meanwhile ({n} fields)"),
        Event::CouldNotPause(e) => format!("      could not pause it: {e}"),
        Event::ProviderReports(m) => format!("      the provider reports: {}", sanitize(m)),
        Event::PuttingBack => "      putting the MR back exactly as it was".to_string(),
    }
}

/// A duration as `--timeout` accepts it: whole minutes as `5m`, else seconds.
pub(crate) fn humantime(d: Duration) -> String {
    let s = d.as_secs();
    if s >= 60 && s.is_multiple_of(60) { format!("{}m", s / 60) } else { format!("{}s", d.as_secs_f64()) }
}

/// Why a wait ended without confirmation.
pub fn timed_out(t: &TimedOut) -> String {
    format!("the provider did not confirm within {} (last seen: {})", humantime(t.after), sanitize(&t.last))
}

/// Why an adoption stopped, in words (`target` for the ones that name it).
pub fn stop_reason(stop: &Stop, target: &str) -> String {
    match stop {
        Stop::Interrupted => "interrupted".to_string(),
        Stop::Conflicted(_) => "it changed while adopting (a conflicting write); not overwriting it".to_string(),
        Stop::KeepsChanging => format!("{target} keeps changing; gave up after {MAX_BENIGN_CONFLICTS} conflicts"),
        Stop::NameChanged(name) => format!(
            "the external-name changed to {} while waiting; not continuing",
            quoted(&sanitize(name.as_deref().unwrap_or("<none>")))
        ),
        Stop::TimedOut(t) => timed_out(t),
        Stop::Failed => "failed".to_string(),
    }
}

/// What state a stopped adoption leaves the MR in, and how to go on from there.
pub fn left_in(phase: Phase, target: &str, plan: &Plan) -> String {
    let restore = match plan.marker.backup.as_deref() {
        Some(path) => sanitize(&ShellCommand::upjet("restore").arg(path).to_string()),
        None => "kubectl upjet restore BACKUP".to_string(),
    };
    let backup = plan.marker.backup.as_deref().map(sanitize).unwrap_or_else(|| "(none)".into());
    let target = sanitize(target);
    match phase {
        Phase::Untouched => "nothing changed".to_string(),
        Phase::Paused => format!(
            "{target} is left paused (crossplane.io/paused: \"true\"); backup: {backup}. Run the same command again to finish the adoption, or `{restore}` to undo it"
        ),
        Phase::Observing => format!(
            "{target} is left observing only (managementPolicies [\"Observe\"]: it cannot create, update or delete) with external-name {}; backup: {backup}. Run the same command again to finish, or `{restore}`",
            quoted(&sanitize(&plan.id))
        ),
        Phase::Adopted => {
            format!("{target} is adopted (external-name {}, unpaused); backup: {backup}", quoted(&sanitize(&plan.id)))
        }
    }
}

/// The plan for a human: what, the warnings, the end-state changes, the steps — and, with
/// `patch_path` (dry run), every patch as it would be sent.
pub fn write_plan(w: &mut dyn Write, plan: &Plan, patch_path: Option<&str>, obj: &Value) -> io::Result<()> {
    write_plan_head(w, plan)?;
    writeln!(w, "Steps:")?;
    for step in &plan.steps {
        let done = if step.patch.is_none() && step.wait.is_none() { " (already done)" } else { "" };
        writeln!(w, "  {}. {}{done}", step.number, sanitize(&step.title))?;
        if let (Some(path), Some(p)) = (patch_path, step.patch_at(resource_version(obj))) {
            writeln!(w, "     PATCH {} (application/merge-patch+json, dryRun=All)", sanitize(path))?;
            writeln!(w, "     {}", sanitize(&p.to_string()))?;
        }
    }
    w.flush()
}

fn write_plan_head(w: &mut dyn Write, plan: &Plan) -> io::Result<()> {
    let s = sanitize;
    let import = if plan.import { " (--import: verified with Observe-only first)" } else { "" };
    writeln!(w, "Adopt {} as ID {}{import}", s(&plan.target), quoted(&s(&plan.id)))?;
    if plan.resumed {
        let backup = plan.marker.backup.as_deref().unwrap_or("unknown");
        writeln!(w, "Resuming an unfinished adoption started at {} (backup: {})", s(&plan.marker.started), s(backup))?;
    }
    if !plan.warnings.is_empty() {
        writeln!(w, "Warnings:")?;
        for warning in &plan.warnings {
            writeln!(w, "  ! {}", s(warning))?;
        }
    }
    writeln!(w, "Changes when done:")?;
    if plan.changes.is_empty() {
        writeln!(w, "  (none beyond the steps below)")?;
    }
    for c in &plan.changes {
        writeln!(w, "  {}", change_line(c))?;
    }
    let observing = if plan.import {
        ", then observes only (managementPolicies [\"Observe\"]) until the provider confirms the ID"
    } else {
        ""
    };
    writeln!(w, "Meanwhile the MR is paused{observing}.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_lines() {
        assert_eq!(humantime(Duration::from_secs(300)), "5m");
        assert_eq!(humantime(Duration::from_millis(1500)), "1.5s");
        let c = Change { field: "f".into(), before: None, after: Some("a\u{1b}".into()) };
        assert_eq!(change_line(&c), "f: <none> -> \"a\\\\u{1b}\"");
        let e = Event::StepSkipped { number: 1, total: 4, title: "pause".into() };
        assert_eq!(event_line(&e), "[1/4] pause (already done)");
    }
}
