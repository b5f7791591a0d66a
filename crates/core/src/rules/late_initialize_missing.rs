//! `LateInitializeMissing`: an external-name learned after an async create would never be saved.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::managed::keys;
use crate::upjet_client::Client;

/// Without LateInitialize (or `*`), upjet's in-process clients never persist an external-name they
/// learn after an async create: `Observe` sets it on the object and crossplane-runtime's
/// late-initialization update, which those policies skip, is the only write (reconciler.go
/// late-init step; crossplane#5918). upjet's Terraform CLI client saves it itself
/// (`external.go` `Observe`: `SetCriticalAnnotations`, then its own `kube.Update` when the
/// policies lack LateInitialize), so an MR the cluster shows it runs is not at risk; when nothing
/// shows which client runs the kind, both are said. It matters while the identity is not yet
/// durable: no external-name, or not yet confirmed Ready. A set the reconciler rejects
/// (`Validate`) is reported as UnsupportedManagementPolicies instead: nothing runs until it is
/// replaced, so adding LateInitialize to it is the wrong advice.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let mr = facts.mr;
    if facts.policies.listed.is_none()
        || facts.management.validate().is_err()
        || facts.policies.is_paused()
        || facts.policies.should_late_initialize()
        || !facts.policies.should_create()
    {
        return None;
    }
    if mr.external_name().is_some() && mr.is_true("Ready") {
        return None;
    }
    let message = match facts.upjet.client {
        Client::TerraformCli => return None,
        Client::InProcess => format!(
            "managementPolicies lack LateInitialize and \"*\", so upjet will never save an external-name learned after an async create; a restart then creates a duplicate (upjet runs this kind in-process, shown by {})",
            facts.upjet.shown_by
        ),
        Client::Unknown => format!("managementPolicies lack LateInitialize and \"*\": {}", BOTH_CLIENTS),
    };
    Some(
        Finding::new(
            Code::LateInitializeMissing,
            message,
            facts
                .kubectl("patch")
                .word("--type=json")
                .opt("-p", r#"[{"op":"add","path":"/spec/managementPolicies/-","value":"LateInitialize"}]"#),
        )
        .with("managementPolicies", facts.policies.describe())
        .with("upjetClient", client_evidence(facts))
        .with_opt(keys::EXTERNAL_NAME, mr.external_name()),
    )
}

/// What happens without LateInitialize under each of upjet's clients, when nothing read shows
/// which one runs the kind.
pub(super) const BOTH_CLIENTS: &str = "upjet's in-process clients (upjet v1 and later) never save an external-name learned after an async create, so a restart creates a duplicate; its Terraform CLI client saves it itself. Nothing read shows which runs this kind (an AsyncOperation condition or `Running terraform` log lines mean the CLI)";

/// The client as a finding's evidence: which, and what shows it.
pub(super) fn client_evidence(facts: &Facts) -> String {
    match facts.upjet.client {
        Client::TerraformCli => format!("Terraform CLI, shown by {}", facts.upjet.shown_by),
        Client::InProcess => format!("in-process, shown by {}", facts.upjet.shown_by),
        Client::Unknown => "not shown (no AsyncOperation condition, provider log line or package version tells)".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::cases::*;
    use crate::finding::Code::*;
    use crate::testing::Mr;

    /// Follows crossplane-runtime `pkg/reconciler/managed/reconciler.go` `Reconcile` (the
    /// late-initialize step, after `Validate`) and `policies.go` `ShouldLateInitialize`.
    const CASES: &[Case] = &[
        (
            "LateInitialize missing on a fresh MR",
            || {
                Mr::new("Vpc", "v")
                    .policies(&["Observe", "Create", "Update", "Delete"])
                    .cond("Ready", "False", "Unavailable", "")
                    .cond("Synced", "True", "ReconcileSuccess", "")
            },
            &[LateInitializeMissing],
        ),
        (
            "unsupported set: no LateInitialize advice",
            || {
                Mr::new("Vpc", "v")
                    .policies(&["Create", "Update", "Delete"])
                    .cond("Ready", "False", "Unavailable", "")
                    .cond("Synced", "True", "ReconcileSuccess", "")
            },
            &[KstatusMisleading, UnsupportedManagementPolicies],
        ),
        (
            "LateInitialize missing but identity durable",
            || base().healthy().policies(&["Observe", "Create", "Update", "Delete"]),
            &[],
        ),
        (
            "observe-only does not need LateInitialize",
            || {
                Mr::new("Vpc", "v").policies(&["Observe"]).cond("Ready", "False", "Unavailable", "").cond(
                    "Synced",
                    "True",
                    "ReconcileSuccess",
                    "",
                )
            },
            &[],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }

    use super::super::{MrEvidence, findings_with};
    use crate::finding::{Code, Finding};
    use crate::upjet_client::{Client, LoggedClient};

    /// A Queue with `["Observe","Create","Update","Delete"]` mid-create, as each client shows it.
    fn without_late_init() -> Mr {
        Mr::new("Queue", "orders")
            .api_version("sqs.aws.upbound.io/v1beta1")
            .policies(&["Observe", "Create", "Update", "Delete"])
            .cond("Ready", "False", "Creating", "")
            .cond("Synced", "True", "ReconcileSuccess", "")
    }

    fn late_init(mr: Mr, logged: Option<LoggedClient>) -> Option<Finding> {
        let ev = MrEvidence { client_logged: logged, ..MrEvidence::default() };
        let found = findings_with(&mr.build(), Some(&ev), at());
        found.into_iter().find(|f| f.code == Code::LateInitializeMissing)
    }

    /// upjet's CLI client (`pkg/controller/external.go` `Observe`) writes the critical annotations
    /// with its own update when the policies lack LateInitialize: an MR it runs — its
    /// AsyncOperation condition, or its workspace's `Running terraform` line, shows it — is not
    /// told its name will never be saved. The in-process clients leave the write to the
    /// late-initialization update: told, with what shows it. Neither shown: both said.
    #[test]
    fn the_warning_follows_the_client_upjet_runs() {
        let cli_condition = without_late_init().cond("AsyncOperation", "False", "Ongoing", "");
        assert_eq!(late_init(cli_condition, None), None);
        let running = "2024-11-30T10:57:36Z DEBUG provider-aws Running terraform {\"workspace\": \"/tmp/5a0e7b43\"}";
        let cli_log = LoggedClient { client: Client::TerraformCli, line: running.into() };
        assert_eq!(late_init(without_late_init(), Some(cli_log)), None);

        let tracker = LoggedClient { client: Client::InProcess, line: "Async create starting...".into() };
        let f = late_init(without_late_init(), Some(tracker)).expect("in-process: warned");
        assert!(f.message.contains("will never save") && f.message.contains("in-process"), "{}", f.message);

        let f = late_init(without_late_init(), None).expect("unknown: warned, both said");
        assert!(f.message.contains("upjet's in-process clients (upjet v1 and later) never save"), "{}", f.message);
        assert!(f.message.contains("its Terraform CLI client saves it itself"), "{}", f.message);
        assert!(f.evidence["upjetClient"].starts_with("not shown"), "{:?}", f.evidence);
    }
}
