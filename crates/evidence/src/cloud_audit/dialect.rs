//! What one cloud's audit record is to the reader: the one trait each cloud's file implements.
//!
//! Exists so that a cloud lives in one place. The reader, the note, the "is this an audit
//! export at all" check and the sniffer all walk [`DIALECTS`](super::DIALECTS) and ask each
//! cloud in turn; none of them names a cloud, so a cloud cannot be half added (a decoder
//! without its prefilter, a sniffer entry without its counter) and silently lose its records.

use crate::format::Format;
use std::sync::Arc;
use upjet_core::cloud_audit::{Cloud, CloudCall, Interner};

/// Why a record was not kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Skip {
    /// Valid JSON, but no audit record of a known cloud.
    NotAudit,
    /// Not valid JSON.
    Malformed,
    /// A record of another operation (neither a create nor a delete), or a data event.
    NotWrite,
}

/// What decoding one record gave: the call, or why it was not kept.
pub(crate) type Decoded = Result<CloudCall, Skip>;

/// What the byte check says of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Claim {
    /// Not this cloud's record: the next cloud is asked.
    NotMine,
    /// This cloud's record, but a read, a data event or another call: skipped unread.
    Rejected,
    /// This cloud's record naming a create or delete: decoded.
    Wanted,
}

/// One cloud's audit format, from the first bytes of a file to the key its calls are learned by.
pub(crate) trait Dialect: Sync {
    /// The cloud whose calls this decodes (inventory IDs and case rules are the cloud's).
    fn cloud(&self) -> Cloud;

    /// How a file's note counts its decoded records (`3 CloudTrail`).
    fn label(&self) -> &'static str;

    /// The sniffer's entries for this cloud's exports, tried in the order of `DIALECTS`.
    fn formats(&self) -> &'static [Format];

    /// Field names only this cloud's audit records have: a file whose first records name none of
    /// any cloud's is probably not an audit export.
    fn marks(&self) -> &'static [&'static str];

    /// The byte check before any decoding: most of a record is reads and other services' traffic.
    fn claim(&self, record: &[u8]) -> Claim;

    /// Decodes a record this cloud [`Claim::Wanted`] (an object; a JSON string holding one is
    /// unwrapped before). `file` and `line` say where it was read.
    fn decode(&self, record: &[u8], file: &Arc<str>, line: u64, intern: &mut Interner) -> Decoded;

    /// The action as the calls of one operation share it (the API version and the case are no
    /// other operation): what lessons about a kind's creates are kept under.
    fn action_key(&self, service: &str, action: &str) -> String;

    /// What an action makes, lower-case (`CreateHostedZone` → `hostedzone`): how a kind no healthy
    /// peer teaches is tied to its creates.
    fn action_noun(&self, action: &str) -> String;
}

/// Decodes with `dialect` and sets what the cloud derives from the action (its key and noun), so
/// no decoder can forget them.
pub(crate) fn decode_call(
    dialect: &dyn Dialect,
    record: &[u8],
    file: &Arc<str>,
    line: u64,
    intern: &mut Interner,
) -> Decoded {
    let mut call = dialect.decode(record, file, line, intern)?;
    call.action_key = intern.get(&dialect.action_key(&call.service, &call.action));
    call.action_noun = intern.get(&dialect.action_noun(&call.action));
    Ok(call)
}

/// The first of `dialects` that claims a record (its index), with its claim; `None` when none does.
pub(crate) fn claim(dialects: &[&dyn Dialect], record: &[u8]) -> Option<(usize, Claim)> {
    dialects.iter().enumerate().find_map(|(i, d)| match d.claim(record) {
        Claim::NotMine => None,
        c => Some((i, c)),
    })
}

/// `CreateHostedZone` → `HostedZone`: an action's name without the verb that makes an object.
pub(crate) fn strip_verb(action: &str) -> &str {
    const VERBS: &[&str] = &["Create", "Run", "Allocate", "Request", "Register", "Import", "Issue", "Insert"];
    VERBS.iter().find_map(|v| action.strip_prefix(v)).unwrap_or(action)
}

/// `networks` → `network`, `policies` → `policy`.
pub(crate) fn singular(s: &str) -> String {
    if let Some(stem) = s.strip_suffix("ies") {
        format!("{stem}y")
    } else if let Some(stem) = s.strip_suffix("sses") {
        format!("{stem}ss")
    } else {
        s.strip_suffix('s').unwrap_or(s).to_string()
    }
}
