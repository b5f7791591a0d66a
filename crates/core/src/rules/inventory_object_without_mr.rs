//! `InventoryObjectWithoutMr`: an inventory export lists a cloud object tagged for an MR that
//! does not exist (deleted with `deletionPolicy: Orphan`, deleted while the provider was down,
//! or a create that finished after its MR was gone), or for a name that exists in several
//! namespaces while the object carries no `crossplane-namespace` to decide. This rule looks at
//! objects, not at an MR: only kinds that were scanned in full are checked.

use crate::finding::{Code, Finding, ResourceRef};
use crate::inventory::{Unmatched, UnmatchedObject, shown};
use crate::report::{ReportFinding, ResourceState};
use crate::shell::ShellCommand;
use crate::shell::quoted;

/// One finding per object, attached to the MR its tags name.
pub(super) fn check(objects: &[UnmatchedObject]) -> Vec<ReportFinding> {
    objects.iter().map(finding_for).collect()
}

/// The MR the tags name, as a resource: the served kind when the run knows it (a tag is the kind
/// lower-cased, without its version), else the tag's own words and a version left empty.
fn resource(o: &UnmatchedObject) -> ResourceRef {
    let (api_version, kind) = match &o.served {
        Some(k) => (k.api_version(), k.kind.clone()),
        None => {
            let tag = shown(o.tags.kind.as_deref().unwrap_or_default());
            let (kind, group) = tag.split_once('.').map_or((tag.as_str(), ""), |(k, g)| (k, g));
            (format!("{group}/"), kind.to_string())
        }
    };
    ResourceRef {
        api_version,
        kind,
        namespace: o.tags.namespace.as_deref().map(shown),
        name: shown(o.tags.name.as_deref().unwrap_or_default()),
        uid: String::new(),
        cluster: None,
        source: None,
    }
}

fn finding_for(o: &UnmatchedObject) -> ReportFinding {
    let tag = shown(o.tags.kind.as_deref().unwrap_or_default());
    let resource = resource(o);
    let name = &resource.name;
    let kind = match &o.served {
        Some(k) => format!("{}.{}", k.kind.to_lowercase(), k.group),
        None => tag.clone(),
    };
    let served = match &o.served {
        Some(k) => format!("{}.{}/{}", k.kind, k.group, k.version),
        None => format!(
            "unresolved: no discovery, CRD or MR of this run names {tag}, so its kind's case and version are unknown",
            tag = quoted(&tag)
        ),
    };
    let (message, next) = match &o.why {
        Unmatched::NoMr => {
            let adopt = ShellCommand::upjet("adopt").target(format!("{kind}/{name}"), resource.namespace.as_deref());
            let adopt = match &o.external_name {
                Some(id) => adopt.opt("--id", id),
                None => adopt.word("--id").word("<external-name>"),
            };
            (
                format!(
                    "{} is tagged for {kind}/{name}, which does not exist: its MR was deleted while the cloud object survived",
                    quoted(&o.id)
                ),
                format!("delete it in the cloud, or recreate the MR and `{}`", adopt.word("--import")),
            )
        }
        Unmatched::Undecided { namespaces } => (
            format!(
                "{} is tagged for {kind}/{name} without crossplane-namespace, and that name exists in namespaces {}: cannot decide which MR it belongs to",
                quoted(&o.id),
                namespaces.join(", ")
            ),
            ShellCommand::upjet("doctor").arg(format!("{kind}/{name}")).word("-n").word("<namespace>").to_string(),
        ),
    };
    let finding = Finding::new(Code::InventoryObjectWithoutMr, message, next)
        .with("inventoryId", o.id.clone())
        .with("inventoryFile", o.source.to_string())
        .with("crossplane-kind", tag)
        .with("crossplane-name", name.clone())
        .with("servedKind", served)
        .with("idRule", o.rule.clone())
        .with_opt("crossplane-namespace", o.tags.namespace.as_deref().map(shown))
        .with_opt("crossplane-providerconfig", o.tags.provider_config.as_deref().map(shown))
        .with_opt("crossplane-providerconfig-kind", o.tags.provider_config_kind.as_deref().map(shown));
    ReportFinding { resource, finding, state: ResourceState::default() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inventory::{CrossplaneTags, ServedKind};

    const QUEUE_ARN: &str = "arn:aws:sqs:us-east-1:111122223333:terraform-20260110090000000000000001";
    const QUEUE_URL: &str = "https://sqs.us-east-1.amazonaws.com/111122223333/terraform-20260110090000000000000001";

    fn object(kind: &str, name: &str, why: Unmatched) -> UnmatchedObject {
        let mut tags = CrossplaneTags::default();
        tags.set("crossplane-kind", kind);
        tags.set("crossplane-name", name);
        UnmatchedObject {
            id: "arn:aws:ec2:r:1:vpc/vpc-9".into(),
            source: "inv.json".into(),
            tags,
            why,
            served: None,
            external_name: None,
            rule: "no healthy MR of this kind is tagged in the inventory".into(),
        }
    }

    /// The Queue of a real round: its tag is `queue.sqs.aws.upbound.io`; discovery (or a CRD, or
    /// another Queue) serves `Queue` at v1beta1, and the kind's healthy tagged peers teach that the
    /// external-name is the queue's URL built from the ARN.
    fn queue(namespace: Option<&str>) -> UnmatchedObject {
        let mut o = object("queue.sqs.aws.upbound.io", "orders", Unmatched::NoMr);
        o.id = QUEUE_ARN.into();
        if let Some(ns) = namespace {
            o.tags.set("crossplane-namespace", ns);
        }
        o.served =
            Some(ServedKind { kind: "Queue".into(), group: "sqs.aws.upbound.io".into(), version: "v1beta1".into() });
        o.external_name = Some(QUEUE_URL.into());
        o.rule = "external-name = https://sqs.{region}.amazonaws.com/{account}/{resource}, agreed by 2 of 2 healthy tagged peers".into();
        o
    }

    /// (case, object, words in the message, the resource as `apiVersion kind/name`, words in next)
    type Case = (&'static str, fn() -> UnmatchedObject, &'static str, &'static str, &'static str);

    /// crossplane-runtime `GetExternalTags` writes `crossplane-kind` as `<kind>.<group>` lower-cased:
    /// the kind's case and version come from what the run read about the kind.
    const CASES: &[Case] = &[
        (
            "unresolved: the tag's own words, the version left empty, the ID left to the user",
            || object("vpc.ec2.aws.upbound.io", "old", Unmatched::NoMr),
            "does not exist",
            "ec2.aws.upbound.io/ vpc/old",
            "adopt vpc.ec2.aws.upbound.io/old --id <external-name> --import",
        ),
        (
            "served: the kind as discovery names it, and the ID the kind's rule gives",
            || queue(None),
            "tagged for queue.sqs.aws.upbound.io/orders, which does not exist",
            "sqs.aws.upbound.io/v1beta1 Queue/orders",
            "adopt queue.sqs.aws.upbound.io/orders --id https://sqs.us-east-1.amazonaws.com/111122223333/terraform-20260110090000000000000001 --import",
        ),
        (
            "namespaced: the command names the namespace",
            || queue(Some("team-a")),
            "does not exist",
            "sqs.aws.upbound.io/v1beta1 Queue/orders",
            "adopt queue.sqs.aws.upbound.io/orders -n team-a --id https://",
        ),
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
            "ec2.aws.m.upbound.io/ vpc/v",
            "doctor vpc.ec2.aws.m.upbound.io/v -n <namespace>",
        ),
        (
            "control characters are escaped",
            || object("vpc.ec2.aws.upbound.io", "x\u{1b}[2J", Unmatched::NoMr),
            "x\\u{1b}[2J",
            "ec2.aws.upbound.io/ vpc/x\\u{1b}[2J",
            "adopt \"vpc.ec2.aws.upbound.io/x\\\\u{1b}[2J\" --id",
        ),
    ];

    #[test]
    fn table() {
        for (name, o, words, resource, next) in CASES {
            let f = check(&[o()]);
            assert_eq!(f.len(), 1, "{name}");
            let (r, f) = (&f[0].resource, &f[0].finding);
            assert!(f.message.contains(words), "{name}: {}", f.message);
            assert_eq!(format!("{} {}/{}", r.api_version, r.kind, r.name), *resource, "{name}");
            assert!(f.next.contains(next), "{name}: {}", f.next);
            assert_eq!(f.code, Code::InventoryObjectWithoutMr);
        }
    }

    #[test]
    fn the_evidence_says_which_kind_and_rule_or_that_none_is_known() {
        let f = &check(&[queue(None)])[0].finding;
        assert_eq!(f.evidence["servedKind"], "Queue.sqs.aws.upbound.io/v1beta1");
        assert!(f.evidence["idRule"].contains("agreed by 2 of 2"), "{:?}", f.evidence);
        let f = &check(&[object("queue.sqs.aws.upbound.io", "q", Unmatched::NoMr)])[0].finding;
        assert!(f.evidence["servedKind"].starts_with("unresolved: "), "{:?}", f.evidence);
    }
}
