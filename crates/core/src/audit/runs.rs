//! Folding repeated writes while an audit log streams in, so memory grows with what changed, not
//! with the size of the log.
//!
//! A provider writes each MR's status every reconcile, and at `RequestResponse` level each of
//! those events carries the whole object: a day of audit log for 20,000 MRs is millions of
//! writes that change no identity field. A write is folded into the run it continues — the same
//! object (UID), the same actor (user, impersonated user, user agent), the same audit level and
//! response code, and the same identity fields as the run's first write — and the run keeps its
//! first write, a count, the other actions folded (an update of the object and of its status
//! alternate in one run) and the time and place of its last. Nobody else's
//! write is ever folded away (another actor starts a run of its own), creates and deletes never
//! fold, and the history replays a run's last write so a value changed back across files (the
//! audit logs of several API servers) is still seen.

use super::state::{Body, Snapshot};
use super::{AuditWrite, GoTime};
use serde::Serialize;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

/// The writes folded into one kept write: how many, and the last of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Repeats {
    /// Writes folded after the kept one.
    pub count: u64,
    /// Their actions other than the kept write's own (`update status`), each once.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub actions: Vec<String>,
    /// When the last of them completed.
    #[serde(skip)]
    pub last_at: Option<GoTime>,
    /// `last_at` as the log wrote it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_time: Option<String>,
    /// Where the last of them is (`file:line`).
    pub last_source: String,
}

/// The runs open while one stream is read: run key → (index of its first write, identity
/// fingerprint). Two hashes per run, whatever the size of the writes.
#[derive(Debug, Default)]
pub struct Folder {
    open: HashMap<u64, (usize, u64)>,
}

impl Folder {
    /// Adds `w` to `writes`, or folds it into the run it continues. Returns whether it was kept.
    pub fn push(&mut self, w: AuditWrite, writes: &mut Vec<AuditWrite>) -> bool {
        let (key, print) = (run_key(&w), fingerprint(&w));
        let folds = !matches!(w.verb.as_str(), "create" | "delete");
        if folds
            && let Some(&(i, p)) = self.open.get(&key)
            && p == print
            && let Some(first) = writes.get_mut(i)
        {
            let action = (w.action() != first.action()).then(|| w.action());
            let r = first.repeats.get_or_insert(Repeats {
                count: 0,
                actions: Vec::new(),
                last_at: None,
                last_time: None,
                last_source: String::new(),
            });
            r.count += 1;
            if let Some(a) = action.filter(|a| !r.actions.contains(a)) {
                r.actions.push(a);
            }
            (r.last_at, r.last_time, r.last_source) = (w.at, w.time, w.source);
            return false;
        }
        self.open.insert(key, (writes.len(), print));
        writes.push(w);
        true
    }
}

fn hash_of(value: impl Hash) -> u64 {
    let mut h = DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

/// Who wrote to which object, at which level, with which answer: a run never spans two of these.
fn run_key(w: &AuditWrite) -> u64 {
    hash_of(((&w.target, &w.uid), (&w.user, &w.impersonated, &w.user_agent), (w.level, w.code)))
}

/// What the write says about the identity fields (both bodies; nothing for Metadata level).
fn fingerprint(w: &AuditWrite) -> u64 {
    let snapshot =
        |s: &Snapshot| hash_of((&s.uid, &s.annotations, &s.management_policies, &s.deletion_policy, s.deleting));
    let request = match &w.request {
        None => 0,
        Some(Body::Object(o)) => snapshot(o),
        Some(Body::Patch(p)) => hash_of(&p.fields),
    };
    hash_of((request, w.response.as_ref().map(snapshot)))
}

/// The writes with each run's last write restored after its first (carrying no repeats), for
/// the replay: a run is one state held from its first write to its last.
pub(crate) fn unfold(writes: Vec<AuditWrite>) -> Vec<(AuditWrite, bool)> {
    let mut out = Vec::with_capacity(writes.len());
    for mut w in writes {
        let last = w.repeats.as_ref().map(|r| {
            let mut last = w.clone();
            (last.at, last.time, last.source) = (r.last_at, r.last_time.clone(), r.last_source.clone());
            last.repeats = None;
            last
        });
        if let Some(r) = &mut w.repeats {
            r.last_at = r.last_at.or(w.at);
        }
        out.push((w, false));
        out.extend(last.map(|l| (l, true)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{AuditLevel, AuditTarget};
    use crate::managed::keys;

    fn w(verb: &str, user: &str, sub: Option<&str>, name: Option<&str>, line: u32) -> AuditWrite {
        let mut s = Snapshot { uid: Some("u1".into()), ..Snapshot::default() };
        if let Some(n) = name {
            s.annotations.push((keys::EXTERNAL_NAME.into(), n.into()));
        }
        AuditWrite {
            at: GoTime::parse_rfc3339(&format!("2024-11-30T10:00:{line:02}Z")),
            time: Some(format!("2024-11-30T10:00:{line:02}Z")),
            source: format!("a.log:{line}"),
            audit_id: format!("{line}"),
            verb: verb.into(),
            subresource: sub.map(str::to_owned),
            user: user.into(),
            impersonated: None,
            user_agent: None,
            source_ips: Vec::new(),
            code: Some(200),
            level: AuditLevel::RequestResponse,
            target: AuditTarget { group: "g".into(), resource: "vpcs".into(), namespace: None, name: "v".into() },
            uid: Some("u1".into()),
            request: None,
            response: Some(s),
            repeats: None,
        }
    }

    /// (case, writes in log order, kept as `line×repeats`)
    type Case = (&'static str, fn() -> Vec<AuditWrite>, &'static [(u32, u64)]);
    const CASES: &[Case] = &[
        (
            "status writes that change nothing fold into one",
            || (1..=5).map(|l| w("update", "p", Some("status"), Some("a"), l)).collect(),
            &[(1, 4)],
        ),
        (
            "a changed identity starts a new run",
            || {
                vec![
                    w("update", "p", None, Some("a"), 1),
                    w("update", "p", None, Some("a"), 2),
                    w("update", "p", None, Some("b"), 3),
                ]
            },
            &[(1, 1), (3, 0)],
        ),
        (
            "another actor's write is kept and does not end the provider's run",
            || {
                vec![
                    w("update", "p", Some("status"), Some("a"), 1),
                    w("patch", "alice", None, Some("a"), 2),
                    w("update", "p", Some("status"), Some("a"), 3),
                ]
            },
            &[(1, 1), (2, 0)],
        ),
        (
            "the object and its status written alternately by one actor fold into one run",
            || {
                vec![
                    w("update", "p", None, Some("a"), 1),
                    w("update", "p", Some("status"), Some("a"), 2),
                    w("update", "p", None, Some("a"), 3),
                ]
            },
            &[(1, 2)],
        ),
        (
            "creates and deletes never fold",
            || {
                vec![
                    w("create", "p", None, None, 1),
                    w("create", "p", None, None, 2),
                    w("delete", "p", None, None, 3),
                    w("delete", "p", None, None, 4),
                ]
            },
            &[(1, 0), (2, 0), (3, 0), (4, 0)],
        ),
    ];

    #[test]
    fn table() {
        for (name, writes, want) in CASES {
            let (mut folder, mut kept) = (Folder::default(), Vec::new());
            for x in writes() {
                folder.push(x, &mut kept);
            }
            let got: Vec<(u32, u64)> =
                kept.iter().map(|k| (k.audit_id.parse().unwrap(), k.repeats.as_ref().map_or(0, |r| r.count))).collect();
            assert_eq!(got, *want, "case: {name}");
        }
    }

    #[test]
    fn unfolding_restores_each_runs_last_write() {
        let (mut folder, mut kept) = (Folder::default(), Vec::new());
        for l in 1..=3 {
            folder.push(w("update", "p", Some("status"), Some("a"), l), &mut kept);
        }
        let out = unfold(kept);
        let shown: Vec<(&str, bool)> = out.iter().map(|(w, echo)| (w.source.as_str(), *echo)).collect();
        assert_eq!(shown, [("a.log:1", false), ("a.log:3", true)]);
        assert!(out[1].0.repeats.is_none() && out[0].0.repeats.as_ref().is_some_and(|r| r.count == 2));
    }

    /// Two API servers' logs: the provider's run in one spans a person's change in the other; the
    /// run's last write, replayed, shows the value changed back.
    #[test]
    fn a_value_changed_back_across_files_is_still_seen() {
        let (mut folder, mut kept) = (Folder::default(), Vec::new());
        for l in [1, 5] {
            folder.push(w("update", "p", None, Some("a"), l), &mut kept);
        }
        kept.push(w("update", "alice", None, Some("b"), 3));
        let mr = crate::testing::Mr::new("VPC", "v").build();
        let h = crate::audit::analyze(kept, &mr);
        let changes: Vec<(&str, Option<&str>)> =
            h.overwrites.iter().map(|o| (o.old.as_str(), o.new.as_deref())).collect();
        assert_eq!(changes, [("a", Some("b")), ("b", Some("a"))]);
        assert_eq!(h.writes.len(), 3, "the run's last write is shown because it changed something");
    }

    #[test]
    fn a_run_lists_the_other_actions_it_folded_once() {
        let (mut folder, mut kept) = (Folder::default(), Vec::new());
        for (l, sub) in [(1, None), (2, Some("status")), (3, Some("status")), (4, None)] {
            folder.push(w("update", "p", sub, Some("a"), l), &mut kept);
        }
        assert_eq!(kept[0].repeats.as_ref().map(|r| r.actions.clone()), Some(vec!["update status".to_string()]));
    }
}
