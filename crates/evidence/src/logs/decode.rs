//! Line decoding: every supported on-disk format to a [`LogRecord`].
//!
//! Split in two tiers so the scanner can stay fast: cheap byte-level helpers
//! (`strip_prefix`, `console_head`, `sniff_zap_json`) that recognise a line and read
//! its time and level without allocating, and full decoders (`decode_text`,
//! `decode_map`) that build the record with all its key/values.

use chrono::{DateTime, TimeDelta, Utc};
use serde_json::{Map, Value};

use super::time::{parse_rfc3339, parse_ts_token, parse_ts_value};
use super::{Envelope, Level, LogRecord, RecordFormat};

/// Context a wrapper hands to the record it contains.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Outer {
    /// Wrapper timestamp (Cloud Logging `timestamp`, Loki ns, kubectl/CRI prefix).
    pub time: Option<DateTime<Utc>>,
    pub envelope: Envelope,
}

impl Outer {
    fn wrap(self, envelope: Envelope, time: Option<DateTime<Utc>>) -> Outer {
        Outer {
            time: self.time.or(time),
            envelope: if self.envelope == Envelope::None { envelope } else { self.envelope },
        }
    }
}

/// A Kubernetes Event entry found in an export (Cloud Logging `jsonPayload` of kind Event).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct KubeEvent {
    pub time: Option<DateTime<Utc>>,
    pub uid: String,
    pub name: Option<String>,
    pub namespace: Option<String>,
    pub kind: Option<String>,
    pub api_version: Option<String>,
    pub external_name: Option<String>,
    pub reason: String,
    pub message: String,
    pub component: Option<String>,
}

/// An export entry that is not a provider log line (audit log, Event).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct NonLog {
    pub envelope: Envelope,
    pub event: Option<Box<KubeEvent>>,
}

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Decoded {
    Record(Box<LogRecord>),
    NonLog(NonLog),
    Unknown,
}

/// Result of stripping tool prefixes from a text line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Prefix<'a> {
    pub rest: &'a [u8],
    pub envelope: Envelope,
    pub time: Option<DateTime<Utc>>,
    /// CRI partial line (`P` tag): the payload continues on the next line.
    pub cri_partial: bool,
}

#[inline]
fn is_ws(c: u8) -> bool {
    c == b' ' || c == b'\t' || c == b'\r'
}

pub(crate) fn trim_ascii(mut b: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = b {
        if is_ws(*first) || *first == b'\n' {
            b = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = b {
        if is_ws(*last) || *last == b'\n' {
            b = rest;
        } else {
            break;
        }
    }
    b
}

/// Parses a zap level token (`DEBUG`, `info`, `Level(-2)`, ANSI-coloured `\x1b[35mDEBUG\x1b[0m`).
pub(crate) fn parse_level(mut tok: &[u8]) -> Option<Level> {
    // Colour escapes (zap CapitalColorLevelEncoder).
    if tok.first() == Some(&0x1b) {
        let m = tok.iter().position(|&c| c == b'm')?;
        tok = &tok[m + 1..];
    }
    if let Some(e) = tok.iter().position(|&c| c == 0x1b) {
        tok = &tok[..e];
    }
    if tok.is_empty() || tok.len() > 12 {
        return None;
    }
    let mut buf = [0u8; 12];
    for (d, s) in buf.iter_mut().zip(tok) {
        *d = s.to_ascii_lowercase();
    }
    let l = &buf[..tok.len()];
    Some(match l {
        b"debug" => Level::Debug,
        b"info" => Level::Info,
        b"warn" | b"warning" => Level::Warn,
        b"error" | b"dpanic" | b"panic" | b"fatal" => Level::Error,
        _ if l.starts_with(b"level(") && l.ends_with(b")") => Level::Debug,
        _ => return None,
    })
}

/// Cloud Logging `severity` names.
fn parse_severity(s: &str) -> Level {
    match s.to_ascii_uppercase().as_str() {
        "DEBUG" => Level::Debug,
        "INFO" | "NOTICE" => Level::Info,
        "WARNING" => Level::Warn,
        "ERROR" | "CRITICAL" | "ALERT" | "EMERGENCY" => Level::Error,
        _ => Level::Other,
    }
}

fn token_end(b: &[u8], from: usize) -> usize {
    let mut i = from;
    while i < b.len() && b[i] != b' ' && b[i] != b'\t' {
        i += 1;
    }
    i
}

fn skip_ws(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
        i += 1;
    }
    i
}

/// Whether a line starts with `<ts> <LEVEL>` (i.e. is a zap console line, not a prefix).
fn starts_console(b: &[u8]) -> bool {
    console_head(b).is_some()
}

fn strip_once(b: &[u8]) -> Option<Prefix<'_>> {
    // kubectl logs --prefix: "[pod/<name>/<container>] ".
    if b.starts_with(b"[pod/") {
        let end = b.iter().take(400).position(|&c| c == b']')?;
        if b.get(end + 1) == Some(&b' ') {
            return Some(Prefix {
                rest: &b[end + 2..],
                envelope: Envelope::KubectlPrefix,
                time: None,
                cri_partial: false,
            });
        }
        return None;
    }
    if b.len() < 20 || !b[0].is_ascii_digit() && !b[0].is_ascii_alphabetic() {
        return None;
    }
    // Loki text export: "2023-12-07 04:37:49.558\t" (local time, no zone: time ignored).
    if b[4] == b'-' && b[7] == b'-' && b[10] == b' ' && b[13] == b':' && b[16] == b':' {
        let mut i = 19;
        if b.get(i) == Some(&b'.') {
            i += 1;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
        if b.get(i) == Some(&b'\t') && b[..4].iter().all(u8::is_ascii_digit) {
            return Some(Prefix { rest: &b[i + 1..], envelope: Envelope::LokiText, time: None, cri_partial: false });
        }
        return None;
    }
    // Kibana text export: "Aug 21, 2024 @ 17:15:50.427\t".
    if b[..3].iter().all(u8::is_ascii_alphabetic) && b[3] == b' ' {
        let head = &b[..b.len().min(40)];
        let at = head.windows(3).position(|w| w == b" @ ")?;
        let tab = head.iter().position(|&c| c == b'\t')?;
        if tab > at {
            return Some(Prefix { rest: &b[tab + 1..], envelope: Envelope::Kibana, time: None, cri_partial: false });
        }
        return None;
    }
    // RFC3339 prefix: kubectl --timestamps or CRI log file.
    if b[4] != b'-' {
        return None;
    }
    let ts_end = token_end(b, 0);
    if ts_end >= b.len() || b[ts_end] != b' ' {
        return None;
    }
    let t = parse_rfc3339(&b[..ts_end])?;
    let after = &b[ts_end + 1..];
    if (after.starts_with(b"stdout ") || after.starts_with(b"stderr "))
        && after.len() >= 8
        && (after[7] == b'F' || after[7] == b'P')
        && (after.len() == 8 || after[8] == b' ')
    {
        let rest = if after.len() > 9 { &after[9..] } else { &[][..] };
        return Some(Prefix { rest, envelope: Envelope::Cri, time: Some(t), cri_partial: after[7] == b'P' });
    }
    if starts_console(b) {
        return None; // "<ts> <LEVEL> ..." is the console line itself.
    }
    if after.first() == Some(&b'{')
        || after.first() == Some(&b'[')
        || parse_ts_token(&after[..token_end(after, 0)]).is_some()
    {
        return Some(Prefix { rest: after, envelope: Envelope::KubectlTimestamps, time: Some(t), cri_partial: false });
    }
    None
}

/// Strips tool prefixes (at most three nested ones, outermost wins for envelope and time).
pub(crate) fn strip_prefix(b: &[u8]) -> Prefix<'_> {
    let mut out = Prefix { rest: b, envelope: Envelope::None, time: None, cri_partial: false };
    for _ in 0..3 {
        match strip_once(out.rest) {
            Some(p) => {
                if out.envelope == Envelope::None {
                    out.envelope = p.envelope;
                }
                out.time = out.time.or(p.time);
                out.cri_partial |= p.cri_partial;
                out.rest = p.rest;
            }
            None => break,
        }
    }
    out
}

/// The fixed head of a zap console line.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ConsoleHead<'a> {
    pub time: DateTime<Utc>,
    pub epoch: bool,
    pub level: Level,
    pub tabbed: bool,
    pub rest: &'a [u8],
}

/// Recognises `<ts><sep><LEVEL><sep>` and returns what follows.
pub(crate) fn console_head(b: &[u8]) -> Option<ConsoleHead<'_>> {
    let ts_end = token_end(b, 0);
    if ts_end == 0 || ts_end >= b.len() {
        return None;
    }
    let (time, epoch) = parse_ts_token(&b[..ts_end])?;
    let lv_start = skip_ws(b, ts_end);
    let lv_end = token_end(b, lv_start);
    let level = parse_level(&b[lv_start..lv_end])?;
    let tabbed = lv_end < b.len() && b[lv_end] == b'\t';
    let rest_start = if tabbed { lv_end + 1 } else { skip_ws(b, lv_end) };
    Some(ConsoleHead { time, epoch, level, tabbed, rest: &b[rest_start.min(b.len())..] })
}

/// Cheap recognition of a zap JSON line in zap's own key order
/// (`{"level":"debug","ts":...`). Returns level, time and whether the time was epoch.
pub(crate) fn sniff_zap_json(b: &[u8]) -> Option<(Level, Option<DateTime<Utc>>, bool)> {
    const HEAD: &[u8] = b"{\"level\":\"";
    let rest = b.strip_prefix(HEAD)?;
    let q = memchr::memchr(b'"', &rest[..rest.len().min(16)])?;
    let level = parse_level(&rest[..q]).unwrap_or(Level::Other);
    let after = &rest[q + 1..];
    let (time, epoch) = if let Some(ts) = after.strip_prefix(b",\"ts\":") {
        if let Some(s) = ts.strip_prefix(b"\"") {
            let e = memchr::memchr(b'"', &s[..s.len().min(40)]);
            match e.and_then(|e| parse_ts_token(&s[..e])) {
                Some((t, ep)) => (Some(t), ep),
                None => (None, false),
            }
        } else {
            let e = ts.iter().take(32).position(|&c| c == b',' || c == b'}').unwrap_or(0);
            match super::time::parse_epoch(&ts[..e]) {
                Some(t) => (Some(t), true),
                None => (None, false),
            }
        }
    } else {
        (None, false)
    };
    Some((level, time, epoch))
}

/// Chooses the record time: the provider's own time, refined by a more precise
/// wrapper time that falls in the same second (Cloud Logging / Loki / kubectl keep
/// nanoseconds, zap console prints whole seconds).
pub(crate) fn merge_time(inner: Option<DateTime<Utc>>, outer: Option<DateTime<Utc>>) -> Option<DateTime<Utc>> {
    match (inner, outer) {
        (None, o) => o,
        (Some(i), None) => Some(i),
        (Some(i), Some(o)) => {
            if i.timestamp_subsec_nanos() == 0 && o >= i && o < i + TimeDelta::seconds(1) {
                Some(o)
            } else {
                Some(i)
            }
        }
    }
}

/// Parses a JSON object, tolerating invalid UTF-8 (replaced) the way the rest of the
/// decoder does.
pub(crate) fn parse_map(b: &[u8]) -> Result<Map<String, Value>, serde_json::Error> {
    match serde_json::from_slice::<Map<String, Value>>(b) {
        Ok(m) => Ok(m),
        Err(e) if !e.is_eof() && std::str::from_utf8(b).is_err() => {
            serde_json::from_str::<Map<String, Value>>(&String::from_utf8_lossy(b))
        }
        Err(e) => Err(e),
    }
}

fn looks_like_caller(s: &str) -> bool {
    s.contains(".go:") && !s.contains(' ')
}

fn split_tabbed(rest: &str) -> (String, String, Map<String, Value>, bool) {
    let rest = rest.trim_end();
    let parts: Vec<&str> = rest.split('\t').collect();
    let mut n = parts.len();
    let mut fields = Map::new();
    let mut bad = false;
    let last = parts[n - 1].trim();
    if n >= 2 && last.starts_with('{') {
        match serde_json::from_str::<Map<String, Value>>(last) {
            Ok(m) => fields = m,
            Err(_) => bad = true,
        }
        n -= 1;
    }
    let mids = &parts[..n];
    let (logger, msg) = match mids.len() {
        0 => (String::new(), String::new()),
        1 => (String::new(), mids[0].trim().to_string()),
        _ => {
            let msg_parts = if mids.len() >= 3 && looks_like_caller(mids[1]) { &mids[2..] } else { &mids[1..] };
            (mids[0].trim().to_string(), msg_parts.join("\t").trim().to_string())
        }
    };
    (logger, msg, fields, bad)
}

fn split_spaced(rest: &str) -> (String, String, Map<String, Value>, bool) {
    let rest = rest.trim();
    let (mut logger, rem) = match rest.find([' ', '\t']) {
        Some(i) => (&rest[..i], rest[i..].trim_start()),
        None => ("", rest),
    };
    if logger.starts_with('{') {
        // No logger and no message: "<ts> <LEVEL> {json}".
        logger = "";
    }
    let rem = if logger.is_empty() { rest } else { rem };
    let bytes = rem.as_bytes();
    let mut fields = Map::new();
    let mut bad = false;
    let mut msg_end = rem.len();
    let mut first_candidate = None;
    for (pos, _) in rem.match_indices('{').take(8) {
        if pos != 0 && !matches!(bytes[pos - 1], b' ' | b'\t') {
            continue;
        }
        if first_candidate.is_none() && bytes.get(pos + 1) == Some(&b'"') {
            first_candidate = Some(pos);
        }
        let cand = rem[pos..].trim_end();
        if !cand.ends_with('}') {
            continue;
        }
        if let Ok(m) = serde_json::from_str::<Map<String, Value>>(cand) {
            fields = m;
            msg_end = pos;
            first_candidate = None;
            break;
        }
    }
    if let Some(pos) = first_candidate {
        bad = true;
        msg_end = pos;
    }
    let mut msg = rem[..msg_end].trim().to_string();
    let mut logger = logger.to_string();
    if msg.is_empty() && !logger.is_empty() {
        msg = std::mem::take(&mut logger);
    }
    (logger, msg, fields, bad)
}

/// Full decode of a zap console line (after prefix stripping).
pub(crate) fn decode_console(s: &str, outer: Outer) -> Option<LogRecord> {
    let head = console_head(s.as_bytes())?;
    let rest = &s[s.len() - head.rest.len()..];
    let (logger, msg, fields, bad_fields) = if head.tabbed { split_tabbed(rest) } else { split_spaced(rest) };
    Some(LogRecord {
        time: merge_time(Some(head.time), outer.time),
        level: head.level,
        logger,
        msg,
        fields,
        format: if head.tabbed { RecordFormat::ZapConsole } else { RecordFormat::ZapConsoleSpaces },
        envelope: outer.envelope,
        epoch_time: head.epoch,
        bad_fields,
    })
}

fn take_string(m: &mut Map<String, Value>, key: &str) -> Option<String> {
    match m.get(key) {
        Some(Value::String(_)) => match m.remove(key) {
            Some(Value::String(s)) => Some(s),
            _ => None,
        },
        _ => None,
    }
}

/// Whether a JSON object is a zap JSON record.
fn is_zap_map(m: &Map<String, Value>) -> bool {
    m.contains_key("msg") || (m.contains_key("level") && (m.contains_key("ts") || m.contains_key("message")))
}

/// Builds a record from a zap JSON object.
pub(crate) fn decode_zap_map(mut m: Map<String, Value>, outer: Outer, fallback_level: Level) -> LogRecord {
    let level = match m.get("level").and_then(Value::as_str) {
        Some(l) => {
            let lv = parse_level(l.as_bytes()).unwrap_or(Level::Other);
            m.remove("level");
            lv
        }
        None => fallback_level,
    };
    let mut time = None;
    let mut epoch = false;
    for key in ["ts", "time", "timestamp"] {
        if let Some((t, ep)) = m.get(key).and_then(parse_ts_value) {
            time = Some(t);
            epoch = ep;
            m.remove(key);
            break;
        }
    }
    let logger = take_string(&mut m, "logger").unwrap_or_default();
    let msg = take_string(&mut m, "msg").or_else(|| take_string(&mut m, "message")).unwrap_or_default();
    LogRecord {
        time: merge_time(time, outer.time),
        level,
        logger,
        msg,
        fields: m,
        format: RecordFormat::ZapJson,
        envelope: outer.envelope,
        epoch_time: epoch,
        bad_fields: false,
    }
}

fn kube_event(p: &Map<String, Value>, entry_time: Option<DateTime<Utc>>) -> Option<KubeEvent> {
    let obj = p.get("involvedObject")?.as_object()?;
    let s = |m: &Map<String, Value>, k: &str| m.get(k).and_then(Value::as_str).map(str::to_string);
    let time = ["lastTimestamp", "eventTime", "firstTimestamp"]
        .iter()
        .find_map(|k| p.get(*k).and_then(parse_ts_value).map(|(t, _)| t))
        .or(entry_time);
    let external_name = p
        .get("metadata")
        .and_then(|m| m.get("annotations"))
        .and_then(|a| a.get("external-name"))
        .and_then(Value::as_str)
        .map(str::to_string);
    Some(KubeEvent {
        time,
        uid: s(obj, "uid").unwrap_or_default(),
        name: s(obj, "name"),
        namespace: s(obj, "namespace"),
        kind: s(obj, "kind"),
        api_version: s(obj, "apiVersion"),
        external_name,
        reason: s(p, "reason").unwrap_or_default(),
        message: s(p, "message").unwrap_or_default(),
        component: p
            .get("source")
            .and_then(|s| s.get("component"))
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| s(p, "reportingComponent")),
    })
}

/// Decodes a JSON object: zap JSON, or a wrapper (Cloud Logging, Loki, Docker) around a record.
pub(crate) fn decode_map(mut m: Map<String, Value>, outer: Outer, depth: u8) -> Decoded {
    if depth > 3 {
        return Decoded::Unknown;
    }
    // Google Cloud Logging entry.
    if m.contains_key("textPayload") || m.contains_key("jsonPayload") || m.contains_key("protoPayload") {
        let t = m
            .get("timestamp")
            .and_then(parse_ts_value)
            .or_else(|| m.get("receiveTimestamp").and_then(parse_ts_value))
            .map(|(t, _)| t);
        let o = outer.wrap(Envelope::CloudLogging, t);
        if let Some(text) = take_string(&mut m, "textPayload") {
            return decode_text(&text, o, depth + 1);
        }
        if let Some(Value::Object(p)) = m.remove("jsonPayload") {
            if is_zap_map(&p) {
                let sev = m.get("severity").and_then(Value::as_str).map_or(Level::Other, parse_severity);
                return Decoded::Record(Box::new(decode_zap_map(p, o, sev)));
            }
            let is_event = p.get("kind").and_then(Value::as_str) == Some("Event");
            return Decoded::NonLog(NonLog {
                envelope: o.envelope,
                event: if is_event { kube_event(&p, t).map(Box::new) } else { None },
            });
        }
        return Decoded::NonLog(NonLog { envelope: o.envelope, event: None });
    }
    if is_zap_map(&m) {
        return Decoded::Record(Box::new(decode_zap_map(m, outer, Level::Other)));
    }
    // Loki JSON export / logcli jsonl entry.
    if let Some(line) = take_string(&mut m, "line") {
        let t = m.get("timestamp").and_then(parse_ts_value).map(|(t, _)| t);
        return decode_text(&line, outer.wrap(Envelope::Loki, t), depth + 1);
    }
    // Docker json-file line.
    if (m.contains_key("stream") || m.contains_key("time"))
        && let Some(log) = take_string(&mut m, "log")
    {
        let t = m.get("time").and_then(parse_ts_value).map(|(t, _)| t);
        return decode_text(&log, outer.wrap(Envelope::DockerJson, t), depth + 1);
    }
    Decoded::Unknown
}

/// Decodes one text line of any supported format.
pub(crate) fn decode_text(s: &str, outer: Outer, depth: u8) -> Decoded {
    if depth > 3 {
        return Decoded::Unknown;
    }
    let s = s.trim_start_matches('\u{feff}').trim();
    let p = strip_prefix(s.as_bytes());
    let rest = &s[s.len() - p.rest.len()..];
    let o = outer.wrap(p.envelope, p.time);
    if rest.starts_with('{') {
        return match parse_map(rest.as_bytes()) {
            Ok(m) => decode_map(m, o, depth + 1),
            Err(_) => Decoded::Unknown,
        };
    }
    match decode_console(rest, o) {
        Some(r) => Decoded::Record(Box::new(r)),
        None => Decoded::Unknown,
    }
}

/// Decodes one provider log line in any supported single-line format (zap console with
/// tabs or spaces, zap JSON, epoch timestamps, kubectl/CRI/Loki/Kibana prefixes, Docker
/// json-file, one Cloud Logging or Loki entry per line). Exists for callers that show a
/// single line or build timelines; the streaming [`scan`](super::scan) uses the same
/// decoders behind a cheap pre-filter. Returns `None` for anything that is not a
/// provider log record (garbage, truncated JSON, audit-log entries).
pub fn decode_line(line: &[u8]) -> Option<LogRecord> {
    let s = String::from_utf8_lossy(line);
    match decode_text(&s, Outer::default(), 0) {
        Decoded::Record(r) => Some(*r),
        _ => None,
    }
}
