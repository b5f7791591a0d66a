//! Placeholder external-names across the rule book: an MR whose external-name is a provider's stub
//! is judged as having none, every finding says it holds a placeholder, and no finding suggests a
//! stub. Follows provider-upjet-aws `config/externalname.go` `identifierFromProviderWithDefaultStub`
//! (the stub is the Terraform ID while the external-name is empty; a failed create can save it as
//! the external-name, provider-upjet-aws PR #2233).

use super::PLACEHOLDER;
use super::cases::{F, P, S, T0, T1, at, check_cases};
use crate::finding::Code::{self, *};
use crate::rules::diagnose;
use crate::testing::Mr;

fn agent() -> Mr {
    Mr::new("Agent", "support-bot").api_version("bedrockagent.aws.m.upbound.io/v1beta1").namespace("team-a")
}

const CASES: &[super::cases::Case] = &[
    (
        "Ready with the real ID observed: the stub is no external-name",
        || agent().external_name("STUB123456").at_provider_id("AGT0123456").healthy(),
        &[ExternalNameMissing],
    ),
    (
        "drift against a stub is not drift",
        || {
            Mr::new("SecurityGroupIngressRule", "r")
                .external_name("sgr-stub")
                .at_provider_id("sgr-0123456789abcdef0")
                .healthy()
        },
        &[ExternalNameMissing],
    ),
    (
        "create failed after the stub was saved from the partial state",
        || {
            agent().external_name("STUB123456").at_provider_id("STUB123456").annotation(P, T0).annotation(F, T1).cond(
                "Synced",
                "False",
                "ReconcileError",
                "create failed: async create failed: failed to create the resource: AccessDeniedException",
            )
        },
        &[CreateFailed, KstatusMisleading],
    ),
    (
        "a real ID that merely contains a stub is a real ID",
        || {
            Mr::new("SecurityGroupIngressRule", "r")
                .external_name("sgr-stub0123")
                .at_provider_id("sgr-stub0123")
                .healthy()
        },
        &[],
    ),
    (
        "create succeeded, stub kept, not in flight: the object may exist untracked",
        || {
            agent()
                .external_name("STUB123456")
                .annotation(P, T0)
                .annotation(S, T0)
                .cond("Ready", "False", "Unavailable", "")
                .cond("Synced", "True", "ReconcileSuccess", "")
        },
        &[ExternalNameMissing],
    ),
];

#[test]
fn table() {
    check_cases(CASES);
}

#[test]
fn findings_name_the_placeholder_and_never_suggest_it() {
    for (name, mr, _) in CASES.iter().filter(|(n, _, _)| !n.starts_with("a real ID")) {
        for f in diagnose(&mr().build(), at()) {
            let said = f.evidence.get(PLACEHOLDER).map(String::as_str).unwrap_or_default();
            assert!(said.contains("is a placeholder, not a cloud ID"), "{name}: {:?} lacks the evidence", f.code);
            assert!(!f.suggested_id.as_deref().is_some_and(crate::placeholder::is_placeholder), "{name}");
        }
    }
}

#[test]
fn the_missing_external_name_says_it_holds_only_a_placeholder() {
    let mr = agent().external_name("STUB123456").at_provider_id("AGT0123456").healthy().build();
    let f = diagnose(&mr, at()).into_iter().find(|f| f.code == Code::ExternalNameMissing).unwrap();
    assert!(f.message.starts_with("no external-name (only the placeholder \"STUB123456\""), "{}", f.message);
    assert_eq!(f.suggested_id.as_deref(), Some("AGT0123456"));
    let stub_everywhere = agent().external_name("STUB123456").at_provider_id("STUB123456").healthy().build();
    assert_eq!(stub_everywhere.at_provider_id, None, "a stub in status.atProvider.id is no ID either");
    let f = diagnose(&stub_everywhere, at()).into_iter().find(|f| f.code == Code::ExternalNameMissing).unwrap();
    assert_eq!(f.suggested_id, None);
}
