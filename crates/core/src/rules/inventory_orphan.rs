//! `InventoryOrphan`: the one cloud object an inventory export lists as tagged for this MR is not
//! the object the MR tracks. crossplane-runtime stamps `GetExternalTags` on every object an upjet
//! provider creates, so this object was created for this MR; when the MR tracks nothing (lost
//! external-name, `AlreadyExists` create loop) it is the object to adopt. A Ready MR is reported
//! only when the object is provably another (its own `status.atProvider.arn`, or the kind's proven
//! ID rule, says so): never because its ID has a shape no form relates to the export's, as a
//! healthy SQS queue's URL does to the queue's ARN. While a create of the MR may still be
//! running, the object tagged for it is the one being created (the cloud object exists before the
//! MR records its ID: seconds for a queue, tens of minutes for a database): an info finding, and
//! the adoption is offered only once the create is known to have ended without recording it.

use super::facts::Facts;
use crate::finding::{Code, Finding, Severity};
use crate::inventory::id_form::Prediction;
use crate::inventory::{MrInventory, TaggedObject, Tracking};
use crate::managed::keys;
use crate::shell::quoted;

/// One finding when exactly one object is tagged for the MR and it is not tracked (several
/// objects are `InventoryDuplicate`'s). An ID is suggested when the MR tracks none, or tracks one
/// that does not work (not Ready): never to replace a working identity. When the MR's ID cannot
/// be tied to the object either way, a Ready MR is left alone and a broken one gets a warning.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let inv = facts.evidence?.inventory.as_ref()?;
    let [object] = inv.objects.as_slice() else { return None };
    let mr = facts.mr;
    if object.tracking != Tracking::Tracked
        && let Some(running) = facts.create_running()
    {
        return Some(being_created(facts, object, inv, &running));
    }
    match object.tracking {
        Tracking::Tracked => return None,
        Tracking::Unknown if mr.is_true("Ready") => return None,
        Tracking::Unknown => return Some(unknown(facts, object, inv)),
        Tracking::Untracked => {}
    }
    let tracked = mr.external_name().or(mr.at_provider_id.as_deref());
    let candidate = match &object.prediction {
        Prediction::Id(id) => Some(id.as_str()),
        _ => None,
    };
    let may_adopt = tracked.is_none() || !mr.is_true("Ready");
    // A re-applied MR (deleted with `deletionPolicy: Orphan`) the provider is about to create.
    let second = super::restore_verdict::lost_second(facts);
    let message = match tracked {
        None => format!(
            "the inventory lists {} tagged for this MR, which tracks no ID: it is the object this MR lost{}",
            quoted(&object.id),
            second.as_ref().map(|s| format!("; {s}: adopt this one first")).unwrap_or_default()
        ),
        Some(t) => format!(
            "the inventory lists {} tagged for this MR, which tracks {t}: {} is an orphan nothing tracks",
            quoted(&object.id),
            quoted(&object.id),
            t = quoted(t)
        ),
    };
    let next = match (may_adopt, candidate) {
        (true, Some(id)) => facts.upjet("adopt").opt("--id", id).word("--import").to_string(),
        _ => facts.upjet("history").to_string(),
    };
    let finding = Finding::new(Code::InventoryOrphan, message, next)
        .with_opt(keys::EXTERNAL_NAME, mr.external_name())
        .with_opt(super::restore_verdict::NEXT_RECONCILE, second);
    Some(with_object(finding, object, inv).suggest(candidate.filter(|_| may_adopt)))
}

/// The one object tagged for an MR whose create may still be running: most likely the object
/// that create is making, which the MR records when it ends (upjet's async create returns at
/// once; the callback and the next Observe record the ID). Nothing to adopt now: adopting races
/// the create (upjet#722), and history says whether it ended without recording it.
fn being_created(facts: &Facts, object: &TaggedObject, inv: &MrInventory, running: &str) -> Finding {
    let message = format!(
        "the inventory lists {} tagged for this MR while a create may still be running ({running}): it is most likely the object being created, which the MR records when the create ends; do not adopt it now",
        quoted(&object.id)
    );
    let next = facts.upjet("history").opt("--inventory", &object.source);
    let mut f = Finding::new(Code::InventoryOrphan, message, next).with("createRunning", running.to_string());
    f.severity = Severity::Info;
    with_object(f.with_opt(keys::EXTERNAL_NAME, facts.mr.external_name()), object, inv)
}

/// A broken MR whose ID no form ties to its one tagged object: the object may be the one it
/// tracks or one it lost, which only the history can tell.
fn unknown(facts: &Facts, object: &TaggedObject, inv: &MrInventory) -> Finding {
    let tracked = facts.mr.external_name().or(facts.mr.at_provider_id.as_deref()).unwrap_or_default();
    let message = format!(
        "the inventory lists {} tagged for this MR, which is not Ready and tracks {tracked}: no ID form ties the two, so it may be this MR's object or one it lost",
        quoted(&object.id),
        tracked = quoted(tracked)
    );
    let mut f = Finding::new(Code::InventoryOrphan, message, facts.upjet("history").to_string());
    f.severity = Severity::Warning;
    with_object(f.with_opt(keys::EXTERNAL_NAME, facts.mr.external_name()), object, inv)
}

/// The evidence every inventory finding carries about one object.
pub(super) fn with_object(f: Finding, o: &TaggedObject, inv: &MrInventory) -> Finding {
    let f = f
        .with("inventoryId", o.id.clone())
        .with("inventoryFile", o.source.to_string())
        .with("idRule", inv.rule.clone())
        .with_opt(
            "crossplane-providerconfig",
            o.provider_config.as_ref().map(|k| crate::inventory::shown(&k.to_string())),
        );
    let f = match &o.prediction {
        Prediction::Ambiguous(all) => f.with("candidates", all.join(", ")),
        _ => f,
    };
    if o.without_namespace_tag {
        f.with(
            "namespaceMatch",
            "the object has no crossplane-namespace tag; matched by kind and name, unique across namespaces",
        )
    } else {
        f
    }
}

#[cfg(test)]
mod tests {
    use super::super::inventory_cases::{Case, check_inventory_cases, obj, unknown};
    use crate::finding::Code;
    use crate::testing::Mr;

    const CASES: &[Case] = &[
        (
            "tracks none: suggest the object",
            || Mr::new("Secret", "s"),
            || vec![obj("arn:x", false, Some("arn:x"))],
            Some(Some("arn:x")),
        ),
        (
            "tracks none, no proven rule: report, suggest nothing",
            || Mr::new("Secret", "s"),
            || vec![obj("arn:x", false, None)],
            Some(None),
        ),
        (
            "healthy and tracking another ID: orphan, keep the identity",
            || Mr::new("Secret", "s").external_name("a").healthy(),
            || vec![obj("arn:x", false, Some("x"))],
            Some(None),
        ),
        (
            "broken and tracking another ID: suggest",
            || Mr::new("Secret", "s").external_name("a"),
            || vec![obj("arn:x", false, Some("x"))],
            Some(Some("x")),
        ),
        (
            "tracked: nothing",
            || Mr::new("Secret", "s").external_name("x"),
            || vec![obj("arn:x", true, Some("x"))],
            None,
        ),
        (
            "healthy, tracking an ID no form ties to the object (an SQS URL against its ARN): nothing",
            || Mr::new("Queue", "q").external_name("https://sqs.r.amazonaws.com/1/q").healthy(),
            || vec![unknown("arn:aws:sqs:r:1:q")],
            None,
        ),
        (
            "broken, tracking an ID no form ties to the object: a warning, nothing suggested",
            || Mr::new("Queue", "q").external_name("https://sqs.r.amazonaws.com/1/q"),
            || vec![unknown("arn:aws:sqs:r:1:q")],
            Some(None),
        ),
        (
            "two objects: a duplicate, not this",
            || Mr::new("Secret", "s"),
            || vec![obj("a", false, None), obj("b", false, None)],
            None,
        ),
    ];

    #[test]
    fn table() {
        check_inventory_cases(Code::InventoryOrphan, CASES);
    }

    use super::super::cases::{P, S};
    use super::super::inventory_cases::findings_for;
    use super::super::{LoggedLine, MrEvidence, findings_with};
    use crate::finding::{Finding, Severity};
    use crate::gotime::GoTime;
    use crate::inventory::MrInventory;

    /// An SQS Queue as upjet's Terraform CLI mode leaves it 25 s into a healthy async create
    /// (`pkg/controller/external.go` `Create` returns once `ApplyAsync` started; the reconciler
    /// writes pending and succeeded in one second, then Ready=False/Creating and Synced=True;
    /// `Observe` finds the apply running and sets AsyncOperation=False/Ongoing): the queue
    /// already exists and is tagged, and the MR holds no ID yet.
    fn creating_queue() -> Mr {
        let t = "2024-11-30T10:57:35Z";
        Mr::new("Queue", "orders")
            .api_version("sqs.aws.upbound.io/v1beta1")
            .annotation(P, t)
            .annotation(S, t)
            .cond_at("Ready", "False", "Creating", "", t)
            .cond_at("Synced", "True", "ReconcileSuccess", "", t)
            .cond_at("AsyncOperation", "False", "Ongoing", "", "2024-11-30T10:57:36Z")
    }

    const QUEUE_ARN: &str = "arn:aws:sqs:eu-west-1:123456789012:orders";

    fn orphan(found: Vec<Finding>) -> Finding {
        found.into_iter().find(|f| f.code == Code::InventoryOrphan).expect("an InventoryOrphan finding")
    }

    /// The in-flight window: the object tagged for the MR is the one being created. Info beside
    /// the MR's own AsyncInFlight, nothing suggested, no adopt command.
    #[test]
    fn a_create_in_flight_is_not_an_orphan() {
        let found = findings_for(&creating_queue(), vec![obj(QUEUE_ARN, false, Some(QUEUE_ARN))]);
        assert!(found.iter().any(|f| f.code == Code::AsyncInFlight), "{found:?}");
        let f = orphan(found);
        assert_eq!(f.severity, Severity::Info, "{}", f.message);
        assert_eq!(f.suggested_id, None);
        assert!(!f.next.contains("adopt"), "{}", f.next);
        assert!(f.message.contains("most likely the object being created"), "{}", f.message);
        assert!(!f.message.contains("lost"), "{}", f.message);
        assert!(f.evidence["createRunning"].contains("AsyncOperation=False/Ongoing"), "{:?}", f.evidence);

        // A pending mark younger than the reconcile timeout (a create still inside `Create`).
        let pending = Mr::new("Queue", "orders").annotation(P, "2024-11-30T10:57:50Z").no_status();
        let f = orphan(findings_for(&pending, vec![obj(QUEUE_ARN, false, Some(QUEUE_ARN))]));
        assert_eq!((f.severity, f.suggested_id.as_deref()), (Severity::Info, None), "{}", f.message);
    }

    /// Once the create is known to have ended without recording the object (the provider process
    /// restarted after it started; upjet's one-hour deadline passed), it is this MR's lost object
    /// again, with the adopt command.
    #[test]
    fn once_the_create_ended_without_recording_it_the_object_is_adopted() {
        let restarted = |at: &str| MrEvidence {
            inventory: Some(MrInventory {
                objects: vec![obj(QUEUE_ARN, false, Some(QUEUE_ARN))],
                rule: "external-name = the cloud ID".into(),
                gone: None,
            }),
            process_starts: vec![LoggedLine { time: GoTime::parse_rfc3339(at), source: "Starting Controller".into() }],
            ..MrEvidence::default()
        };
        let judge =
            |ev: &MrEvidence| orphan(findings_with(&creating_queue().build(), Some(ev), super::super::cases::at()));
        let f = judge(&restarted("2024-11-30T10:57:50Z"));
        assert_eq!(f.severity, Severity::Error, "{}", f.message);
        assert_eq!(f.suggested_id.as_deref(), Some(QUEUE_ARN));
        assert!(f.next.starts_with("kubectl upjet adopt queue.sqs.aws.upbound.io/orders --id "), "{}", f.next);
        // A start before the create began says nothing about it: still being created.
        let f = judge(&restarted("2024-11-30T10:50:00Z"));
        assert_eq!(f.severity, Severity::Info, "{}", f.message);

        let old = "2024-11-30T09:40:00Z";
        let stale = Mr::new("Queue", "orders")
            .annotation(P, old)
            .annotation(S, old)
            .cond_at("Ready", "False", "Creating", "", old)
            .cond_at("Synced", "True", "ReconcileSuccess", "", old);
        let f = orphan(findings_for(&stale, vec![obj(QUEUE_ARN, false, Some(QUEUE_ARN))]));
        assert_eq!((f.severity, f.suggested_id.as_deref()), (Severity::Error, Some(QUEUE_ARN)), "{}", f.message);
    }
}
