//! What a rule may look at for one MR, computed once so that no rule re-derives it.

use super::mr_evidence::MrEvidence;
use crate::create_marks::CreateMarks;
use crate::finding::Finding;
use crate::gotime::GoTime;
use crate::managed::{Condition, ManagedResource, keys};
use crate::policies::{ManagementPolicies, Policies};
use crate::reconcile_timeout::{JudgedAt, PendingCreate, ReconcileTimeout};
use crate::shell::ShellCommand;
use crate::upjet_client::UpjetClient;

pub use crate::create_marks::ASYNC_TIMEOUT_SECS;

/// Everything a rule may look at, computed once per MR: the object's own state plus whatever
/// evidence (provider logs, provider restarts) was gathered for it.
pub struct Facts<'a> {
    /// The MR.
    pub mr: &'a ManagedResource,
    /// Its create annotations, parsed like crossplane-runtime.
    pub marks: CreateMarks,
    /// Its management policies.
    pub policies: Policies,
    /// What the reconciler makes of them (`ManagementPoliciesResolver`, management policies on).
    pub management: ManagementPolicies,
    /// Paused by annotation (exactly "true") or by an empty policy list.
    pub paused: bool,
    /// When the judgement is made (`Settings::now`): rules never read the clock.
    pub now: GoTime,
    /// How long the provider's reconciler gives one reconcile (`--create-timeout`).
    pub reconcile_timeout: ReconcileTimeout,
    /// Whether a create without a result may still be running or is stuck at the gate.
    pub pending_create: PendingCreate,
    /// Ready=False/Creating with Synced=True, or AsyncOperation Ongoing, upjet's one-hour
    /// deadline may not have passed yet, and the provider has not restarted since the operation
    /// started at the latest: upjet is probably working on it.
    pub in_flight: bool,
    /// The same signs of a running operation, but the provider (re)started after even the latest
    /// time it can have started: that start. upjet runs the operation in a goroutine of the
    /// process (its workspace or its tracker in memory), so it ended with that process, and
    /// whatever it made is recorded nowhere.
    pub ended_by_restart: Option<GoTime>,
    /// The same signs of a running operation, but even the latest time it can have started is
    /// more than [`ASYNC_TIMEOUT_SECS`] before `now`: that time. upjet's goroutine has either been
    /// cancelled by its deadline or died with its pod, and nothing will finish the operation.
    pub past_deadline: Option<GoTime>,
    /// Which of upjet's clients reconciles the MR, as far as the MR, its provider's log and
    /// package show (`domain::upjet_client`): whether an external-name learned after an async
    /// create is saved without `LateInitialize`.
    pub upjet: UpjetClient,
    /// Evidence beyond the object, when any was gathered (logs read or provider starts known).
    pub evidence: Option<&'a MrEvidence>,
}

impl<'a> Facts<'a> {
    /// Derives the facts of one MR from the object alone, judged at `at`.
    pub fn of(mr: &'a ManagedResource, at: JudgedAt) -> Facts<'a> {
        Facts::with_evidence(mr, None, at)
    }

    /// Derives the facts of one MR, judged at `at`, and attaches the evidence gathered for it.
    pub fn with_evidence(mr: &'a ManagedResource, evidence: Option<&'a MrEvidence>, at: JudgedAt) -> Facts<'a> {
        let now = at.now;
        let policies = Policies::of(mr);
        let paused = mr.annotation(keys::PAUSED) == Some("true") || policies.is_paused();
        let marks = CreateMarks::of(mr);
        let latest_start = latest_possible_start(mr, &marks);
        let past_deadline = latest_start.filter(|start| start.add_secs(ASYNC_TIMEOUT_SECS).before(&now));
        let restarted = evidence.map(MrEvidence::provider_started).unwrap_or_default();
        let ended_by_restart = latest_start
            .filter(|_| past_deadline.is_none())
            .and_then(|start| restarted.iter().filter(|r| r.after(&start)).min().copied());
        let in_flight = shown_running(mr) && past_deadline.is_none() && ended_by_restart.is_none();
        let management = ManagementPolicies::of(mr);
        let pending_create = PendingCreate::of(mr, &marks, &restarted, at);
        let package = evidence.and_then(|e| e.provider_starts.as_ref()).and_then(|s| s.package.as_deref());
        let upjet = UpjetClient::of(mr, evidence.and_then(|e| e.client_logged.as_ref()), package);
        Facts {
            mr,
            marks,
            policies,
            management,
            paused,
            now,
            reconcile_timeout: at.reconcile_timeout,
            pending_create,
            in_flight,
            ended_by_restart,
            past_deadline,
            upjet,
            evidence,
        }
    }

    /// The condition recording that upjet's last asynchronous *create* failed, if it does.
    ///
    /// upjet's callback (`pkg/controller/api.go` `callbackFn`) writes `LastAsyncOperation=False`
    /// and wraps the error in Synced as `create failed: …` or `update failed: …`. No-fork
    /// providers name the operation in the reason (`AsyncCreateFailure`); older upjet wrote those
    /// failures under a condition of type `Unknown` whose message starts `async create failed`.
    /// In Terraform-CLI mode creates and updates both run `ApplyAsync` and fail as `ApplyFailure`,
    /// so only the Synced prefix tells them apart; with no such prefix an `ApplyFailure` counts as
    /// a create only while no external-name is saved.
    pub(crate) fn failed_async_create(&self) -> Option<&'a Condition> {
        let mr = self.mr;
        let synced = mr.condition("Synced").map(|c| c.message.as_str()).unwrap_or("");
        let cli_create = synced.starts_with("create failed")
            || (!synced.starts_with("update failed") && mr.external_name().is_none());
        let last = mr.condition("LastAsyncOperation").filter(|c| c.status == "False");
        let legacy = mr.condition("Unknown").filter(|c| c.status == "False");
        last.filter(|c| c.reason == "AsyncCreateFailure" || (c.reason == "ApplyFailure" && cli_create))
            .or_else(|| legacy.filter(|c| c.message.starts_with("async create failed")))
    }

    /// Why a create of this MR may still be running, when one may: an async create the MR shows
    /// as running (not Ready, within upjet's deadline, no restart since), or a create whose
    /// pending mark is younger than the reconcile that wrote it may take
    /// ([`PendingCreate::InFlight`]). The cloud object exists before the create ends, and the
    /// MR records its ID only then: an object made for it meanwhile is the one being created.
    pub(crate) fn create_running(&self) -> Option<String> {
        if let PendingCreate::InFlight { due } = self.pending_create {
            let pending = self.marks.pending.raw.as_deref().unwrap_or("?");
            return Some(format!("a create started at {pending} may record its result until {due}"));
        }
        if !self.in_flight || self.mr.is_true("Ready") {
            return None;
        }
        let shown = ["Ready", "AsyncOperation"]
            .into_iter()
            .filter_map(|t| self.mr.condition(t).map(|c| format!("{t}={}/{}", c.status, c.reason)))
            .collect::<Vec<_>>()
            .join(", ");
        let start = latest_possible_start(self.mr, &self.marks);
        let until = start.map(|s| format!(", upjet's deadline {}", s.add_secs(ASYNC_TIMEOUT_SECS))).unwrap_or_default();
        Some(format!("its async create shows as running ({shown}{until}, no provider restart seen since)"))
    }

    /// The Synced condition's message when Synced is False.
    pub(super) fn synced_message(&self) -> Option<&str> {
        self.mr.condition("Synced").filter(|c| c.status == "False").map(|c| c.message.as_str())
    }

    /// `kubectl upjet SUBCOMMAND` on this MR (`kind.group/name [-n ns]`), each word quoted as
    /// it needs.
    pub(super) fn upjet(&self, subcommand: &'static str) -> ShellCommand {
        self.mr.upjet_command(subcommand)
    }

    /// `kubectl VERB` on this MR as plain kubectl takes it (`kind.group name [-n ns]`).
    pub(super) fn kubectl(&self, verb: &'static str) -> ShellCommand {
        self.mr.kubectl_command(verb)
    }

    /// Adds the three create annotations, as written, to a finding's evidence.
    pub(super) fn with_marks(&self, f: Finding) -> Finding {
        let m = &self.marks;
        f.with_opt(keys::CREATE_PENDING, m.pending.raw.clone())
            .with_opt(keys::CREATE_SUCCEEDED, m.succeeded.raw.clone())
            .with_opt(keys::CREATE_FAILED, m.failed.raw.clone())
    }
}

/// Ready=False/Creating with Synced=True (the reconciler's mark after a Create that returned nil,
/// while the no-fork goroutine runs), or AsyncOperation=Ongoing (CLI mode's Observe while
/// `terraform apply` runs).
fn shown_running(mr: &ManagedResource) -> bool {
    let creating = mr.condition("Ready").is_some_and(|c| c.status == "False" && c.reason == "Creating");
    (creating && mr.is_true("Synced")) || mr.condition("AsyncOperation").is_some_and(|c| c.reason == "Ongoing")
}

/// The latest time the operation the MR shows as running can have started, or `None` when it
/// shows none or nothing on it dates one.
///
/// upjet keeps the start only in memory (`Operation.MarkStart`), so the MR offers upper bounds:
/// the create marks (pending is written just before Create, succeeded or failed just after it
/// returns; a retry returning upjet's cached error writes failed while a new goroutine runs),
/// and the `lastTransitionTime` of Ready=Creating and Synced=True (written after Create
/// returned) and of AsyncOperation=Ongoing (written by an Observe that found it running). Any
/// later transition only moves the bound later, so all three conditions count. The latest of
/// them is the safe bound: the operation is past its deadline only when even that time is more
/// than an hour before now.
fn latest_possible_start(mr: &ManagedResource, marks: &CreateMarks) -> Option<GoTime> {
    if !shown_running(mr) {
        return None;
    }
    let ltt = |c: &Condition| c.last_transition_time.as_deref().and_then(GoTime::parse_rfc3339);
    let conditions = ["Ready", "Synced", "AsyncOperation"].into_iter().filter_map(|t| mr.condition(t));
    let marks = [&marks.pending, &marks.succeeded, &marks.failed].into_iter().filter(|m| m.is_set()).map(|m| m.at);
    conditions.filter_map(ltt).chain(marks).max()
}
