//! The ID journal's records, pure: what identity an MR showed (an external-name, the
//! provider's observed ID, a create mark), when, and from where. The ID upjet loses on a
//! restart lives for minutes in `status.atProvider.id` or a log line; once written here it is
//! still known after the object lost it. The file I/O (append, fsync, compaction) is
//! `local::journal`; reading tolerates a torn last line, because a kill can land mid-write.

use super::create_marks::CreateMarks;
use super::finding::Finding;
use super::managed::{ManagedResource, keys};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Where an identity was seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Source {
    /// The `crossplane.io/external-name` annotation.
    #[serde(rename = "external-name")]
    ExternalName,
    /// `status.atProvider.id`.
    #[serde(rename = "atProvider.id")]
    AtProviderId,
    /// `crossplane.io/external-create-pending` (the record's `id` is the mark's time).
    #[serde(rename = "create-pending")]
    CreatePending,
    /// An ID the provider logged as created.
    #[serde(rename = "log")]
    Log,
}

impl Source {
    /// Its name in the journal file (`external-name`, `atProvider.id`, …).
    pub fn label(self) -> &'static str {
        match self {
            Source::ExternalName => "external-name",
            Source::AtProviderId => "atProvider.id",
            Source::CreatePending => "create-pending",
            Source::Log => "log",
        }
    }
}

/// One journal line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// When it was seen (RFC 3339).
    pub time: String,
    /// The MR's `metadata.uid`.
    pub uid: String,
    /// API group.
    pub group: String,
    /// Kind.
    pub kind: String,
    /// Namespace of a namespaced MR.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
    /// Name.
    pub name: String,
    /// Where the identity was seen.
    pub source: Source,
    /// The identity itself.
    pub id: String,
    /// The XR that composed the MR (its controller's name, else its `crossplane.io/composite`
    /// label), when one did: with [`Record::resource`], the slot an XR created again fills
    /// with a new MR (`domain::composition`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub composite: Option<String>,
    /// The MR's `crossplane.io/composition-resource-name`, when composed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<String>,
}

impl Record {
    /// The compaction key: the latest record per (uid, source) is kept.
    pub fn key(&self) -> (String, Source) {
        (self.uid.clone(), self.source)
    }
}

/// The identities an MR shows now, stamped `time`: one record per source present.
pub fn identities(mr: &ManagedResource, time: &str) -> Vec<Record> {
    let resource = mr.annotation(keys::COMPOSITION_RESOURCE_NAME).filter(|r| !r.is_empty());
    let controller = mr.composed.as_deref().and_then(|c| c.controller.as_ref()).map(|c| c.name.as_str());
    let composite = resource.and(controller.or(mr.composite.as_deref()));
    let record = |source, id: &str| Record {
        time: time.to_string(),
        uid: mr.uid.clone(),
        group: mr.group().to_string(),
        kind: mr.kind.clone(),
        namespace: mr.namespace.clone(),
        name: mr.name.clone(),
        source,
        id: id.to_string(),
        composite: composite.map(str::to_owned),
        resource: composite.and(resource).map(str::to_owned),
    };
    let mut out = Vec::new();
    if let Some(name) = mr.external_name() {
        out.push(record(Source::ExternalName, name));
    }
    if let Some(id) = mr.at_provider_id.as_deref().filter(|id| !id.is_empty()) {
        out.push(record(Source::AtProviderId, id));
    }
    if let Some(pending) = mr.annotation(keys::CREATE_PENDING).filter(|_| CreateMarks::of(mr).pending.is_set()) {
        out.push(record(Source::CreatePending, pending));
    }
    out
}

/// What a journal file holds: its records in order, and the torn last line a kill left, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ParsedJournal {
    /// Every complete record, oldest first.
    pub records: Vec<Record>,
    /// Lines that do not parse, by 1-based line number (a torn last line among them).
    pub skipped: Vec<usize>,
}

/// Parses journal text, skipping (and naming) lines that do not parse: a line cut by a kill
/// holds no trailing newline and is skipped like any unreadable line.
pub fn parse(text: &str) -> ParsedJournal {
    let mut read = ParsedJournal::default();
    for (i, line) in text.split_inclusive('\n').enumerate() {
        let complete = line.ends_with('\n');
        match serde_json::from_str::<Record>(line.trim_end()) {
            Ok(r) if complete => read.records.push(r),
            _ if line.trim().is_empty() => {}
            _ => read.skipped.push(i + 1),
        }
    }
    read
}

/// The latest record per (uid, source), in the order of their last writes.
pub fn compact(records: Vec<Record>) -> Vec<Record> {
    let mut last: HashMap<(String, Source), usize> = HashMap::new();
    for (i, r) in records.iter().enumerate() {
        last.insert(r.key(), i);
    }
    records.into_iter().enumerate().filter(|(i, r)| last.get(&r.key()) == Some(i)).map(|(_, r)| r).collect()
}

/// One record as a journal line (JSON and a newline).
pub fn line(record: &Record) -> String {
    let mut s = serde_json::to_string(record).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
/// The IDs the journal saw for one MR, newest first, without repeats: what adopt ranks first
/// and what restore-plan can put back after the object lost it.
pub(crate) fn ids_for<'a>(records: &'a [Record], uid: &str) -> Vec<&'a Record> {
    let mut out: Vec<&Record> = Vec::new();
    for r in records.iter().rev().filter(|r| r.uid == uid && r.source != Source::CreatePending) {
        if !out.iter().any(|o| o.id == r.id) {
            out.push(r);
        }
    }
    out
}

/// The evidence key a suggestion taken from the journal carries: when and from where it was
/// seen. `domain::candidate` ranks such a suggestion before every other.
pub(crate) const EVIDENCE_KEY: &str = "journal";

/// Every journal record by MR uid, each MR's in the order they are worth trying
/// ([`best_first`]): what `EvidenceIndex` hands each MR, and `history` and `adopt` read.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JournalIndex {
    by_uid: HashMap<String, Vec<Record>>,
}

impl JournalIndex {
    /// Indexes records read from one or more journals (compacted first: the latest per source).
    pub fn new(records: Vec<Record>) -> JournalIndex {
        let mut by_uid: HashMap<String, Vec<Record>> = HashMap::new();
        for r in compact(records) {
            by_uid.entry(r.uid.clone()).or_default().push(r);
        }
        for records in by_uid.values_mut() {
            let all = std::mem::take(records);
            *records = best_first(&all).into_iter().cloned().collect();
            records.extend(all.into_iter().filter(|r| r.source == Source::CreatePending));
        }
        JournalIndex { by_uid }
    }

    /// The records of one MR (its uid), best ID first, its create mark last.
    pub fn for_uid(&self, uid: &str) -> Vec<Record> {
        self.by_uid.get(uid).cloned().unwrap_or_default()
    }

    /// Whether nothing was read.
    pub fn is_empty(&self) -> bool {
        self.by_uid.is_empty()
    }

    /// Every record kept, in no order: what the composition tree looks earlier MRs up in
    /// (`domain::composition::Earlier`).
    pub fn records(&self) -> impl Iterator<Item = &Record> {
        self.by_uid.values().flatten()
    }
}

/// The IDs of one MR's records, in the order an adoption should try them: the external-names it
/// had (the exact form adopt writes back), then IDs its provider logged, then its observed
/// `status.atProvider.id` (a Terraform ID, not always the external-name's form); newest first
/// within each, each ID once. Create marks are times, not IDs, and are left out.
pub fn best_first(records: &[Record]) -> Vec<&Record> {
    let rank = |s: Source| match s {
        Source::ExternalName => 0,
        Source::Log => 1,
        Source::AtProviderId => 2,
        Source::CreatePending => 3,
    };
    let mut ordered: Vec<&Record> = records.iter().filter(|r| r.source != Source::CreatePending).collect();
    ordered.sort_by(|a, b| rank(a.source).cmp(&rank(b.source)).then_with(|| b.time.cmp(&a.time)));
    let mut out: Vec<&Record> = Vec::new();
    for r in ordered {
        // A blank ID or a provider's placeholder names no cloud object (as `candidate::usable` says).
        let names_an_object = !r.id.trim().is_empty() && !super::placeholder::is_placeholder(&r.id);
        if names_an_object && !out.iter().any(|o| o.id == r.id) {
            out.push(r);
        }
    }
    out
}

/// How a record is shown as evidence: `external-name seen at T by kubectl upjet watch`.
pub fn describe(record: &Record) -> String {
    format!("{} seen at {} by kubectl upjet watch", record.source.label(), record.time)
}

/// Gives the findings that want an ID and name none the best ID the journal saw for this very MR
/// (`journaled`, [`best_first`] order), unless it is the external-name the MR holds now: after a
/// restart or a restore wiped the only copy, the journal still knows it.
pub fn suggest(findings: &mut [Finding], mr: &ManagedResource, journaled: &[Record]) {
    let current = mr.external_name();
    let Some(best) = best_first(journaled).into_iter().find(|r| Some(r.id.as_str()) != current) else {
        return;
    };
    for f in findings.iter_mut().filter(|f| f.code.wants_id() && f.suggested_id.is_none()) {
        f.suggested_id = Some(best.id.clone());
        f.evidence.insert(EVIDENCE_KEY.into(), describe(best));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Mr;

    fn rec(uid: &str, source: Source, id: &str) -> Record {
        Record {
            time: "2024-11-30T10:00:00Z".into(),
            uid: uid.into(),
            group: "g".into(),
            kind: "K".into(),
            namespace: None,
            name: uid.into(),
            source,
            id: id.into(),
            composite: None,
            resource: None,
        }
    }

    #[test]
    fn identities_are_the_name_the_observed_id_and_the_pending_mark() {
        let mr = Mr::new("RecordSet", "a")
            .external_name("www")
            .at_provider_id("projects/p/rrsets/www")
            .annotation(keys::CREATE_PENDING, "2024-11-30T10:00:00Z")
            .build();
        let got: Vec<(Source, String)> = identities(&mr, "t").into_iter().map(|r| (r.source, r.id)).collect();
        assert_eq!(
            got,
            vec![
                (Source::ExternalName, "www".into()),
                (Source::AtProviderId, "projects/p/rrsets/www".into()),
                (Source::CreatePending, "2024-11-30T10:00:00Z".into())
            ]
        );
        assert!(identities(&Mr::new("RecordSet", "b").build(), "t").is_empty());
    }

    #[test]
    fn a_source_s_label_is_its_name_in_the_file() {
        for s in [Source::ExternalName, Source::AtProviderId, Source::CreatePending, Source::Log] {
            assert_eq!(serde_json::to_value(s).unwrap(), s.label());
        }
    }

    #[test]
    fn a_torn_last_line_is_skipped_and_named() {
        let whole = line(&rec("u1", Source::ExternalName, "a")) + &line(&rec("u2", Source::ExternalName, "b"));
        let torn = &whole[..whole.len() - 5];
        let read = parse(torn);
        assert_eq!(read.records, vec![rec("u1", Source::ExternalName, "a")]);
        assert_eq!(read.skipped, vec![2]);
        let complete_but_no_newline = &whole[..whole.len() - 1];
        assert_eq!(parse(complete_but_no_newline).skipped, vec![2], "a line without its newline was cut");
    }

    #[test]
    fn compaction_keeps_the_latest_record_per_uid_and_source() {
        let records = vec![
            rec("u1", Source::ExternalName, "a"),
            rec("u1", Source::AtProviderId, "id-1"),
            rec("u1", Source::ExternalName, "b"),
            rec("u2", Source::ExternalName, "c"),
        ];
        let kept: Vec<String> = compact(records).into_iter().map(|r| r.id).collect();
        assert_eq!(kept, ["id-1", "b", "c"]);
    }

    #[test]
    fn ids_for_one_mr_are_newest_first_without_repeats() {
        let records = vec![
            rec("u1", Source::AtProviderId, "id-1"),
            rec("u1", Source::ExternalName, "id-1"),
            rec("u1", Source::CreatePending, "2024"),
            rec("u2", Source::ExternalName, "other"),
            rec("u1", Source::Log, "id-2"),
        ];
        let ids: Vec<&str> = ids_for(&records, "u1").into_iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["id-2", "id-1"]);
    }

    #[test]
    fn the_best_id_is_the_newest_external_name_then_logs_then_observed_ids() {
        let at = |mut r: Record, t: &str| {
            r.time = t.into();
            r
        };
        let records = vec![
            at(rec("u1", Source::AtProviderId, "arn:1"), "2024-11-30T12:00:00Z"),
            at(rec("u1", Source::ExternalName, "old"), "2024-11-30T09:00:00Z"),
            at(rec("u1", Source::Log, "logged"), "2024-11-30T13:00:00Z"),
            at(rec("u1", Source::CreatePending, "2024-11-30T08:00:00Z"), "2024-11-30T08:00:00Z"),
            at(rec("u1", Source::ExternalName, "new"), "2024-11-30T11:00:00Z"),
            at(rec("u1", Source::AtProviderId, "new"), "2024-11-30T11:00:00Z"),
        ];
        let ids: Vec<&str> = best_first(&records).into_iter().map(|r| r.id.as_str()).collect();
        assert_eq!(ids, ["new", "old", "logged", "arn:1"]);
        let index = JournalIndex::new(records);
        let records = index.for_uid("u1");
        let kept: Vec<&str> = records.iter().map(|r| r.id.as_str()).collect();
        assert_eq!(kept, ["new", "logged", "2024-11-30T08:00:00Z"], "compacted, best first, each ID once, mark last");
        assert!(index.for_uid("u2").is_empty());
    }

    #[test]
    fn findings_that_want_an_id_take_the_journaled_one_unless_the_mr_holds_it() {
        use crate::finding::Code;
        let journaled = vec![rec("u1", Source::ExternalName, "vpc-0a1b")];
        let lost = Mr::new("VPC", "a").build();
        let mut findings = vec![
            Finding::new(Code::ExternalNameMissing, "m", "n"),
            Finding::new(Code::AlreadyExists, "m", "n").suggest(Some("guess")),
            Finding::new(Code::Paused, "m", "n"),
        ];
        suggest(&mut findings, &lost, &journaled);
        assert_eq!(findings[0].suggested_id.as_deref(), Some("vpc-0a1b"));
        assert!(findings[0].evidence[EVIDENCE_KEY].starts_with("external-name seen at 2024-11-30T10:00:00Z"));
        assert_eq!(findings[1].suggested_id.as_deref(), Some("guess"), "a suggestion of its own is kept");
        assert_eq!(findings[2].suggested_id, None, "only findings that want an ID");
        let holds = Mr::new("VPC", "a").external_name("vpc-0a1b").build();
        let mut findings = vec![Finding::new(Code::ExternalNameMissing, "m", "n")];
        suggest(&mut findings, &holds, &journaled);
        assert_eq!(findings[0].suggested_id, None, "the MR's own external-name is no news");
    }
}
