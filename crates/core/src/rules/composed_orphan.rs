//! `ComposedOrphan`: nothing composes the MR any more.

use super::facts::Facts;
use crate::composition::{COMPOSE_GRACE_SECS, MrComposition, XrLink};
use crate::finding::{Code, Finding, Severity};
use crate::gotime::GoTime;
use crate::shell::quoted;

/// The composite reconciler finds its resources through its references only, and treats one
/// whose controller reference names another UID as absent (crossplane `composition_functions.go`
/// `ObserveComposedResources`): an MR whose XR is gone, was created again (a new UID), or no
/// longer lists it is composed by nothing — no compose updates it, no deletion of the claim or
/// XR deletes it. While its owner reference still names a UID no object has, Kubernetes' garbage
/// collector deletes it as a dependent whose owners are all gone, and with it its cloud object
/// when its policies delete: an error then. A resource the XR does not list yet may be a compose
/// in progress (the XR read before the MR), so an unlisted MR younger than
/// [`COMPOSE_GRACE_SECS`] is left alone, and so is one that fills its slot twice: that is a
/// `ComposedDuplicate`.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let c = facts.evidence?.composition.as_ref()?;
    let mr = facts.mr;
    if mr.deletion_timestamp.is_some() || (c.resource.is_none() && c.label.is_none()) {
        return None;
    }
    let controller = mr.composed.as_deref().and_then(|m| m.controller.as_ref());
    let (why, dangling) = reason(c, facts)?;
    let holds = match mr.external_name() {
        Some(id) => format!("it holds cloud object {}", quoted(id)),
        None => "it holds no cloud object ID".to_string(),
    };
    let deletes = facts.management.should_delete();
    let fate = match (dangling, deletes) {
        (true, true) => {
            "Kubernetes' garbage collector deletes an object whose owners are all gone, and its provider the cloud object with it"
        }
        (true, false) => {
            "Kubernetes' garbage collector deletes an object whose owners are all gone; its policies leave the cloud object in place"
        }
        (false, _) => "nothing composes it now, and deleting the claim or XR no longer deletes it",
    };
    let message = format!("{why}: {fate}; {holds}");
    let next = match (dangling && deletes, facts.management.keep_cloud_object_patch(), &c.xr_key) {
        (true, Some(patch), _) => facts.kubectl("patch").word("--type").word("merge").opt("-p", patch),
        (_, _, Some(key)) if c.xr.is_some() => key.upjet_command("doctor"),
        _ => facts.upjet("history"),
    };
    let mut f = Finding::new(Code::ComposedOrphan, message, next.to_string())
        .with("why", why)
        .with_opt("composite", c.xr_key.as_ref().map(|k| k.display()))
        .with_opt("controllerUid", controller.map(|c| c.uid.clone()))
        .with_opt("resource", c.resource.clone())
        .with("cloudObject", mr.external_name().unwrap_or("none"));
    if dangling && deletes && mr.external_name().is_some() {
        f.severity = Severity::Error;
    }
    Some(f)
}

/// Why nothing composes the MR, and whether its owner reference dangles; `None` when something
/// does (or nothing can be said).
fn reason(c: &MrComposition, facts: &Facts) -> Option<(String, bool)> {
    let key = c.xr_key.as_ref().map(|k| k.display()).unwrap_or_else(|| "its XR".into());
    match c.link? {
        XrLink::Gone => Some((format!("its XR {key} is gone"), true)),
        XrLink::Recreated => {
            let uid = c.xr.as_ref().map(|x| x.uid.as_str()).unwrap_or("?");
            Some((format!("its XR {key} was created again (uid {uid}) and takes it for another's"), true))
        }
        // A duplicate the XR does not list is told as one (`ComposedDuplicate`).
        XrLink::Live if c.listed == Some(false) && c.duplicates.is_empty() && old_enough(facts) => {
            Some((format!("its XR {key} does not list it in its resource references"), false))
        }
        XrLink::Uncontrolled if c.listed == Some(false) && old_enough(facts) => {
            Some(("no XR lists it and it has no controller reference".to_string(), false))
        }
        _ => None,
    }
}

/// Whether the MR is older than a compose in progress can explain.
fn old_enough(facts: &Facts) -> bool {
    let created = facts.mr.creation_timestamp.as_deref().and_then(GoTime::parse_rfc3339);
    created.is_none_or(|t| t.add_secs(COMPOSE_GRACE_SECS).before(&facts.now))
}

#[cfg(test)]
mod tests {
    use super::super::composition_cases::*;
    use crate::finding::{Code, Severity};

    #[test]
    fn table() {
        let db = || composed("orders-a1b2c", "xr-1", "db").external_name("orders-db");
        let young = || db().created("2024-11-30T10:57:00Z");
        let uncontrolled = || {
            let mut m = db().json();
            m["metadata"].as_object_mut().unwrap().remove("ownerReferences");
            crate::testing::Mr::from_json(m)
        };
        for (case, mr, xrs, want) in [
            ("its XR is gone", db(), vec![], Some(Severity::Error)),
            ("gone, keeping its object", db().deletion_policy("Orphan"), vec![], Some(Severity::Warning)),
            ("its XR was created again", db(), vec![xr("xr-2", &[])], Some(Severity::Error)),
            ("its XR no longer lists it", db(), vec![xr("xr-1", &["orders-other"])], Some(Severity::Warning)),
            ("no controller, no XR lists it", uncontrolled(), vec![xr("xr-2", &[])], Some(Severity::Warning)),
            (
                "no controller, but listed: the XR takes it back",
                uncontrolled(),
                vec![xr("xr-2", &["orders-a1b2c"])],
                None,
            ),
            ("listed by its live XR", db(), vec![xr("xr-1", &["orders-a1b2c"])], None),
            ("a compose in progress", young(), vec![xr("xr-1", &[])], None),
            ("an unlisted duplicate is told as one", db(), vec![xr("xr-1", &["orders-twin"])], None),
            ("being deleted", db().deleting(), vec![], None),
        ] {
            let twin = composed("orders-twin", "xr-1", "db").external_name("orders-db-2");
            let fleet = match case.starts_with("an unlisted duplicate") {
                true => vec![&mr, &twin],
                false => vec![],
            };
            let found = judge(Code::ComposedOrphan, &mr, &tree(xrs, &fleet, &[]));
            assert_eq!(found.as_ref().map(|f| f.severity), want, "{case}: {found:?}");
        }
    }
}
