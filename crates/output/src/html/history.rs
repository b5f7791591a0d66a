//! `history KIND/NAME -o html`: the MR's timeline as an SVG picture, one mark per timeline entry
//! (create marks, conditions, events, provider restarts and log lines, audit writes, cloud calls,
//! change-log records) in one lane per source along the time axis, entries without a time in a
//! column of their own; below it every entry, the external-names seen and what matters. A mark
//! and its row select each other.

use super::{escape, page};
use std::fmt::Write as _;
use std::io::{self, Write};
use upjet_core::gotime::GoTime;
use upjet_core::managed::ManagedResource;
use upjet_evidence::timeline::{Entry, Timeline};

/// The picture's script.
const SCRIPT: &str = include_str!("history.js");

/// The picture's geometry, in SVG units.
const WIDTH: f64 = 960.0;
const LEFT: f64 = 110.0;
const RIGHT: f64 = 24.0;
const UNDATED: f64 = 80.0;
const TOP: f64 = 16.0;
const LANE: f64 = 28.0;
const AXIS: f64 = 34.0;

/// An entry's source as the JSON names it (`log`, `changelog`, …).
fn source_name(e: &Entry) -> String {
    serde_json::to_value(e.source).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
}

/// A colour per source, so one lane reads at a glance.
fn colour(source: &str) -> &'static str {
    match source {
        "object" => "#455a64",
        "annotation" => "#6a1b9a",
        "condition" => "#00838f",
        "event" => "#ef6c00",
        "pod" => "#c62828",
        "log" => "#1565c0",
        "workspace" => "#558b2f",
        "audit" => "#ad1457",
        "cloud" => "#f9a825",
        _ => "#37474f",
    }
}

/// The SVG: lanes, the time axis, and one mark per entry.
fn picture(html: &mut String, entries: &[Entry]) {
    let sources: Vec<String> = entries.iter().map(source_name).fold(Vec::new(), |mut seen, s| {
        if !seen.contains(&s) {
            seen.push(s);
        }
        seen
    });
    let times: Vec<Option<i64>> =
        entries.iter().map(|e| e.time.as_deref().and_then(GoTime::parse_rfc3339).map(|t| t.unix_secs())).collect();
    let (min, max) = times.iter().flatten().fold((i64::MAX, i64::MIN), |(lo, hi), &t| (lo.min(t), hi.max(t)));
    let undated = times.iter().any(Option::is_none);
    let plot_right = WIDTH - RIGHT - if undated { UNDATED } else { 0.0 };
    let height = TOP + LANE * sources.len().max(1) as f64 + AXIS;
    let _ = write!(
        html,
        "<svg id=\"timeline\" role=\"img\" aria-label=\"timeline\" xmlns=\"http://www.w3.org/2000/svg\" width=\"{WIDTH}\" height=\"{height}\" viewBox=\"0 0 {WIDTH} {height}\">"
    );
    for (lane, s) in sources.iter().enumerate() {
        let y = TOP + LANE * lane as f64 + LANE / 2.0;
        let _ = write!(
            html,
            "<line x1=\"{LEFT}\" x2=\"{}\" y1=\"{y}\" y2=\"{y}\" stroke=\"#e3e5e8\"/><text x=\"8\" y=\"{}\">{}</text>",
            WIDTH - RIGHT,
            y + 4.0,
            escape(s)
        );
    }
    let axis_y = TOP + LANE * sources.len().max(1) as f64 + 14.0;
    if min <= max {
        let first = entries.iter().zip(&times).find(|(_, t)| **t == Some(min)).and_then(|(e, _)| e.time.clone());
        let last = entries.iter().zip(&times).find(|(_, t)| **t == Some(max)).and_then(|(e, _)| e.time.clone());
        let _ = write!(
            html,
            "<text x=\"{LEFT}\" y=\"{axis_y}\">{}</text><text x=\"{plot_right}\" y=\"{axis_y}\" text-anchor=\"end\">{}</text>",
            escape(&first.unwrap_or_default()),
            escape(&last.unwrap_or_default())
        );
    }
    if undated {
        let _ = write!(
            html,
            "<text x=\"{}\" y=\"{axis_y}\" text-anchor=\"middle\">no time</text>",
            WIDTH - RIGHT - UNDATED / 2.0
        );
    }
    for (i, (e, t)) in entries.iter().zip(&times).enumerate() {
        let source = source_name(e);
        let lane = sources.iter().position(|s| *s == source).unwrap_or(0);
        let x = match t {
            Some(_) if max == min => (LEFT + plot_right) / 2.0,
            Some(t) => LEFT + (plot_right - LEFT) * (t - min) as f64 / (max - min) as f64,
            None => WIDTH - RIGHT - UNDATED / 2.0,
        };
        let y = TOP + LANE * lane as f64 + LANE / 2.0;
        let title = format!("{} {source}: {}", e.time.as_deref().unwrap_or("no time"), e.text);
        let _ = write!(
            html,
            "<g class=\"mark\" data-index=\"{i}\" data-source=\"{}\"><circle cx=\"{x:.1}\" cy=\"{y}\" r=\"5\" fill=\"{}\"/><title>{}</title></g>",
            escape(&source),
            colour(&source),
            escape(&title)
        );
    }
    html.push_str("</svg>\n");
}

/// The evidence below the picture: every entry, the external-names seen, what matters, notes.
fn evidence(html: &mut String, t: &Timeline, notes: &[String]) {
    html.push_str("<h2>What matters</h2><ul>");
    if t.highlights.is_empty() {
        html.push_str("<li class=\"mute\">nothing unusual</li>");
    }
    for h in &t.highlights {
        let _ = write!(html, "<li>{}</li>", escape(h));
    }
    html.push_str("</ul><h2>External names seen</h2><ul>");
    if t.external_names.is_empty() {
        html.push_str("<li class=\"mute\">none</li>");
    }
    for n in &t.external_names {
        let when = match (&n.first, &n.last) {
            (Some(f), Some(l)) if f != l => format!(" first {f}, last {l}"),
            (Some(f), _) => format!(" at {f}"),
            _ => String::new(),
        };
        let _ = write!(
            html,
            "<li><code>{}</code>{} ({})</li>",
            escape(&n.value),
            escape(&when),
            escape(&n.sources.join(", "))
        );
    }
    html.push_str("</ul><h2>Timeline</h2><table id=\"entries\"><thead><tr><th>#</th><th>Time</th><th>Source</th><th>What</th></tr></thead><tbody>\n");
    for (i, e) in t.entries.iter().enumerate() {
        let _ = writeln!(
            html,
            "<tr id=\"entry-{i}\" data-index=\"{i}\"><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            i + 1,
            escape(e.time.as_deref().unwrap_or("-")),
            escape(&source_name(e)),
            escape(&e.text)
        );
    }
    html.push_str("</tbody></table>");
    if !notes.is_empty() {
        html.push_str("<h2>Notes</h2><ul>");
        for n in notes {
            let _ = write!(html, "<li>{}</li>", escape(n));
        }
        html.push_str("</ul>");
    }
}

/// Writes one MR's history as one self-contained page.
pub fn write_history(out: &mut dyn Write, mr: &ManagedResource, t: &Timeline, notes: &[String]) -> io::Result<()> {
    let title = format!("History of {}", mr.command_arg());
    let mut html = String::with_capacity(4096 + 256 * t.entries.len());
    let _ = writeln!(
        html,
        "<header><h1>{}</h1><p class=\"sub\">uid {} · {} timeline entries</p></header>",
        escape(&title),
        escape(&mr.uid),
        t.entries.len()
    );
    picture(&mut html, &t.entries);
    evidence(&mut html, t, notes);
    page(out, &title, &html, SCRIPT)
}
