//! `InventoryObjectWithoutMr`: an inventory export lists a cloud object tagged for an MR that
//! does not exist (deleted with `deletionPolicy: Orphan`, deleted while the provider was down,
//! or a create that finished after its MR was gone), or for a name that exists in several
//! namespaces while the object carries no `crossplane-namespace` to decide. This rule looks at
//! objects, not at an MR: only kinds that were scanned in full are checked.

use crate::domain::finding::{Code, Finding, ResourceRef};
use crate::domain::inventory::{Unmatched, UnmatchedObject, shown};
use crate::domain::report::{ReportFinding, ResourceState};

/// One finding per object, attached to the MR its tags name.
pub(super) fn check(objects: &[UnmatchedObject]) -> Vec<ReportFinding> {
    objects.iter().map(finding_for).collect()
}

fn finding_for(o: &UnmatchedObject) -> ReportFinding {
    let kind = shown(o.tags.kind.as_deref().unwrap_or_default());
    let name = shown(o.tags.name.as_deref().unwrap_or_default());
    let (group_kind, group) = kind.split_once('.').map_or((kind.as_str(), ""), |(k, g)| (k, g));
    let (message, next) = match &o.why {
        Unmatched::NoMr => (
            format!(
                "{:?} is tagged for {kind}/{name}, which does not exist: its MR was deleted while the cloud object survived",
                o.id
            ),
            format!(
                "delete it in the cloud, or recreate the MR and `kubectl upjet adopt {kind}/{name} --id <external-name> --import`"
            ),
        ),
        Unmatched::Undecided { namespaces } => (
            format!(
                "{:?} is tagged for {kind}/{name} without crossplane-namespace, and that name exists in namespaces {}: cannot decide which MR it belongs to",
                o.id,
                namespaces.join(", ")
            ),
            format!("kubectl upjet doctor {kind}/{name} -n <namespace>"),
        ),
    };
    let finding = Finding::new(Code::InventoryObjectWithoutMr, message, next)
        .with("inventoryId", o.id.clone())
        .with("inventoryFile", o.source.to_string())
        .with("crossplane-kind", kind.clone())
        .with("crossplane-name", name.clone())
        .with_opt("crossplane-namespace", o.tags.namespace.as_deref().map(shown))
        .with_opt("crossplane-providerconfig", o.tags.provider_config.as_deref().map(shown))
        .with_opt("crossplane-providerconfig-kind", o.tags.provider_config_kind.as_deref().map(shown));
    ReportFinding {
        resource: ResourceRef {
            // `group/` with no version: the tag names the kind, not the version it was served at.
            api_version: format!("{group}/"),
            kind: group_kind.to_string(),
            namespace: o.tags.namespace.as_deref().map(shown),
            name,
            uid: String::new(),
            cluster: None,
            source: None,
        },
        finding,
        state: ResourceState::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::inventory::CrossplaneTags;

    fn object(kind: &str, name: &str, why: Unmatched) -> UnmatchedObject {
        let mut tags = CrossplaneTags::default();
        tags.set("crossplane-kind", kind);
        tags.set("crossplane-name", name);
        UnmatchedObject { id: "arn:aws:ec2:r:1:vpc/vpc-9".into(), source: "inv.json".into(), tags, why }
    }

    /// (case, object, expected words in the message, expected resource kind/name)
    const CASES: &[(&str, fn() -> UnmatchedObject, &str, &str)] = &[
        ("deleted MR", || object("vpc.ec2.aws.upbound.io", "old", Unmatched::NoMr), "does not exist", "vpc/old"),
        (
            "undecided namespace",
            || {
                object(
                    "vpc.ec2.aws.m.upbound.io",
                    "v",
                    Unmatched::Undecided { namespaces: vec!["a".into(), "b".into()] },
                )
            },
            "namespaces a, b",
            "vpc/v",
        ),
        (
            "control characters are escaped",
            || object("vpc.ec2.aws.upbound.io", "x\u{1b}[2J", Unmatched::NoMr),
            "x\\u{1b}[2J",
            "vpc/x\\u{1b}[2J",
        ),
    ];

    #[test]
    fn table() {
        for (name, o, words, resource) in CASES {
            let f = check(&[o()]);
            assert_eq!(f.len(), 1, "{name}");
            assert!(f[0].finding.message.contains(words), "{name}: {}", f[0].finding.message);
            assert_eq!(format!("{}/{}", f[0].resource.kind, f[0].resource.name), *resource, "{name}");
            assert_eq!(f[0].finding.code, Code::InventoryObjectWithoutMr);
        }
    }
}
