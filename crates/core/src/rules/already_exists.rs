//! `AlreadyExists`: create keeps failing because the cloud object already exists.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::managed::keys;

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
/// Only a *create* counts: in Terraform-CLI mode updates also run `ApplyAsync` and fail as
/// `ApplyFailure`, and an update hitting "already exists" (a duplicate security-group rule) on an
/// MR that tracks its object is an ordinary update failure, not an orphan. The Synced prefix
/// upjet's callback writes (`create failed` / `update failed`) tells them apart; see
/// [`Facts::failed_async_create`].
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let mr = facts.mr;
    let synced = facts.synced_message().filter(|m| m.starts_with("create failed") && says_already_exists(m));
    let last_async = facts.failed_async_create().map(|c| c.message.as_str()).filter(|m| says_already_exists(m));
    let text = synced.or(last_async)?;
    let f = Finding::new(
        Code::AlreadyExists,
        "create keeps failing because the cloud object already exists: the MR lost track of it and an orphan is likely",
        facts.upjet("history").to_string(),
    )
    .with("error", text)
    .with_opt(keys::EXTERNAL_NAME, mr.external_name());
    Some(facts.with_marks(f))
}

#[cfg(test)]
mod tests {
    // Follows upjet `pkg/controller/api.go` `callbackFn` (Synced wrapped as `create failed` /
    // `update failed`), `pkg/controller/external.go` `Create`/`Update` (CLI mode: both
    // `ApplyAsync`) and `pkg/resource/conditions.go` `LastAsyncOperationCondition`.
    use super::super::cases::*;
    use super::says_already_exists;
    use crate::finding::Code::*;
    use crate::testing::Mr;

    const GCP_409: &str = "create failed: async create failed: failed to create the resource: [{0 Error creating ResourceRecordSet: googleapi: Error 409: The resource 'entity.change.additions[0]' named 'x.example.com. (A)' already exists, alreadyExists  []}]";
    const AWS_EXISTS: &str = "async create failed: failed to create the resource: [{0 creating Secrets Manager Secret: ResourceExistsException: The operation failed because the secret db already exists.  []}]";

    const SG_DUPLICATE: &str = "apply failed: creating Security Group Rule: InvalidPermission.Duplicate: the specified rule \"peer: 10.0.0.0/8, TCP, from port: 443, to port: 443, ALLOW\" already exists";

    const CASES: &[Case] = &[
        (
            "CLI update of an intact MR hits a duplicate rule: not an orphan",
            || {
                base()
                    .cond("Ready", "True", "Available", "")
                    .cond("Synced", "False", "ReconcileError", &format!("update failed: {SG_DUPLICATE}"))
                    .cond("LastAsyncOperation", "False", "ApplyFailure", SG_DUPLICATE)
            },
            &[AsyncFailureMasked, KstatusMisleading],
        ),
        (
            "CLI ApplyFailure, Synced overwritten, external-name saved: an update, not an orphan",
            || base().healthy().cond("LastAsyncOperation", "False", "ApplyFailure", SG_DUPLICATE),
            &[AsyncFailureMasked, KstatusMisleading],
        ),
        (
            "CLI ApplyFailure, Synced overwritten, no external-name: a create",
            || {
                Mr::new("SecurityGroupRule", "r")
                    .cond("Ready", "False", "Creating", "")
                    .cond("Synced", "True", "ReconcileSuccess", "")
                    .cond("LastAsyncOperation", "False", "ApplyFailure", SG_DUPLICATE)
            },
            &[AlreadyExists, AsyncInFlight],
        ),
        (
            "already exists (GCP 409)",
            || {
                base().annotation(P, T1).annotation(F, T1).cond("Ready", "False", "Creating", "").cond(
                    "Synced",
                    "False",
                    "ReconcileError",
                    GCP_409,
                )
            },
            &[AlreadyExists, CreateFailed],
        ),
        (
            "already exists only in LastAsyncOperation (AWS), external-name missing",
            || {
                Mr::new("Secret", "s")
                    .annotation(P, T0)
                    .annotation(S, T0)
                    .cond("Ready", "False", "Unavailable", "")
                    .cond("Synced", "True", "ReconcileSuccess", "")
                    .cond(
                        "LastAsyncOperation",
                        "False",
                        "AsyncCreateFailure",
                        "async create failed: ResourceExistsException: already exists",
                    )
            },
            &[AlreadyExists],
        ),
        (
            "already exists only in LastAsyncOperation (AWS)",
            || {
                base()
                    .annotation(P, T0)
                    .annotation(S, T0)
                    .cond("Ready", "False", "Unavailable", "")
                    .cond("Synced", "True", "ReconcileSuccess", "")
                    .cond("LastAsyncOperation", "False", "AsyncCreateFailure", AWS_EXISTS)
            },
            &[AlreadyExists],
        ),
    ];

    #[test]
    fn table() {
        check_cases(CASES);
    }

    const SAY_IT: &[&str] = &[
        "create failed: EntityAlreadyExists: Role with name x already exists.",
        "googleapi: Error 409: alreadyExists",
        "A resource with the ID \"/subscriptions/..\" already exists - to be managed via Terraform this resource needs to be imported into the State.",
        "creating S3 Bucket: BucketAlreadyOwnedByYou",
        "unexpected status 409 (409 Conflict)",
        "https response error StatusCode: 409, RequestID: x",
        "InvalidGroup.Duplicate: The security group 'sg' already exists",
    ];

    #[test]
    fn already_exists_wordings() {
        for text in SAY_IT {
            assert!(says_already_exists(text), "{text}");
        }
        for text in ["AccessDenied", "status 404", "error 4090 quota", "timeout"] {
            assert!(!says_already_exists(text), "{text}");
        }
    }
}
