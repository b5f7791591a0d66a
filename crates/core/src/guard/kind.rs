//! One managed kind the guard covers, as discovery or a CRD file describes it.

use crate::identity::{Identity, Template, UserTemplate};

/// A served managed kind and what the guard needs to know of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GuardKind {
    /// API group (`ec2.aws.upbound.io`).
    pub group: String,
    /// Kind (`VPC`).
    pub kind: String,
    /// Plural resource name (`vpcs`): what a policy's resource rule names.
    pub plural: String,
    /// Namespaced (Crossplane v2 `.m.` groups) or cluster-scoped.
    pub namespaced: bool,
    /// Whether the kind creates asynchronously: upjet's default (`UseAsync: true`), so an
    /// external-name learned after the create is saved only with LateInitialize.
    pub creates_async: bool,
    /// The ID formats its external-names follow, when known (learned from healthy peers or
    /// given as `--id-template`, docs/id-templates.md); several when peers agree on more than
    /// one, and any of them is accepted.
    pub id_templates: Vec<Template>,
}

impl GuardKind {
    /// A kind with upjet's defaults: asynchronous, no known ID format.
    pub fn new(group: &str, kind: &str, plural: &str, namespaced: bool) -> GuardKind {
        GuardKind {
            group: group.to_string(),
            kind: kind.to_string(),
            plural: plural.to_string(),
            namespaced,
            creates_async: true,
            id_templates: Vec::new(),
        }
    }

    /// `group/Kind`: how the expressions tell kinds apart (`request.kind`).
    pub fn key(&self) -> String {
        format!("{}/{}", self.group, self.kind)
    }
}

/// The formats to judge a kind's external-names by, as doctor takes them: a user's template
/// (`--id-template`) wins; else the templates its healthy peers agree on (`identity::Peers`
/// after `learn`); none when the provider assigns the IDs or too few peers show them.
pub fn templates(learned: Option<&Identity>, user: Option<&UserTemplate>) -> Vec<Template> {
    match (user, learned) {
        (Some(u), _) => vec![u.template.clone()],
        (None, Some(Identity::Templates { agreed, .. })) => agreed.iter().map(|a| a.template.clone()).collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::infer::Agreed;

    #[test]
    fn a_user_template_wins_over_what_peers_agree_on() {
        let t = |s: &str| Template::parse(s).unwrap();
        let learned = Identity::Templates {
            peers: 5,
            agreed: vec![
                Agreed { template: t("{name}"), count: 5 },
                Agreed { template: t("{forProvider.name}"), count: 5 },
            ],
            id_equal: 0,
        };
        assert_eq!(templates(Some(&learned), None), [t("{name}"), t("{forProvider.name}")]);
        let user: UserTemplate = "vpc=vpc-{name}".parse().unwrap();
        assert_eq!(templates(Some(&learned), Some(&user)), [t("vpc-{name}")]);
        let assigned = Identity::ProviderAssigned { peers: 9, example: "vpc-0abc".into() };
        assert!(templates(Some(&assigned), None).is_empty() && templates(None, None).is_empty());
    }
}
