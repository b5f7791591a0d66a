//! `ComposedRecreated`: an XR composes, without an ID, a resource an earlier MR held an ID for.

use super::facts::Facts;
use crate::composition::{Predecessor, Source};
use crate::finding::{Code, Finding};
use crate::shell::quoted;

/// A composed resource's name is `ChildName(generateName, XR UID, composition-resource-name)`
/// (crossplane `internal/names/generate.go`), so an XR created again under its name — a GitOps
/// re-apply after a deletion, a Velero restore, a move to another cluster — gets a new UID and
/// composes every resource under a new name, with no external-name: each a create, a second
/// cloud object, while the earlier MRs (orphaned, or still there) hold the IDs. The earlier MR
/// of the slot is found live, in the ID journal or in the guard's lock. An MR that creates
/// nothing (no Create policy) makes no duplicate.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let c = facts.evidence?.composition.as_ref()?;
    let mr = facts.mr;
    let resource = c.resource.as_deref()?;
    if mr.external_name().is_some() || mr.deletion_timestamp.is_some() || !facts.management.should_create() {
        return None;
    }
    let chosen = best(&c.predecessors)?;
    let xr = c.xr_key.as_ref().map(|k| k.display()).or(c.label.clone()).unwrap_or_else(|| "its XR".into());
    let matched = match chosen.exact {
        true => format!("resource {resource}"),
        false => format!(
            "name {}-…, the one such ID for the one {} without an ID",
            c.label.as_deref().unwrap_or("?"),
            mr.kind
        ),
    };
    let when = match facts.marks.succeeded.is_set() {
        true => "its create already ran: the object it made is a second one",
        false => "its next reconcile creates a second cloud object",
    };
    let message = format!(
        "{xr} composes this MR without an external-name, but {} held {} for the same {matched} ({}): {when}; adopt that ID",
        chosen.mr.display(),
        quoted(&chosen.id),
        chosen.source.label()
    );
    let others: Vec<String> =
        c.predecessors.iter().filter(|p| p.id != chosen.id).map(|p| format!("{} ({})", p.id, p.mr.display())).collect();
    let next = facts.upjet("adopt").opt("--id", &chosen.id);
    Some(
        Finding::new(Code::ComposedRecreated, message, next.to_string())
            .with("composite", xr)
            .with("resource", resource)
            .with("earlierMr", chosen.mr.display())
            .with("earlierId", chosen.id.clone())
            .with("foundIn", chosen.source.label())
            .with_opt("recordedAt", chosen.time.clone())
            .with_opt("otherIds", (!others.is_empty()).then(|| others.join(", ")))
            .suggest(Some(&chosen.id)),
    )
}

/// The identity to adopt: an exact match before a match by name, a live MR before the journal
/// before the lock, the newest record first.
fn best(all: &[Predecessor]) -> Option<&Predecessor> {
    let rank = |p: &Predecessor| {
        let source = match p.source {
            Source::Live => 0,
            Source::Journal => 1,
            Source::Lock => 2,
        };
        (!p.exact, source, std::cmp::Reverse(p.time.clone()))
    };
    all.iter().min_by_key(|p| rank(p))
}

#[cfg(test)]
mod tests {
    use super::super::composition_cases::*;
    use crate::finding::Code;

    #[test]
    fn table() {
        let old = || composed("orders-a1b2c", "xr-1", "db").external_name("orders-db");
        let new = || composed("orders-x9y8z", "xr-2", "db");
        let other_slot = || composed("orders-q1w2e", "xr-1", "cache").external_name("orders-cache");
        let journal = [journaled("orders-a1b2c", "uid-orders-a1b2c", "orders-db", Some(("orders", "db")))];
        let loose = [journaled("orders-a1b2c", "uid-orders-a1b2c", "orders-db", None)];
        for (case, mr, fleet, records, want) in [
            ("the earlier MR is still there", new(), vec![old(), new()], &[][..], Some("live")),
            ("only the journal remembers it", new(), vec![new()], &journal[..], Some("ID journal")),
            ("an older journal line, matched by name", new(), vec![new()], &loose[..], Some("ID journal")),
            ("another slot's ID is not this one's", new(), vec![other_slot(), new()], &[][..], None),
            ("it has an ID of its own", new().external_name("orders-db-2"), vec![old(), new()], &[][..], None),
            ("observe-only creates nothing", new().policies(&["Observe"]), vec![old(), new()], &[][..], None),
            ("nothing earlier: a first compose", new(), vec![new()], &[][..], None),
        ] {
            let fleet: Vec<_> = fleet.iter().collect();
            let found =
                judge(Code::ComposedRecreated, &mr, &tree(vec![xr("xr-2", &["orders-x9y8z"])], &fleet, records));
            assert_eq!(found.as_ref().map(|f| f.evidence["foundIn"].as_str()), want, "{case}: {found:?}");
            if let Some(f) = found {
                assert_eq!(f.suggested_id.as_deref(), Some("orders-db"), "{case}");
                assert!(
                    f.next.ends_with("adopt recordset.dns.gcp.upbound.io/orders-x9y8z --id orders-db"),
                    "{}",
                    f.next
                );
            }
        }
    }
}
