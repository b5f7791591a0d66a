//! Which API groups the reader keeps, and the byte prefilter that rejects every other line
//! before any JSON is decoded.

use aho_corasick::AhoCorasick;
use memchr::memmem;
use std::collections::BTreeSet;

/// The API groups of the MRs being examined; a line that names none of them is not decoded.
#[derive(Debug, Clone)]
pub struct Groups {
    set: BTreeSet<String>,
    finder: Option<AhoCorasick>,
}

impl Groups {
    /// Exactly these groups (an empty list keeps nothing).
    pub fn of(groups: impl IntoIterator<Item = String>) -> Groups {
        let set: BTreeSet<String> = groups.into_iter().filter(|g| !g.is_empty()).collect();
        let finder = AhoCorasick::new(set.iter()).ok();
        Groups { set, finder }
    }

    /// Any group with a dot (CRD groups; not core, `apps`, `batch`…): when the MR kinds are not
    /// known before reading.
    #[cfg(test)]
    pub(crate) fn any_dotted() -> Groups {
        Groups { set: BTreeSet::new(), finder: None }
    }

    /// Whether writes to `group` are kept.
    pub fn wants(&self, group: &str) -> bool {
        match &self.finder {
            Some(_) => self.set.contains(group),
            None => group.contains('.') && !group.ends_with(".k8s.io") && group != "k8s.io",
        }
    }

    /// The cheap check on raw bytes: a wanted group, a completed stage or a GKE entry, and (when
    /// the line names a verb) a write verb. Escape-insensitive, so it also sees inside a
    /// CloudWatch `message` string.
    pub(crate) fn candidate(&self, b: &[u8]) -> bool {
        if let Some(f) = &self.finder
            && !f.is_match(b)
        {
            return false;
        }
        let completed = memmem::find(b, b"ResponseComplete").is_some() || memmem::find(b, b"protoPayload").is_some();
        completed && write_verb_hint(b)
    }
}

/// False only when the line names a verb (`"verb":"…"`, escaped or not) and none is a write.
fn write_verb_hint(b: &[u8]) -> bool {
    let mut named = false;
    for i in memmem::find_iter(b, b"verb") {
        let rest = &b[i + 4..];
        let skip = rest.iter().take(8).take_while(|c| matches!(c, b'"' | b'\\' | b':' | b' ')).count();
        if skip < 2 {
            continue;
        }
        named = true;
        let word = &rest[skip..];
        if [&b"create"[..], b"update", b"patch", b"delete"].iter().any(|w| word.starts_with(w)) {
            return true;
        }
    }
    !named
}
