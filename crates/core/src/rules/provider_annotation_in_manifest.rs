//! `ProviderAnnotationInManifest` (lint): a manifest carries an annotation its provider writes.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::managed::keys::WRITTEN_BY_PROVIDER;

/// upjet writes `internal.upjet.crossplane.io/field-conversions` (v2.3.0: the conversion webhook
/// and the controller keep there, as JSON, the field values one API version of the kind cannot
/// hold, and the controller merges its `spec.forProvider`/`spec.initProvider` entries into the
/// Terraform parameters whenever they differ from the spec — upjet
/// `pkg/controller/annotation_conversions.go` `mergeAnnotationFieldsWithSpec`) and
/// `upjet.crossplane.io/provider-meta` (Terraform's private state). Neither is the user's: copied
/// into Git from `kubectl get -o yaml`, each is applied again at every sync over what the
/// provider wrote since. `domain::lint` finds them; this rule words them.
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let found = &facts.evidence?.desired.as_ref()?.provider_annotations;
    let first = found.first()?;
    let what = WRITTEN_BY_PROVIDER.iter().find(|(k, _)| k == first).map_or("", |(_, what)| *what);
    let more = match found.len() {
        1 => String::new(),
        n => format!(" (and {} more: {})", n - 1, found[1..].join(", ")),
    };
    Some(
        Finding::new(
            Code::ProviderAnnotationInManifest,
            format!("metadata.annotations holds {first}{more}, which the provider writes, not the user: {what}"),
            "delete the annotation from the manifest (the provider writes its own)",
        )
        .with("annotations", found.join(", ")),
    )
}

#[cfg(test)]
mod tests {
    use super::super::cases::at;
    use super::super::facts::Facts;
    use super::super::mr_evidence::{DesiredFacts, MrEvidence};
    use crate::lint::{Manifest, facts};
    use crate::managed::keys;
    use crate::testing::Mr;

    /// What a manifest exported from a cluster carries, and what only its author wrote.
    #[test]
    fn table() {
        let conversions = r#"{"spec.forProvider.newField":"old"}"#;
        for (case, mr, words) in [
            (
                "upjet's conversion record",
                Mr::new("Vpc", "a").annotation(keys::FIELD_CONVERSIONS, conversions),
                Some(keys::FIELD_CONVERSIONS),
            ),
            (
                "Terraform's private state",
                Mr::new("Vpc", "a").annotation(keys::PROVIDER_META, "{}"),
                Some(keys::PROVIDER_META),
            ),
            (
                "both, the first named",
                Mr::new("Vpc", "a").annotation(keys::PROVIDER_META, "{}").annotation(keys::FIELD_CONVERSIONS, "{}"),
                Some("(and 1 more: upjet.crossplane.io/provider-meta)"),
            ),
            ("the user's own annotations", Mr::new("Vpc", "a").external_name("vpc-1").annotation("team", "net"), None),
            ("a look-alike key", Mr::new("Vpc", "a").annotation("internal.upjet.crossplane.io/other", "{}"), None),
        ] {
            let set: Vec<Manifest> = vec![mr.manifest(&[])];
            let (_, desired) = facts(&set).remove(0);
            let evidence = MrEvidence { desired: Some(desired), ..Default::default() };
            let got = super::check(&Facts::with_evidence(&set[0].mr, Some(&evidence), at()));
            match (words, got) {
                (Some(words), Some(f)) => assert!(f.message.contains(words), "{case}: {}", f.message),
                (None, None) => {}
                (want, got) => panic!("{case}: wanted {want:?}, got {got:?}"),
            }
        }
        let none = MrEvidence { desired: Some(DesiredFacts::default()), ..Default::default() };
        assert!(super::check(&Facts::with_evidence(&Mr::new("Vpc", "a").build(), Some(&none), at())).is_none());
    }
}
