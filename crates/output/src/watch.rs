//! `watch`'s lines: one per finding that appears or clears, with its time, as `kubectl get -w`
//! prints one per change; or one JSON object per line (`-o json`) for a script or a log shipper.
//!
//! A person reads columns, so every column but the last two has one width for the whole watch:
//! TIME is RFC 3339 in whole seconds as kubectl prints a time (always 20 characters; the clock's
//! nanoseconds would make it vary), CODE is as wide as the longest code. The JSON lines keep the
//! instant to the nanosecond (`time`, RFC 3339 with the fraction Go's `RFC3339Nano` prints):
//! a script orders and correlates events within a second.

use crate::style;
use serde::Serialize;
use std::io::{self, Write};
use upjet_core::finding::Code;
use upjet_core::gotime::GoTime;
use upjet_core::shell::quoted;
use upjet_core::watch::{Change, MrKey, Transition};

/// The width of the CONTEXT column, when several contexts are watched.
const CONTEXT_WIDTH: usize = 16;

/// The width of the MR column: most `kind.group/name -n namespace` fit; a longer one is printed
/// whole and pushes its message on.
const MR_WIDTH: usize = 48;

/// The width of the CODE column: the longest code's, so that no code pushes the MR column.
fn code_width() -> usize {
    Code::ALL.iter().map(|c| c.as_str().len()).max().unwrap_or(0)
}

/// A time as the TIME column shows it: RFC 3339 in UTC, whole seconds (kubectl's format).
fn seconds(at: GoTime) -> String {
    GoTime::from_unix(at.unix_secs(), 0).to_string()
}

/// One human line: the columns of [`write_header`], the MR and message made safe to print.
fn row(out: &mut dyn Write, at: &str, event: &str, level: &str, code: &str, mr: &str, message: &str) -> io::Result<()> {
    let (mr, message) = (style::sanitize(mr), style::sanitize(message));
    writeln!(out, "{at:<20}  {event:<8}  {level:<7}  {code:<cw$}  {mr:<MR_WIDTH$}  {message}", cw = code_width())
}

/// The human header, printed once before the first line; `context_column` when several
/// contexts are watched (each line then starts with its context, see [`tag`]).
pub fn write_header(out: &mut dyn Write, context_column: bool) -> io::Result<()> {
    if context_column {
        write!(out, "{:<CONTEXT_WIDTH$}  ", "CONTEXT")?;
    }
    writeln!(
        out,
        "{:<20}  {:<8}  {:<7}  {:<cw$}  {:<MR_WIDTH$}  MESSAGE",
        "TIME",
        "EVENT",
        "LEVEL",
        "CODE",
        "MR",
        cw = code_width()
    )
}

/// One change as a human line.
pub fn write_line(out: &mut dyn Write, at: GoTime, change: &Change) -> io::Result<()> {
    let event = match change.transition {
        Transition::Appeared => "APPEARED",
        Transition::Cleared => "CLEARED",
    };
    let mut mr = change.key.reference();
    if let Some(ns) = &change.key.namespace {
        mr.push_str(&format!(" -n {ns}"));
    }
    let f = &change.finding;
    row(out, &seconds(at), event, &f.severity.to_string(), f.code.as_str(), &mr, &f.message)
}

/// One change as a JSON line (`-o json`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Event<'a> {
    time: String,
    event: Transition,
    code: String,
    severity: String,
    group: &'a str,
    kind: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    namespace: Option<&'a str>,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    provider_config: Option<&'a str>,
    message: &'a str,
    next: &'a str,
}

/// One change as one JSON object on one line.
pub fn write_json(out: &mut dyn Write, at: GoTime, change: &Change) -> io::Result<()> {
    let f = &change.finding;
    let event = Event {
        time: at.to_string(),
        event: change.transition,
        code: f.code.to_string(),
        severity: f.severity.to_string(),
        group: &change.key.group,
        kind: &change.key.kind,
        namespace: change.key.namespace.as_deref(),
        name: &change.key.name,
        provider_config: change.provider_config.as_deref(),
        message: &f.message,
        next: &f.next,
    };
    serde_json::to_writer(&mut *out, &event)?;
    writeln!(out)
}

/// A provider restarted: how often since the last look, and the revisions that rolled out.
pub fn write_restart(
    out: &mut dyn Write,
    at: GoTime,
    provider: &str,
    count: u64,
    revisions: &[String],
    json: bool,
) -> io::Result<()> {
    if json {
        let event = serde_json::json!({
            "time": at.to_string(), "event": "providerRestarted", "provider": provider,
            "restarts": count, "newRevisions": revisions,
        });
        serde_json::to_writer(&mut *out, &event)?;
        return writeln!(out);
    }
    let mut message = format!("restarted {count} time{}", if count == 1 { "" } else { "s" });
    if !revisions.is_empty() {
        message.push_str(&format!(" (new revision {})", revisions.join(", ")));
    }
    message.push_str(": its MRs judged again");
    row(out, &seconds(at), "RESTART", "info", "-", provider, &message)
}

/// An MR whose identity, after its provider restarted, lives only in the ID journal: no
/// external-name records it, and the journal holds `id`.
pub fn write_journal_only(out: &mut dyn Write, at: GoTime, key: &MrKey, id: &str, json: bool) -> io::Result<()> {
    let target = key.display();
    let next = key.upjet_command("adopt").opt("--id", id).to_string();
    if json {
        let event = serde_json::json!({
            "time": at.to_string(), "event": "identityOnlyInJournal", "group": key.group, "kind": key.kind,
            "namespace": key.namespace, "name": key.name, "id": id, "next": next,
        });
        serde_json::to_writer(&mut *out, &event)?;
        return writeln!(out);
    }
    let message = format!("after its provider restarted, its ID {} lives only in the ID journal: {next}", quoted(id));
    row(out, &seconds(at), "JOURNAL", "warning", "-", &target, &message)
}

/// The lines one context's watch printed (`buf`, whole lines), among several contexts: a human
/// line gets a CONTEXT column first, a JSON object a `context` field first. The writers above
/// stay unaware of contexts, so a watch of one cluster prints exactly what it always did.
pub fn tag(out: &mut dyn Write, buf: &[u8], context: &str, json: bool) -> io::Result<()> {
    for line in buf.split_inclusive(|b| *b == b'\n') {
        match line.strip_prefix(b"{") {
            Some(rest) if json => {
                out.write_all(b"{\"context\":")?;
                serde_json::to_writer(&mut *out, context)?;
                out.write_all(b",")?;
                out.write_all(rest)?;
            }
            _ => {
                if !json {
                    write!(out, "{:<CONTEXT_WIDTH$}  ", style::sanitize(context))?;
                }
                out.write_all(line)?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use upjet_core::finding::{Code, Severity};
    use upjet_core::watch::{MrKey, Seen};

    fn change(transition: Transition) -> Change {
        Change {
            transition,
            key: MrKey {
                group: "s3.aws.upbound.io".into(),
                kind: "Bucket".into(),
                namespace: Some("team-a".into()),
                name: "assets".into(),
            },
            provider_config: Some("default".into()),
            finding: Seen {
                code: Code::CreateIncomplete,
                severity: Severity::Error,
                message: "create pending since 2024-11-30T10:50:00Z with no result".into(),
                next: "kubectl upjet adopt bucket.s3.aws.upbound.io/assets -n team-a".into(),
            },
        }
    }

    #[test]
    fn lines_for_a_person_and_for_a_script() {
        // The clock's nanoseconds: whole seconds for a person, the instant for a script.
        let at = GoTime::parse_rfc3339("2024-11-30T11:00:00.120034500Z").unwrap();
        let mut human = Vec::new();
        write_header(&mut human, false).unwrap();
        write_line(&mut human, at, &change(Transition::Appeared)).unwrap();
        write_line(&mut human, at, &change(Transition::Cleared)).unwrap();
        let mut json = Vec::new();
        write_json(&mut json, at, &change(Transition::Appeared)).unwrap();
        let key = change(Transition::Appeared).key;
        for as_json in [false, true] {
            let out = if as_json { &mut json } else { &mut human };
            write_restart(out, at, "provider-aws-s3", 2, &["provider-aws-s3-9f1c".into()], as_json).unwrap();
            write_journal_only(out, at, &key, "assets-7f3a", as_json).unwrap();
        }
        insta::assert_snapshot!(String::from_utf8(human).unwrap() + &String::from_utf8(json).unwrap());
    }

    /// Every human line's columns start where the header's do, whatever the clock's nanoseconds
    /// (the TIME column of a watch got them from the wall clock) and whichever code it names.
    #[test]
    fn the_columns_stay_in_line_whatever_the_time_and_the_code() {
        let longest = Code::ALL.iter().copied().max_by_key(|c| c.as_str().len()).unwrap();
        let mut out = Vec::new();
        write_header(&mut out, false).unwrap();
        for (i, nanos) in [0, 500_000_000, 123_456_789, 7].into_iter().enumerate() {
            let at = GoTime::from_unix(1_732_964_400 + i as i64, nanos);
            let mut c = change(Transition::Appeared);
            c.finding.code = if i % 2 == 0 { longest } else { Code::Paused };
            write_line(&mut out, at, &c).unwrap();
        }
        let key = change(Transition::Appeared).key;
        write_restart(&mut out, GoTime::from_unix(1_732_964_400, 1), "provider-aws-s3", 1, &[], false).unwrap();
        write_journal_only(&mut out, GoTime::from_unix(1_732_964_400, 10), &key, "assets-7f3a", false).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        let starts = |line: &str| -> Vec<usize> {
            let cut: Vec<usize> = line.match_indices("  ").map(|(i, _)| i).collect();
            let mut at: Vec<usize> = Vec::new();
            for i in cut {
                let next = line[i..].find(|c: char| c != ' ').map(|j| i + j).unwrap_or(line.len());
                if at.last() != Some(&next) {
                    at.push(next);
                }
            }
            at.into_iter().take(5).collect()
        };
        let header = starts(lines[0]);
        assert_eq!(header.len(), 5, "{text}");
        for line in &lines[1..] {
            assert_eq!(starts(line), header, "{text}");
            assert!(line[..20].ends_with('Z') && !line[..20].contains('.'), "whole seconds: {line}");
        }
        assert!(lines[1].starts_with("2024-11-30T11:00:00Z  APPEARED"), "{text}");
    }

    #[test]
    fn among_several_contexts_a_line_starts_with_its_context_and_an_event_names_it() {
        let at = GoTime::parse_rfc3339("2024-11-30T11:00:00Z").unwrap();
        let mut human = Vec::new();
        write_line(&mut human, at, &change(Transition::Appeared)).unwrap();
        write_line(&mut human, at, &change(Transition::Cleared)).unwrap();
        let mut tagged = Vec::new();
        write_header(&mut tagged, true).unwrap();
        tag(&mut tagged, &human, "prod-eu", false).unwrap();
        let text = String::from_utf8(tagged).unwrap();
        let rows: Vec<&str> = text.lines().collect();
        assert_eq!(rows.len(), 3);
        assert!(rows[0].starts_with("CONTEXT           TIME"), "{text}");
        assert!(rows[1].starts_with("prod-eu           2024-11-30T11:00:00Z  APPEARED"), "{text}");
        assert!(rows[2].contains("CLEARED"), "{text}");
        let mut json = Vec::new();
        write_json(&mut json, at, &change(Transition::Appeared)).unwrap();
        let mut tagged = Vec::new();
        tag(&mut tagged, &json, "prod-\"eu\"", true).unwrap();
        let event: serde_json::Value = serde_json::from_slice(&tagged).unwrap();
        assert_eq!(event["context"], "prod-\"eu\"");
        assert_eq!(event["code"], "CreateIncomplete");
        assert!(String::from_utf8(tagged).unwrap().starts_with("{\"context\":"), "the context comes first");
    }
}
