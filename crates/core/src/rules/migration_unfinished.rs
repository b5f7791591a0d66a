//! `MigrationUnfinished`: a legacy MR parked beside its healthy namespaced twin.

use super::facts::Facts;
use crate::finding::{Code, Finding};
use crate::shell::ShellCommand;
use crate::shell::quoted;

/// A migration to Crossplane v2's namespaced kinds parks the legacy MR (paused, unable to
/// delete) before its namespaced twin takes the object over, and ends by deleting it. Stopped
/// in between, both stay: nothing fights while the legacy MR is paused, but the first person
/// who unpauses it starts a fight, and the cluster keeps a second MR for one object. The next
/// command plans the finish for this one MR; `migrate apply` then only deletes the legacy MR
/// (Orphan: its provider removes the finalizer, the cloud object stays).
pub(super) fn check(facts: &Facts) -> Option<Finding> {
    let twin = facts.evidence?.migration_twin.as_ref()?;
    let name = facts.mr.external_name()?;
    let ns = twin.namespace.as_deref()?;
    let file = format!("migrate-{}.json", facts.mr.name);
    let f = Finding::new(
        Code::MigrationUnfinished,
        format!(
            "paused and unable to delete, while its namespaced twin {} tracks the same external-name {name} and is healthy: the migration was not finished",
            twin.display()
        , name = quoted(name)),
        ShellCommand::upjet("migrate")
            .word("plan")
            .target(facts.mr.reference(), facts.mr.namespace.as_deref())
            .opt("--to-namespace", ns)
            .opt("-o", &file)
            .and_then(ShellCommand::upjet("migrate").word("apply").opt("-f", &file)),
    )
    .with("twin", twin.display());
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::super::cases::at;
    use super::super::{Facts, MrEvidence};
    use crate::shared_names::MrKey;
    use crate::testing::Mr;

    #[test]
    fn table() {
        let twin = MrKey {
            group: "ec2.aws.m.upbound.io".into(),
            kind: "Subnet".into(),
            namespace: Some("infra".into()),
            name: "a".into(),
        };
        let with = |t: Option<MrKey>| MrEvidence { migration_twin: t, ..MrEvidence::default() };
        let legacy = || Mr::new("Subnet", "a").api_version("ec2.aws.upbound.io/v1beta1").external_name("subnet-1");
        for (case, mr, evidence, want) in [
            ("a twin", legacy(), Some(with(Some(twin.clone()))), true),
            ("no twin", legacy(), Some(with(None)), false),
            ("no evidence", legacy(), None, false),
            ("no external-name", Mr::new("Subnet", "a"), Some(with(Some(twin.clone()))), false),
        ] {
            let mr = mr.build();
            let found = super::check(&Facts::with_evidence(&mr, evidence.as_ref(), at()));
            assert_eq!(found.is_some(), want, "{case}");
            if let Some(f) = found {
                assert!(f.message.contains("subnet.ec2.aws.m.upbound.io/a -n infra"), "{}", f.message);
                assert!(
                    f.next.starts_with("kubectl upjet migrate plan subnet.ec2.aws.upbound.io/a --to-namespace infra -o migrate-a.json && kubectl upjet migrate apply -f migrate-a.json"),
                    "{}",
                    f.next
                );
            }
        }
    }
}
