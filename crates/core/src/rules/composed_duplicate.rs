//! `ComposedDuplicate`: two live MRs fill one resource name of one XR.

use super::facts::Facts;
use crate::finding::{Code, Finding};

/// One XR keeps one composed resource per resource name: its desired state is a map by name, and
/// it observes its resources through its references, one per name. Two live MRs under the same
/// controller with the same `crossplane.io/composition-resource-name` (a reference rewritten
/// while the first was still there, crossplane#5862's duplicates after server-side apply) are two
/// MRs acting on what the composition means as one: each may hold its own cloud object, and the
/// one the XR no longer lists is reconciled by nothing of the composition. An MR being deleted
/// is garbage collection under way, not a duplicate.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let c = facts.evidence?.composition.as_ref()?;
    let first = c.duplicates.first()?;
    let resource = c.resource.as_deref()?;
    if facts.mr.deletion_timestamp.is_some() {
        return None;
    }
    let xr = c.xr_key.as_ref().map(|k| k.display()).unwrap_or_else(|| "its XR".into());
    let listed = match c.listed {
        Some(true) => "the XR lists this one",
        Some(false) => "the XR does not list this one",
        None => "which one the XR lists is unknown",
    };
    let others: Vec<String> = c.duplicates.iter().map(|k| k.display()).collect();
    let message = format!(
        "{} other live MR{} fill{} resource {resource} of {xr} too ({}): one composed resource, several MRs and cloud objects; {listed}",
        others.len(),
        if others.len() == 1 { "" } else { "s" },
        if others.len() == 1 { "s" } else { "" },
        first.display(),
    );
    let next = match &c.xr_key {
        Some(key) => key.upjet_command("doctor"),
        None => facts.upjet("history"),
    };
    Some(
        Finding::new(Code::ComposedDuplicate, message, next.to_string())
            .with("composite", xr)
            .with("resource", resource)
            .with("duplicates", others.join(", "))
            .with_opt("listed", c.listed.map(|l| l.to_string())),
    )
}

#[cfg(test)]
mod tests {
    use super::super::composition_cases::*;
    use crate::finding::Code;

    #[test]
    fn table() {
        let a = || composed("orders-a1b2c", "xr-1", "db").external_name("orders-db");
        let b = || composed("orders-d4e5f", "xr-1", "db").external_name("orders-db-2");
        let cache = || composed("orders-g7h8i", "xr-1", "cache").external_name("orders-cache");
        let earlier = || composed("orders-j1k2l", "xr-0", "db").external_name("orders-db-0");
        for (case, mr, fleet, fires) in [
            ("two MRs, one resource name, one controller", b(), vec![a(), b()], true),
            ("the listed one is told too", a(), vec![a(), b()], true),
            ("another resource name", a(), vec![a(), cache()], false),
            ("an earlier XR's MR is no duplicate", a(), vec![a(), earlier()], false),
            ("the other is being garbage-collected", a(), vec![a(), b().deleting()], false),
            ("alone", a(), vec![a()], false),
        ] {
            let fleet: Vec<_> = fleet.iter().collect();
            let found = judge(Code::ComposedDuplicate, &mr, &tree(vec![xr("xr-1", &["orders-a1b2c"])], &fleet, &[]));
            assert_eq!(found.is_some(), fires, "{case}: {found:?}");
        }
    }
}
