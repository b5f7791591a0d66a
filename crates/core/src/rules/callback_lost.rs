//! `CallbackLost`: the status update after an async create failed, so the MR's status may be stale.

use super::facts::Facts;
use crate::finding::{Code, Finding};

/// upjet's async create callback could not write the result to the MR (upjet
/// pkg/controller/external_nofork.go, `Async create callback failed`): the conditions and any
/// external-name the create produced may never have been recorded (upjet#632).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let cb = facts.evidence?.callback_failure.as_ref()?;
    Some(
        Finding::new(
            Code::CallbackLost,
            "the provider could not write the result of an async create (callback failed): the MR's status and conditions may be stale",
            facts.upjet("history").to_string(),
        )
        .with_opt("error", cb.error.clone())
        .with("log", cb.source.clone()),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::at;
    use super::super::{CallbackFailure, Facts, MrEvidence};
    use crate::testing::Mr;

    #[test]
    fn reports_the_logged_error() {
        let mr = Mr::new("Key", "k").external_name("k").build();
        let cb = CallbackFailure { error: Some("cannot update status".into()), source: "line".into() };
        let ev = MrEvidence { callback_failure: Some(cb), ..MrEvidence::default() };
        let f = super::check(&Facts::with_evidence(&mr, Some(&ev), at())).unwrap();
        assert_eq!((f.evidence["error"].as_str(), f.evidence["log"].as_str()), ("cannot update status", "line"));
        assert!(super::check(&Facts::with_evidence(&mr, Some(&MrEvidence::default()), at())).is_none());
    }
}
