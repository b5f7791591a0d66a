//! `RestoreCreatesDuplicate`: restoring the MR from a Velero backup creates its cloud object again.

use super::facts::Facts;
use super::restore_verdict::{Verdict, verdict};
use crate::finding::{Code, Finding};
use crate::shell::{ShellCommand, quoted};

/// The command that stages a restore creating nothing from `backup`, the backup read; a
/// finding says `BACKUP`, which the fleet summary fills in.
pub fn restore_plan(backup: Option<&str>) -> ShellCommand {
    let command = ShellCommand::upjet("restore-plan");
    let command = match backup {
        Some(path) => command.arg(path),
        None => command.word("BACKUP"),
    };
    command.opt("--modifiers", "modifiers.yaml").opt("--plan", "promote.json")
}

/// Velero restores metadata and spec (`pkg/restore/restore.go` `resetMetadataAndStatus`); upjet
/// rebuilds Terraform state from the external-name alone (`external_tfpluginsdk.go` `Connect`),
/// so an MR restored without one (or with a provider's placeholder), whose kind's initializer
/// does not fill it (`IdentifierFromProvider` sets `DisableNameInitializer`), is not found by
/// Observe and the reconciler calls Create (`reconciler.go` `Reconcile`): a second cloud object,
/// and the first one orphaned (upjet#561, PR #562).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let ctx = facts.evidence?.restore.as_ref()?;
    let Verdict::Duplicate(why) = verdict(facts, ctx) else { return None };
    let id = facts.mr.at_provider_id.as_deref();
    let known = match id {
        Some(id) => format!("; restore it with external-name {id} (its status.atProvider.id)", id = quoted(id)),
        None => "; no ID is known: restore it paused, then find it with `kubectl upjet history`".to_string(),
    };
    let message = format!(
        "a restore creates this MR's cloud object again: {why}, and upjet rebuilds its state from the external-name only{known}"
    );
    let f = Finding::new(Code::RestoreCreatesDuplicate, message, restore_plan(None))
        .with("restore", why)
        .with("managementPolicies", facts.policies.describe())
        .with_opt("status.atProvider.id", id);
    Some(facts.with_marks(f).suggest(id))
}

#[cfg(test)]
mod tests {
    use super::super::cases::{F, P, S, T0, T1};
    use super::super::restore_cases::*;
    use crate::finding::Code::*;
    use crate::testing::Mr;

    /// crossplane-runtime `pkg/reconciler/managed/reconciler.go` `Reconcile` (Initialize, the
    /// create-incomplete gate, Observe, then Create when nothing is found), upjet
    /// `pkg/controller/external_tfpluginsdk.go` `Connect` (state rebuilt with
    /// `GetIDFn(external-name)`), upjet `pkg/config` `NameAsIdentifier` / `IdentifierFromProvider`
    /// (`DisableNameInitializer`), and Velero `pkg/restore/restore.go` `resetMetadataAndStatus`.
    const CASES: &[Case] = &[
        (
            "atProvider.id only, provider-assigned",
            || Mr::new("VPC", "v").at_provider_id("vpc-1").healthy(),
            provider_assigned,
            &[RestoreCreatesDuplicate],
        ),
        ("Ready only, peers unknown", || Mr::new("VPC", "v").healthy(), unknown, &[RestoreCreatesDuplicate]),
        (
            "succeeded mark only (an async create started)",
            || Mr::new("VPC", "v").annotation(P, T0).annotation(S, T0),
            unknown,
            &[RestoreCreatesDuplicate],
        ),
        (
            "a placeholder is no ID, even for a name-initialized kind",
            || Mr::new("VPC", "v").external_name("sgr-stub").at_provider_id("sgr-0abc").healthy(),
            name_initialized,
            &[RestoreCreatesDuplicate],
        ),
        (
            "name-initialized kind: the initializer fills it",
            || Mr::new("Bucket", "b").at_provider_id("b").healthy(),
            name_initialized,
            &[RestoreSafe],
        ),
        (
            "external-name set",
            || Mr::new("VPC", "v").external_name("vpc-1").at_provider_id("vpc-1").healthy(),
            provider_assigned,
            &[RestoreSafe],
        ),
        ("never created", || Mr::new("VPC", "v"), provider_assigned, &[RestoreSafe]),
        (
            "the last create failed and nothing else shows one",
            || Mr::new("VPC", "v").annotation(P, T0).annotation(S, T0).annotation(F, T1),
            provider_assigned,
            &[RestoreSafe],
        ),
        (
            "Observe-only: nothing can be created",
            || Mr::new("VPC", "v").at_provider_id("vpc-1").healthy().policies(&["Observe"]),
            provider_assigned,
            &[RestoreSafe],
        ),
        (
            "paused: created again once unpaused",
            || Mr::new("VPC", "v").at_provider_id("vpc-1").healthy().annotation("crossplane.io/paused", "true"),
            provider_assigned,
            &[RestoreCreatesDuplicate],
        ),
        (
            "unsupported policies: Validate stops it",
            || Mr::new("VPC", "v").at_provider_id("vpc-1").healthy().policies(&["Create"]),
            provider_assigned,
            &[RestoreSafe],
        ),
    ];

    #[test]
    fn table() {
        check_restore_cases(CASES);
    }

    #[test]
    fn the_finding_suggests_the_observed_id_and_says_why() {
        let mr =
            Mr::new("VPC", "v").at_provider_id("vpc-1").healthy().policies(&["Observe", "Create", "Update", "Delete"]);
        let f = restore_findings(&mr, provider_assigned()).remove(0);
        assert_eq!(f.suggested_id.as_deref(), Some("vpc-1"));
        assert!(f.message.contains("no external-name (its kind's IDs are provider-assigned"), "{}", f.message);
        assert!(f.message.contains("status.atProvider.id is \"vpc-1\""), "{}", f.message);
        assert!(f.next.starts_with("kubectl upjet restore-plan BACKUP"), "{}", f.next);
        let paused = restore_findings(&mr.annotation("crossplane.io/paused", "true"), provider_assigned()).remove(0);
        assert!(paused.message.contains("once the pause is lifted"), "{}", paused.message);
    }
}
