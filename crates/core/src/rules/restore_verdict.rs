//! What the reconciler does with an MR restored from a Velero backup, or met by a restarted
//! provider: the judgement the rules `Restore*` report and the live summary's restart count
//! uses. It reads [`Facts`], so it lives in the rule book; what it depends on beyond the object
//! is `domain::restore`'s.

use super::facts::Facts;
use super::mr_evidence::MrEvidence;
use crate::identity::Peers;
use crate::inventory::{IdForm, Tracking};
use crate::managed::{ManagedResource, keys};
use crate::restore::{MrRestore, name_initialized};
use crate::shell::quoted;

/// What the reconciler does with an MR restored from a backup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// It will be created again although its cloud object exists; the reason.
    Duplicate(String),
    /// It stops at the create-incomplete gate.
    Gate,
    /// Its cloud object is still managed by the source cluster (that MR).
    Fight(crate::restore::SourceTracker),
    /// Nothing is created twice; the reason.
    Safe(String),
    /// Its kind is inactive on the target: the restore skips it; the command that activates it.
    Inactive(String),
}

/// What shows that the MR's cloud object was created, if anything does.
pub(crate) fn created_by(facts: &Facts) -> Option<String> {
    let mr = facts.mr;
    if let Some(id) = &mr.at_provider_id {
        return Some(format!("status.atProvider.id is {id}", id = quoted(id)));
    }
    if mr.is_true("Ready") {
        return Some("it was Ready".into());
    }
    let m = &facts.marks;
    (m.succeeded.is_set() && !m.last_create_failed())
        .then(|| format!("{} is {}", keys::CREATE_SUCCEEDED, m.succeeded.raw.as_deref().unwrap_or_default()))
}

/// Whether a provider restart (or its next reconcile) would create this MR's cloud object again
/// right now, for the live summary's "N would be created again by a provider restart": the
/// restore verdict with nothing lost but the provider's memory (annotations and status stay), or
/// an object the evidence shows this MR lost ([`lost_second`]: deleted with `deletionPolicy:
/// Orphan` and applied again without its external-name). `evidence`: what was gathered for the
/// MR (`None` where only the objects are known, as in the watch).
pub fn restart_duplicates(
    mr: &ManagedResource,
    evidence: Option<&MrEvidence>,
    peers: &Peers,
    at: crate::reconcile_timeout::JudgedAt,
) -> bool {
    let ctx = MrRestore {
        name_initialized: name_initialized(peers.identity(mr.group(), &mr.kind)),
        source_tracker: None,
        inactive_kind: None,
    };
    let facts = Facts::with_evidence(mr, evidence, at);
    let recreated = matches!(verdict(&facts, &ctx), Verdict::Duplicate(_)) && !facts.paused && !facts.in_flight;
    recreated || lost_second(&facts).is_some()
}

/// Why the provider's next reconcile runs `ExternalClient.Create` for this MR, when it will.
/// crossplane-runtime's `Reconcile` stops at the pause, at `Validate` of the management policies
/// and at the create-incomplete gate, and creates when Observe finds nothing — which it must,
/// as an MR without an external-name names nothing to find (a provider's placeholder names
/// nothing either). A create in flight (an async create running, a pending mark not yet
/// resolved) is not a new create.
pub(crate) fn will_create(facts: &Facts) -> Option<String> {
    let mr = facts.mr;
    let stopped = facts.paused || facts.in_flight || facts.marks.incomplete() || facts.management.validate().is_err();
    if stopped || !facts.management.should_create() || mr.external_name().is_some() {
        return None;
    }
    let held = match mr.external_name_placeholder() {
        Some(p) => format!("only the placeholder {} as external-name", quoted(p.value)),
        None => "no external-name".to_string(),
    };
    Some(format!("it has {held}, is not paused and its policies {} allow Create", facts.policies.describe()))
}

/// The evidence key under which a finding says that the provider's next reconcile creates a
/// second object ([`second_object`]).
pub(crate) const NEXT_RECONCILE: &str = "nextReconcile";

/// What a rule that found the cloud object this MR lost says of the next reconcile: the provider
/// creates a second object beside it ([`will_create`]), unless the object is named after
/// `metadata.name` — an initializer may then set the external-name to it (upjet's
/// `NameAsIdentifier`), and Observe finds it — or after a `forProvider` value (its `name`): the
/// create then asks for that very name, which the cloud refuses as taken or answers with the
/// object itself, but does not duplicate. `ids`: what the object's ID reads as (each of its forms
/// is taken too). An object named otherwise (Terraform's generated `terraform-…` names when
/// `forProvider.name` is unset) is found by no initializer and asked for by no create.
pub(crate) fn second_object<'a>(facts: &Facts, ids: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let why = will_create(facts)?;
    let mr = facts.mr;
    let named = |n: &str| n.eq_ignore_ascii_case(&mr.name) || mr.for_provider.values().any(|v| v == n);
    let forms =
        |id: &'a str| std::iter::once(id.to_string()).chain(IdForm::ALL.iter().filter_map(move |f| f.apply(id)));
    if ids.into_iter().flat_map(forms).any(|n| named(&n)) {
        return None;
    }
    Some(format!(
        "the provider's next reconcile creates a second object: {why}, and the object is named neither after its metadata.name nor a forProvider value, so no name initializer finds it and no create asks for it"
    ))
}

/// The second object the provider's next reconcile creates beside one the evidence shows this MR
/// lost while it tracks none: the one object an inventory lists as tagged for it, or an ID its
/// change log (or an earlier MR's under its name) shows held and never deleted.
pub(crate) fn lost_second(facts: &Facts) -> Option<String> {
    let evidence = facts.evidence.filter(|_| facts.mr.external_name().is_none())?;
    let tagged = evidence.inventory.as_ref().and_then(|inv| match inv.objects.as_slice() {
        [object] if object.tracking == Tracking::Untracked => {
            second_object(facts, object.names().iter().map(String::as_str))
        }
        _ => None,
    });
    tagged.or_else(|| {
        let log = evidence.changelog.as_ref()?;
        let own = log.recorded_ids().into_iter().map(|(id, _)| id);
        let held: Vec<String> = own.chain(log.earlier_ids().into_iter().map(|e| e.id)).collect();
        held.last().and_then(|id| second_object(facts, [id.as_str()]))
    })
}

/// The reconciler's path for a restored MR (crossplane-runtime `pkg/reconciler/managed/reconciler.go`
/// `Reconcile`): pause, policy validation, name initializer, create-incomplete gate, then Observe
/// with state rebuilt from the external-name, and Create when Observe finds nothing.
pub fn verdict(facts: &Facts, ctx: &MrRestore) -> Verdict {
    let mr = facts.mr;
    if let Some(activate) = &ctx.inactive_kind {
        return Verdict::Inactive(activate.clone());
    }
    if facts.management.validate().is_err() {
        return Verdict::Safe("its management policies are not supported: the reconciler stops at Validate".into());
    }
    if facts.marks.incomplete() {
        return Verdict::Gate;
    }
    if let Some(who) = &ctx.source_tracker {
        return Verdict::Fight(who.clone());
    }
    let paused = if facts.paused { " (it is restored paused: that happens once the pause is lifted)" } else { "" };
    if let Some(ext) = mr.external_name() {
        return Verdict::Safe(format!(
            "the external-name {ext} is restored: upjet rebuilds the state from it and Observe finds the object",
            ext = quoted(ext)
        ));
    }
    let stub = mr.external_name_placeholder();
    if stub.is_none() && ctx.name_initialized == Some(true) {
        return Verdict::Safe(
            "upjet's name initializer sets the external-name to metadata.name, as every healthy peer of its kind shows, so Observe finds the object".into(),
        );
    }
    let Some(created) = created_by(facts) else {
        return Verdict::Safe(
            "the backup shows no cloud object was created: restoring it creates one, as the source would have".into(),
        );
    };
    if !facts.management.should_create() {
        return Verdict::Safe(format!(
            "its management policies ({}) do not allow Create: Observe finds nothing, nothing is created",
            facts.policies.describe()
        ));
    }
    let held = match stub {
        Some(p) => format!("only the placeholder {} as external-name", quoted(p.value)),
        None => "no external-name".to_string(),
    };
    let why = match ctx.name_initialized {
        Some(false) => " (its kind's IDs are provider-assigned: no initializer fills it)",
        _ => "",
    };
    Verdict::Duplicate(format!("it is restored with {held}{why} although {created}{paused}"))
}

#[cfg(test)]
mod tests {
    use super::super::inventory_cases::{findings_for, obj};
    use super::*;
    use crate::finding::Code;
    use crate::inventory::MrInventory;
    use crate::managed::keys;
    use crate::testing::Mr;

    const GENERATED: &str = "arn:aws:sqs:us-east-1:111122223333:terraform-20260110090000000000000001";

    /// A Queue deleted with `deletionPolicy: Orphan` and applied again from Git: no external-name,
    /// no status yet.
    fn reapplied() -> Mr {
        Mr::new("Queue", "orders")
    }

    /// (case, the MR, the ID of the one object tagged for it, whether the next reconcile creates
    /// a second object)
    type Case = (&'static str, fn() -> Mr, &'static str, bool);

    /// crossplane-runtime `Reconcile`: the pause and `Validate` come first, then the
    /// create-incomplete gate; Create runs when Observe finds nothing, and an MR without an
    /// external-name names nothing (upjet's name initializer fills it only for `NameAsIdentifier`
    /// kinds, with metadata.name).
    const CASES: &[Case] = &[
        ("re-applied, Terraform named the object: a second object", reapplied, GENERATED, true),
        ("paused", || reapplied().annotation(keys::PAUSED, "true"), GENERATED, false),
        ("policies without Create", || reapplied().policies(&["Observe", "Update", "Delete"]), GENERATED, false),
        ("unsupported policies stop at Validate", || reapplied().policies(&["Create"]), GENERATED, false),
        (
            "the object is named after metadata.name: an initializer may find it",
            reapplied,
            "arn:aws:sqs:us-east-1:111122223333:orders",
            false,
        ),
        (
            "the object is named after forProvider.name: the create asks for that name, no duplicate",
            || reapplied().param("name", "orders-queue"),
            "arn:aws:sqs:us-east-1:111122223333:orders-queue",
            false,
        ),
        (
            "forProvider.name names another queue than the lost one: a second object",
            || reapplied().param("name", "orders-queue"),
            GENERATED,
            true,
        ),
        ("it tracks an ID", || reapplied().external_name("https://sqs.us-east-1.amazonaws.com/1/q"), GENERATED, false),
        (
            "a create pending (in flight, or stopped at the gate)",
            || reapplied().annotation(keys::CREATE_PENDING, "2024-11-30T10:53:06Z"),
            GENERATED,
            false,
        ),
        (
            "an async create running",
            || reapplied().cond("Ready", "False", "Creating", "").cond("Synced", "True", "ReconcileSuccess", ""),
            GENERATED,
            false,
        ),
    ];

    #[test]
    fn a_lost_object_makes_a_second_one_only_when_the_provider_really_creates() {
        for (name, mr, id, second) in CASES {
            let inventory = MrInventory { objects: vec![obj(id, false, None)], rule: String::new(), gone: None };
            let ev = MrEvidence { inventory: Some(inventory), ..MrEvidence::default() };
            let built = mr().build();
            let counted = restart_duplicates(&built, Some(&ev), &Peers::default(), super::super::cases::at());
            assert_eq!(counted, *second, "{name}: counted");
            let orphan =
                findings_for(&mr(), vec![obj(id, false, None)]).into_iter().find(|f| f.code == Code::InventoryOrphan);
            let said = orphan.as_ref().is_some_and(|f| f.message.contains("creates a second object"));
            assert_eq!(said, *second, "{name}: said: {orphan:?}");
            assert_eq!(orphan.is_some_and(|f| f.evidence.contains_key(NEXT_RECONCILE)), *second, "{name}");
        }
        let plain = restart_duplicates(&reapplied().build(), None, &Peers::default(), super::super::cases::at());
        assert!(!plain, "without the inventory nothing shows an object exists");
    }

    /// The change log shows the ID too: an earlier MR under the name held it (provider-assigned:
    /// read in the entry after its create), and the re-applied one does not.
    #[test]
    fn an_earlier_mr_s_id_in_the_change_log_counts_and_is_said() {
        use super::super::changelog_cases::{log, reapplied as earlier};
        use crate::changelog::Operation::{Create, Update};
        let url = "https://sqs.us-east-1.amazonaws.com/111122223333/terraform-20260110090000000000000001";
        let judge = |mr: Mr, id: &str| {
            let ev = MrEvidence {
                changelog: Some(earlier(log(&[(1, Create, ""), (2, Update, id)]), &[])),
                ..MrEvidence::default()
            };
            let built = mr.build();
            let counted = restart_duplicates(&built, Some(&ev), &Peers::default(), super::super::cases::at());
            let found = crate::rules::findings_with(&built, Some(&ev), super::super::cases::at());
            let lost =
                found.into_iter().find(|f| f.code == Code::ChangeLogLostOnRecreate).expect("the earlier MR's ID");
            (counted, lost.message.contains("creates a second object"), lost.suggested_id)
        };
        assert_eq!(judge(reapplied(), url), (true, true, Some(url.to_string())));
        assert_eq!(judge(reapplied().annotation(keys::PAUSED, "true"), url), (false, false, Some(url.to_string())));
        assert_eq!(judge(reapplied(), "orders"), (false, false, Some("orders".to_string())), "named after it");
    }
}
