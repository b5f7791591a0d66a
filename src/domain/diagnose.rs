//! The diagnoses: pure functions from one MR (plus optional evidence) to findings.
//!
//! Each rule encodes one way crossplane-runtime or upjet loses track of a cloud object, as
//! described in `docs/findings.md`; the rule's comment names the upstream code path it mirrors.

use super::create_marks::CreateMarks;
use super::finding::{Code, Finding};
use super::goduration::parse_go_duration;
use super::kstatus::{self, KStatus};
use super::managed::{ManagedResource, keys};
use super::policies::Policies;

/// The reconciler's exact error text at the create-incomplete gate (`errCreateIncomplete`).
pub const ERR_CREATE_INCOMPLETE: &str = "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed";
/// The Synced message an Observe-only MR gets when its cloud object is missing.
pub const ERR_OBSERVE_NOT_FOUND: &str = "observe failed: external resource does not exist";

/// Everything a rule may look at, computed once per MR.
pub struct Facts<'a> {
    /// The MR.
    pub mr: &'a ManagedResource,
    /// Its create annotations, parsed like crossplane-runtime.
    pub marks: CreateMarks,
    /// Its management policies.
    pub policies: Policies,
    /// Paused by annotation (exactly "true") or by an empty policy list.
    pub paused: bool,
    /// Ready=False/Creating with Synced=True, or AsyncOperation Ongoing: upjet is working on it.
    pub in_flight: bool,
}

impl<'a> Facts<'a> {
    /// Derives the facts of one MR.
    pub fn of(mr: &'a ManagedResource) -> Facts<'a> {
        let policies = Policies::of(mr);
        let paused = mr.annotation(keys::PAUSED) == Some("true") || policies.is_paused();
        let creating = mr.condition("Ready").is_some_and(|c| c.status == "False" && c.reason == "Creating");
        let in_flight =
            (creating && mr.is_true("Synced")) || mr.condition("AsyncOperation").is_some_and(|c| c.reason == "Ongoing");
        Facts { mr, marks: CreateMarks::of(mr), policies, paused, in_flight }
    }

    fn synced_message(&self) -> Option<&str> {
        self.mr.condition("Synced").filter(|c| c.status == "False").map(|c| c.message.as_str())
    }

    fn arg(&self) -> String {
        self.mr.command_arg()
    }

    fn kubectl_target(&self) -> String {
        let r = self.mr.reference().replacen('/', " ", 1);
        match &self.mr.namespace {
            Some(ns) => format!("{r} -n {ns}"),
            None => r,
        }
    }
}

/// Runs every rule over one MR.
pub fn diagnose(mr: &ManagedResource) -> Vec<Finding> {
    let facts = Facts::of(mr);
    RULES.iter().filter_map(|rule| rule(&facts)).collect()
}

type Rule = fn(&Facts) -> Option<Finding>;

const RULES: &[Rule] = &[
    create_incomplete,
    external_name_missing,
    external_name_drift,
    already_exists,
    create_failed,
    async_failure_masked,
    async_in_flight,
    paused,
    observe_not_found,
    kstatus_misleading,
    malformed_annotation,
    late_initialize_missing,
    deletion_blocked_by_pause,
];

fn marks_evidence(f: Finding, facts: &Facts) -> Finding {
    let m = &facts.marks;
    f.with_opt(keys::CREATE_PENDING, m.pending.raw.clone())
        .with_opt(keys::CREATE_SUCCEEDED, m.succeeded.raw.clone())
        .with_opt(keys::CREATE_FAILED, m.failed.raw.clone())
}

/// `meta.ExternalCreateIncomplete` (reconciler.go create-incomplete gate): the reconciler stops
/// with `Requeue: false` until someone resolves the pending annotation.
fn create_incomplete(facts: &Facts) -> Option<Finding> {
    if !facts.marks.incomplete() {
        return None;
    }
    let id = facts.mr.at_provider_id.as_deref();
    let next = match id {
        Some(id) => format!("kubectl upjet adopt {} --id {id} --import", facts.arg()),
        None => format!("kubectl upjet history {}", facts.arg()),
    };
    let f = Finding::new(
        Code::CreateIncomplete,
        format!(
            "create started at {} and no result was recorded; the provider will not touch this MR until the pending annotation is resolved, and a cloud object may exist that nothing tracks",
            facts.marks.pending.raw.as_deref().unwrap_or("?")
        ),
        next,
    );
    Some(marks_evidence(f, facts).with_opt("synced", facts.synced_message().map(str::to_owned)).suggest(id))
}

/// upjet's async create sets the external-name on the live object during a later Observe and
/// relies on the late-init update to persist it (reconciler.go late-init step): when that never
/// happened, the next provider restart creates a duplicate.
fn external_name_missing(facts: &Facts) -> Option<Finding> {
    let mr = facts.mr;
    if mr.external_name().is_some() {
        return None;
    }
    let ready = mr.is_true("Ready");
    let why = if let Some(id) = &mr.at_provider_id {
        format!("status.atProvider.id is {id:?}")
    } else if ready {
        "the MR is Ready".to_string()
    } else if facts.marks.succeeded.is_set() && !facts.in_flight && !async_create_failed(mr) {
        "creation succeeded".to_string()
    } else {
        return None;
    };
    let id = mr.at_provider_id.as_deref();
    let mut message =
        format!("no external-name although {why}; after a provider restart upjet will create a duplicate");
    match id {
        Some(id) => message.push_str(&format!(" (adopt {id:?})")),
        None => message.push_str(" (find the ID with `kubectl upjet history`)"),
    }
    if !facts.policies.should_late_initialize() {
        message.push_str("; managementPolicies lack LateInitialize, so upjet will never save it");
    }
    let next = match id {
        Some(id) if !facts.policies.should_late_initialize() => {
            format!("kubectl upjet adopt {} --id {id} --add-late-initialize", facts.arg())
        }
        Some(id) => format!("kubectl upjet adopt {} --id {id}", facts.arg()),
        None => format!("kubectl upjet history {}", facts.arg()),
    };
    let f = Finding::new(Code::ExternalNameMissing, message, next)
        .with("ready", mr.condition("Ready").map(|c| c.status.clone()).unwrap_or_else(|| "absent".into()))
        .with("managementPolicies", facts.policies.describe())
        .with_opt("status.atProvider.id", id);
    Some(marks_evidence(f, facts).suggest(id))
}

/// upjet's callback recorded that the asynchronous create itself failed, so the
/// `external-create-succeeded` mark (written when the goroutine started) proves nothing.
fn async_create_failed(mr: &ManagedResource) -> bool {
    mr.condition("LastAsyncOperation")
        .is_some_and(|c| c.status == "False" && (c.reason == "AsyncCreateFailure" || c.reason == "ApplyFailure"))
}

/// external-name ≠ `status.atProvider.id`. For the common presets (`NameAsIdentifier`,
/// `IdentifierFromProvider`) the two are equal; templated identifiers embed the external-name in
/// the ID, so an ID that contains the external-name (or the reverse) is not reported.
fn external_name_drift(facts: &Facts) -> Option<Finding> {
    let (name, id) = (facts.mr.external_name()?, facts.mr.at_provider_id.as_deref()?);
    if name == id || id.contains(name) || name.contains(id) {
        return None;
    }
    Some(
        Finding::new(
            Code::ExternalNameDrift,
            format!("external-name {name:?} differs from status.atProvider.id {id:?}: the MR may track a different cloud object than the one it last observed"),
            format!("kubectl upjet history {}", facts.arg()),
        )
        .with(keys::EXTERNAL_NAME, name)
        .with("status.atProvider.id", id)
        .suggest(Some(id)),
    )
}

/// Cloud APIs' ways of saying "it already exists" (AWS, GCP, Azure, generic HTTP 409).
const ALREADY_EXISTS_WORDINGS: &[&str] = &[
    "already exists",
    "alreadyexists",
    "already_exists",
    "resourceexistsexception",
    "bucketalreadyownedbyyou",
    "invalidgroup.duplicate",
    "resourcealreadyexists",
    "statuscode: 409",
    "statuscode=409",
    "status code: 409",
    "status code 409",
    "error 409",
    "http 409",
    "409 conflict",
    "code: 409",
    "code=409",
];

/// Whether an error text says the cloud object already exists.
pub fn says_already_exists(text: &str) -> bool {
    let lower = text.to_lowercase();
    ALREADY_EXISTS_WORDINGS.iter().any(|w| {
        // "409" must not be the start of a longer number such as 4090.
        lower.match_indices(w).any(|(i, m)| {
            !m.ends_with(|c: char| c.is_ascii_digit())
                || !lower[i + m.len()..].starts_with(|c: char| c.is_ascii_digit())
        })
    })
}

/// A create that fails because the object exists means tracking was lost (upjet#305, #632).
fn already_exists(facts: &Facts) -> Option<Finding> {
    let mr = facts.mr;
    let synced = facts.synced_message().filter(|m| m.starts_with("create failed") && says_already_exists(m));
    let last_async = mr
        .condition("LastAsyncOperation")
        .filter(|c| c.status == "False" && (c.reason == "AsyncCreateFailure" || c.reason == "ApplyFailure"))
        .map(|c| c.message.as_str())
        .filter(|m| says_already_exists(m));
    let text = synced.or(last_async)?;
    let f = Finding::new(
        Code::AlreadyExists,
        "create keeps failing because the cloud object already exists: the MR lost track of it and an orphan is likely",
        format!("kubectl upjet history {}", facts.arg()),
    )
    .with("error", text)
    .with_opt(keys::EXTERNAL_NAME, mr.external_name());
    Some(marks_evidence(f, facts))
}

/// The last create attempt failed (failed at or after pending, and after succeeded).
fn create_failed(facts: &Facts) -> Option<Finding> {
    if !facts.marks.last_create_failed() {
        return None;
    }
    let f = Finding::new(
        Code::CreateFailed,
        format!("the last create attempt failed at {}", facts.marks.failed.raw.as_deref().unwrap_or("?")),
        format!("kubectl upjet history {}", facts.arg()),
    )
    .with_opt("synced", facts.synced_message().map(str::to_owned));
    Some(marks_evidence(f, facts))
}

/// upjet's callback records a failure in `LastAsyncOperation`, which a later successful Observe
/// masks by setting Ready=True (upjet PR #594, provider-upjet-azure#684).
fn async_failure_masked(facts: &Facts) -> Option<Finding> {
    let last = facts.mr.condition("LastAsyncOperation").filter(|c| c.status == "False")?;
    if !facts.mr.is_true("Ready") {
        return None;
    }
    Some(
        Finding::new(
            Code::AsyncFailureMasked,
            format!("the last async operation failed ({}) but Ready is True, so the failure is hidden", last.reason),
            format!("kubectl upjet history {}", facts.arg()),
        )
        .with("LastAsyncOperation", format!("{}: {}", last.reason, last.message)),
    )
}

/// While a no-fork async create runs, Observe reports exists+up-to-date, so the MR shows
/// Ready=False/Creating with Synced=True; CLI mode shows AsyncOperation/Ongoing. Adopting now
/// races the goroutine (upjet#722).
fn async_in_flight(facts: &Facts) -> Option<Finding> {
    if !facts.in_flight {
        return None;
    }
    let mut f = Finding::new(
        Code::AsyncInFlight,
        "an asynchronous create or update is probably still running; do not adopt or edit it now",
        format!("kubectl upjet doctor {}", facts.arg()),
    );
    if let Some(c) = facts.mr.condition("AsyncOperation") {
        f = f.with("AsyncOperation", format!("{}/{}", c.status, c.reason));
    }
    if let Some(c) = facts.mr.condition("Ready") {
        f = f.with("ready", format!("{}/{}", c.status, c.reason));
    }
    Some(f)
}

/// `meta.IsPaused || policy.IsPaused` (reconciler.go paused check).
fn paused(facts: &Facts) -> Option<Finding> {
    if !facts.paused {
        return None;
    }
    let by_annotation = facts.mr.annotation(keys::PAUSED) == Some("true");
    let (message, next) = if by_annotation {
        (
            "reconciliation is paused by the crossplane.io/paused annotation",
            format!("kubectl annotate {} crossplane.io/paused-", facts.kubectl_target()),
        )
    } else {
        (
            "reconciliation is paused by an empty spec.managementPolicies",
            format!(
                "kubectl patch {} --type=merge -p '{{\"spec\":{{\"managementPolicies\":[\"*\"]}}}}'",
                facts.kubectl_target()
            ),
        )
    };
    Some(
        Finding::new(Code::Paused, message, next)
            .with_opt(keys::PAUSED, facts.mr.annotation(keys::PAUSED))
            .with("managementPolicies", facts.policies.describe()),
    )
}

/// Observe-only + not found (reconciler.go Observe branch): usually a wrong external-name format.
fn observe_not_found(facts: &Facts) -> Option<Finding> {
    let msg = facts.synced_message().filter(|m| m.contains(ERR_OBSERVE_NOT_FOUND))?;
    Some(
        Finding::new(
            Code::ObserveNotFound,
            "the MR only observes, and no cloud object has its external-name: the external-name is probably wrong or in the wrong format",
            format!("kubectl upjet history {}", facts.arg()),
        )
        .with("synced", msg)
        .with_opt(keys::EXTERNAL_NAME, facts.mr.external_name())
        .with("managementPolicies", facts.policies.describe()),
    )
}

/// kstatus's verdict contradicted by the MR's real state (see [`kstatus::compute`]).
fn kstatus_misleading(facts: &Facts) -> Option<Finding> {
    let mr = facts.mr;
    let verdict = kstatus::compute(mr);
    let ready = mr.condition("Ready");
    let reality = match verdict.status {
        KStatus::Current if ready.is_none() && facts.paused => {
            "the MR is paused and was never reported Ready".to_string()
        }
        KStatus::Current if mr.conditions.is_empty() => {
            "no controller has reported on this MR yet (no conditions): the provider may be down or not installed"
                .to_string()
        }
        KStatus::Current if ready.is_none() => "the MR has no Ready condition yet".to_string(),
        KStatus::Current if mr.is_true("Ready") && mr.is_false("Synced") => format!(
            "Ready is True but Synced is False: {}",
            mr.condition("Synced").map(|c| c.message.as_str()).filter(|m| !m.is_empty()).unwrap_or("reconcile error")
        ),
        KStatus::Current
            if mr.is_true("Ready")
                && matches!((ready.and_then(|c| c.observed_generation), mr.generation), (Some(o), Some(g)) if o < g) =>
        {
            format!(
                "Ready describes generation {} but the spec is at generation {}: the change is not reconciled yet",
                ready.and_then(|c| c.observed_generation).unwrap_or_default(),
                mr.generation.unwrap_or_default()
            )
        }
        KStatus::Current if mr.is_true("Ready") && mr.is_false("LastAsyncOperation") => {
            "Ready is True but the last async operation failed".to_string()
        }
        KStatus::InProgress if facts.marks.incomplete() => {
            "the reconciler stopped at the create-incomplete gate and will not progress on its own".to_string()
        }
        _ => return None,
    };
    Some(
        Finding::new(
            Code::KstatusMisleading,
            format!("kstatus (Flux, Argo CD) reports {}, yet {reality}", verdict.status),
            format!("kubectl upjet doctor {}", facts.arg()),
        )
        .with("kstatus", format!("{}: {}", verdict.status, verdict.message)),
    )
}

/// Values crossplane-runtime silently ignores or misreads.
fn malformed_annotation(facts: &Facts) -> Option<Finding> {
    let mr = facts.mr;
    let mut problems: Vec<(String, String)> = Vec::new();
    for mark in [&facts.marks.pending, &facts.marks.succeeded, &facts.marks.failed] {
        if mark.is_malformed() {
            problems.push((
                mark.key.to_string(),
                format!("{:?} is not RFC3339; crossplane reads it as the zero time", mark.raw.as_deref().unwrap_or("")),
            ));
        }
    }
    if let Some(v) = mr.annotation(keys::PAUSED)
        && v != "true"
        && v != "false"
    {
        problems.push((keys::PAUSED.to_string(), format!("{v:?} does not pause; only the exact value \"true\" does")));
    }
    if let Some(v) = mr.annotation(keys::POLL_INTERVAL) {
        match parse_go_duration(v) {
            Some(ns) if ns > 0 => {}
            Some(_) => problems
                .push((keys::POLL_INTERVAL.to_string(), format!("{v:?} is not a positive duration; it is ignored"))),
            None => problems.push((
                keys::POLL_INTERVAL.to_string(),
                format!("{v:?} is not a Go duration (e.g. \"5m\"); it is ignored"),
            )),
        }
    }
    if problems.is_empty() {
        return None;
    }
    let first_key = problems[0].0.clone();
    let keys_list: Vec<&str> = problems.iter().map(|(k, _)| k.as_str()).collect();
    let message = format!(
        "{} hold{} a value crossplane ignores or misreads",
        keys_list.join(", "),
        if problems.len() == 1 { "s" } else { "" }
    );
    let next = format!("kubectl annotate {} {}-", facts.kubectl_target(), first_key);
    let mut f = Finding::new(Code::MalformedAnnotation, message, next);
    for (k, why) in problems {
        f = f.with(&k, why);
    }
    Some(f)
}

/// Without LateInitialize (or `*`), upjet never persists an external-name it learns after an
/// async create (reconciler.go late-init step; crossplane#5918). It matters while the identity is
/// not yet durable: no external-name, or not yet confirmed Ready.
fn late_initialize_missing(facts: &Facts) -> Option<Finding> {
    let mr = facts.mr;
    if facts.policies.listed.is_none()
        || facts.policies.is_paused()
        || facts.policies.should_late_initialize()
        || !facts.policies.should_create()
    {
        return None;
    }
    if mr.external_name().is_some() && mr.is_true("Ready") {
        return None;
    }
    Some(
        Finding::new(
            Code::LateInitializeMissing,
            "managementPolicies lack LateInitialize and \"*\", so upjet will never save an external-name learned after an async create; a restart then creates a duplicate",
            format!(
                "kubectl patch {} --type=json -p '[{{\"op\":\"add\",\"path\":\"/spec/managementPolicies/-\",\"value\":\"LateInitialize\"}}]'",
                facts.kubectl_target()
            ),
        )
        .with("managementPolicies", facts.policies.describe())
        .with_opt(keys::EXTERNAL_NAME, mr.external_name()),
    )
}

/// A paused MR keeps its finalizer, so deleting it hangs forever (crossplane docs, "Paused").
fn deletion_blocked_by_pause(facts: &Facts) -> Option<Finding> {
    let deleted_at = facts.mr.deletion_timestamp.as_deref()?;
    if !facts.paused {
        return None;
    }
    Some(
        Finding::new(
            Code::DeletionBlockedByPause,
            "the MR is being deleted but is paused, so the provider will never remove its finalizer",
            format!("kubectl annotate {} crossplane.io/paused-", facts.kubectl_target()),
        )
        .with("deletionTimestamp", deleted_at),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::testing::Mr;

    const P: &str = keys::CREATE_PENDING;
    const S: &str = keys::CREATE_SUCCEEDED;
    const F: &str = keys::CREATE_FAILED;
    const T0: &str = "2024-11-30T10:53:06Z";
    const T1: &str = "2024-11-30T10:53:07Z";

    fn codes(mr: &Mr) -> Vec<Code> {
        let mut c: Vec<Code> = diagnose(&mr.build()).into_iter().map(|f| f.code).collect();
        c.sort();
        c
    }

    #[test]
    fn table() {
        use Code::*;
        let base = || Mr::new("RecordSet", "rs").external_name("rs").at_provider_id("rs");
        let cases: Vec<(&str, Mr, Vec<Code>)> = vec![
            ("healthy", base().healthy().annotation(P, T0).annotation(S, T0), vec![]),
            ("healthy, no marks, default policies", base().healthy(), vec![]),
            (
                "create incomplete (provider died)",
                base().annotation(P, T1).annotation(S, T0)
                    .cond("Ready", "False", "Creating", "")
                    .cond("Synced", "False", "ReconcileError", ERR_CREATE_INCOMPLETE),
                vec![CreateIncomplete, KstatusMisleading],
            ),
            (
                "pending equal to succeeded is complete",
                base().healthy().annotation(P, T0).annotation(S, "2024-11-30T11:53:06+01:00"),
                vec![],
            ),
            (
                "external-name missing, Ready, id known, no LateInitialize",
                Mr::new("Key", "k").at_provider_id("mrk-123").annotation(P, T0).annotation(S, T0).healthy()
                    .policies(&["Observe", "Create", "Update", "Delete"]),
                vec![ExternalNameMissing, LateInitializeMissing],
            ),
            (
                "external-name missing, only succeeded, not in flight",
                Mr::new("Key", "k").annotation(P, T0).annotation(S, T0).cond("Ready", "False", "Unavailable", "")
                    .cond("Synced", "True", "ReconcileSuccess", ""),
                vec![ExternalNameMissing],
            ),
            (
                "external-name missing while async create is running",
                Mr::new("Key", "k").annotation(P, T0).annotation(S, T0).cond("Ready", "False", "Creating", "")
                    .cond("Synced", "True", "ReconcileSuccess", ""),
                vec![AsyncInFlight],
            ),
            ("new MR, nothing yet", Mr::new("Key", "k").no_status(), vec![KstatusMisleading]),
            (
                "external-name empty string counts as missing",
                Mr::new("Key", "k").external_name("").at_provider_id("mrk-1").healthy(),
                vec![ExternalNameMissing],
            ),
            (
                "drift",
                base().external_name("vpc-1").at_provider_id("vpc-2").healthy(),
                vec![ExternalNameDrift],
            ),
            (
                "templated identifier is not drift",
                base().external_name("www").at_provider_id("Z123_www_A").healthy(),
                vec![],
            ),
            (
                "already exists (GCP 409)",
                base().annotation(P, T1).annotation(F, T1)
                    .cond("Ready", "False", "Creating", "")
                    .cond("Synced", "False", "ReconcileError", "create failed: async create failed: failed to create the resource: [{0 Error creating ResourceRecordSet: googleapi: Error 409: The resource 'entity.change.additions[0]' named 'x.example.com. (A)' already exists, alreadyExists  []}]"),
                vec![AlreadyExists, CreateFailed],
            ),
            (
                "already exists only in LastAsyncOperation (AWS), external-name missing",
                Mr::new("Secret", "s").annotation(P, T0).annotation(S, T0)
                    .cond("Ready", "False", "Unavailable", "")
                    .cond("Synced", "True", "ReconcileSuccess", "")
                    .cond("LastAsyncOperation", "False", "AsyncCreateFailure", "async create failed: ResourceExistsException: already exists"),
                vec![AlreadyExists],
            ),
            (
                "already exists only in LastAsyncOperation (AWS)",
                base().annotation(P, T0).annotation(S, T0)
                    .cond("Ready", "False", "Unavailable", "")
                    .cond("Synced", "True", "ReconcileSuccess", "")
                    .cond("LastAsyncOperation", "False", "AsyncCreateFailure", "async create failed: failed to create the resource: [{0 creating Secrets Manager Secret: ResourceExistsException: The operation failed because the secret db already exists.  []}]"),
                vec![AlreadyExists],
            ),
            (
                "create failed, other reason",
                base().annotation(P, T0).annotation(F, T1)
                    .cond("Ready", "False", "Creating", "").cond("Synced", "False", "ReconcileError", "create failed: AccessDenied"),
                vec![CreateFailed],
            ),
            (
                "failed before a later successful create",
                base().healthy().annotation(P, T1).annotation(F, T0).annotation(S, T1),
                vec![],
            ),
            (
                "async failure masked",
                base().healthy().cond("LastAsyncOperation", "False", "AsyncUpdateFailure", "async update failed: boom"),
                vec![AsyncFailureMasked, KstatusMisleading],
            ),
            (
                "CLI async in flight",
                base().cond("Ready", "True", "Available", "").cond("Synced", "True", "ReconcileSuccess", "")
                    .cond("AsyncOperation", "False", "Ongoing", ""),
                vec![AsyncInFlight],
            ),
            (
                "paused by annotation, never Ready",
                base().annotation(keys::PAUSED, "true").cond("Synced", "False", "ReconcilePaused", ""),
                vec![Paused, KstatusMisleading],
            ),
            ("paused by empty policies", base().healthy().policies(&[]), vec![Paused]),
            (
                "paused and deleting",
                base().healthy().annotation(keys::PAUSED, "true").deleting(),
                vec![Paused, DeletionBlockedByPause],
            ),
            (
                "paused value True is malformed, not paused",
                base().healthy().annotation(keys::PAUSED, "True"),
                vec![MalformedAnnotation],
            ),
            ("paused false is fine", base().healthy().annotation(keys::PAUSED, "false"), vec![]),
            (
                "observe-only not found",
                base().policies(&["Observe"]).cond("Ready", "False", "Unavailable", "")
                    .cond("Synced", "False", "ReconcileError", "observe failed: external resource does not exist"),
                vec![ObserveNotFound],
            ),
            (
                "Ready True Synced False",
                base().cond("Ready", "True", "Available", "").cond("Synced", "False", "ReconcileError", "update failed: boom"),
                vec![KstatusMisleading],
            ),
            (
                "Ready describes an older generation",
                base().generation(4).cond_gen("Ready", "True", "Available", 3).cond_gen("Synced", "True", "ReconcileSuccess", 3),
                vec![KstatusMisleading],
            ),
            (
                "status.observedGeneration present makes kstatus right",
                base().generation(4).status_observed_generation(3).cond_gen("Ready", "True", "Available", 3),
                vec![],
            ),
            (
                "malformed create marks and poll interval",
                base().healthy().annotation(P, "2024-11-30 10:53:06").annotation(keys::POLL_INTERVAL, "5 minutes"),
                vec![MalformedAnnotation],
            ),
            ("zero poll interval", base().healthy().annotation(keys::POLL_INTERVAL, "0s"), vec![MalformedAnnotation]),
            ("good poll interval", base().healthy().annotation(keys::POLL_INTERVAL, "10m"), vec![]),
            (
                "LateInitialize missing on a fresh MR",
                Mr::new("Vpc", "v").policies(&["Observe", "Create", "Update", "Delete"])
                    .cond("Ready", "False", "Unavailable", "").cond("Synced", "True", "ReconcileSuccess", ""),
                vec![LateInitializeMissing],
            ),
            (
                "LateInitialize missing but identity durable",
                base().healthy().policies(&["Observe", "Create", "Update", "Delete"]),
                vec![],
            ),
            (
                "observe-only does not need LateInitialize",
                Mr::new("Vpc", "v").policies(&["Observe"]).cond("Ready", "False", "Unavailable", "")
                    .cond("Synced", "True", "ReconcileSuccess", ""),
                vec![],
            ),
            ("deleting, not paused", base().healthy().deleting(), vec![]),
        ];
        for (name, mr, mut want) in cases {
            want.sort();
            assert_eq!(codes(&mr), want, "case: {name}");
        }
    }

    #[test]
    fn findings_carry_evidence_next_and_suggestion() {
        let mr = Mr::new("Key", "k")
            .at_provider_id("mrk-123")
            .annotation(S, T0)
            .healthy()
            .policies(&["Observe", "Create"])
            .namespace("team-a")
            .api_version("kms.aws.m.upbound.io/v1beta1")
            .build();
        let f = diagnose(&mr).into_iter().find(|f| f.code == Code::ExternalNameMissing).unwrap();
        assert_eq!(f.suggested_id.as_deref(), Some("mrk-123"));
        assert_eq!(
            f.next,
            "kubectl upjet adopt key.kms.aws.m.upbound.io/k -n team-a --id mrk-123 --add-late-initialize"
        );
        assert!(f.message.contains("\"mrk-123\""), "{}", f.message);
        assert_eq!(f.evidence.get(S).map(String::as_str), Some(T0));

        let paused = Mr::new("Vpc", "v").annotation(keys::PAUSED, "true").build();
        let f = diagnose(&paused).into_iter().find(|f| f.code == Code::Paused).unwrap();
        assert_eq!(f.next, "kubectl annotate vpc.dns.gcp.upbound.io v crossplane.io/paused-");
    }

    #[test]
    fn already_exists_wordings() {
        for text in [
            "create failed: EntityAlreadyExists: Role with name x already exists.",
            "googleapi: Error 409: alreadyExists",
            "A resource with the ID \"/subscriptions/..\" already exists - to be managed via Terraform this resource needs to be imported into the State.",
            "creating S3 Bucket: BucketAlreadyOwnedByYou",
            "unexpected status 409 (409 Conflict)",
            "https response error StatusCode: 409, RequestID: x",
            "InvalidGroup.Duplicate: The security group 'sg' already exists",
        ] {
            assert!(says_already_exists(text), "{text}");
        }
        for text in ["AccessDenied", "status 404", "error 4090 quota", "timeout"] {
            assert!(!says_already_exists(text), "{text}");
        }
    }
}
