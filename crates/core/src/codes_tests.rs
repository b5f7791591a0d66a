//! The code table's own checks: every row documented where it says, and the lists derived
//! from the rows.

use super::*;

/// A page under `docs/`.
fn docs_page(page: &str) -> String {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs").join(page);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn every_code_is_documented_where_its_row_says_with_its_severity() {
    let mut wrong = Vec::new();
    for code in Code::ALL {
        let Some((page, anchor)) = code.properties().docs.split_once('#') else {
            wrong.push(format!("{code}: docs {:?} is not PAGE#ANCHOR", code.properties().docs));
            continue;
        };
        // The anchor sits on the code's own table row, whose next column is its severity.
        let entry = format!("| <a id=\"{anchor}\"></a>`{code}` | {}", code.severity());
        if !docs_page(page).lines().any(|line| line.starts_with(&entry)) {
            wrong.push(format!("{code}: docs/{page} has no row starting {entry:?}"));
        }
    }
    assert!(wrong.is_empty(), "codes whose documentation is missing:\n{}", wrong.join("\n"));
}

#[test]
fn anchors_are_unique_and_named_after_their_code() {
    let mut seen = std::collections::BTreeSet::new();
    for code in Code::ALL {
        let anchor = code.properties().docs.split_once('#').map(|(_, a)| a).unwrap_or_default();
        assert_eq!(anchor, code.as_str().to_ascii_lowercase(), "{code}");
        assert!(seen.insert(anchor), "{code}: anchor {anchor} used twice");
    }
}

#[test]
fn derived_lists_read_the_rows() {
    use Code::*;
    let of = |matches: fn(&Properties) -> bool| Code::with(matches).collect::<Vec<_>>();
    assert_eq!(
        of(|p| p.highlight == Highlight::Create),
        [CreateIncomplete, CreateInFlight, ProviderRestartedDuringCreate, AsyncCreateRace, CreateAfterStateRebuild],
        "history words the create findings first, in code order"
    );
    assert_eq!(of(|p| p.lost == Lost::Search), [ExternalNameMissing, AlreadyExists, OrphanCandidate]);
    assert_eq!(of(|p| p.family == Family::Backup).len(), 4);
    assert_eq!(
        of(|p| p.lint && p.family != Family::Manifest),
        [
            Paused,
            MalformedAnnotation,
            PollIntervalTooShort,
            LateInitializeMissing,
            UnsupportedManagementPolicies,
            ExternalNameShared
        ],
        "the live rules a lint runs"
    );
    assert!(Code::with(|p| p.family == Family::Manifest).all(Code::lint), "a lint runs every lint code");
    for code in Code::ALL {
        let worded = code.create_highlight().is_some();
        assert_eq!(worded, code.highlight() == Highlight::Create, "{code}: its own wording in history");
    }
    assert!(Code::ALL.iter().all(|c| c.id_confidence() != Confidence::Low), "a code's own ID is never a guess");
    assert_eq!("cloudauditorphan".parse::<Code>(), Ok(CloudAuditOrphan));
    assert!(
        "Nope"
            .parse::<Code>()
            .unwrap_err()
            .contains("known codes: CreateIncomplete, CreateInFlight, ExternalNameMissing")
    );
}
