//! How a kind's cloud ID (ARN, Cloud Asset name, Azure resource ID) maps to its external-name,
//! learned from the kind's healthy MRs that are tagged in the inventory. upjet compiles that
//! mapping into each provider (`config.ExternalName`), so the cluster's own healthy MRs are the
//! only evidence of it: a form is trusted only when a majority of those peers agree on it, and a
//! prediction is made only when every best-agreed form gives the same answer.

use super::Cloud;
use super::arn_template::ArnTemplate;
use std::collections::HashMap;

/// One way to read an external-name out of a cloud ID.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IdForm {
    /// The ID itself (Secrets Manager secrets, Azure resources).
    Whole,
    /// An ARN's resource part, after the fifth `:` (`arn:aws:s3:::bucket` → `bucket`).
    ArnResource,
    /// A Cloud Asset name without `//service.googleapis.com/` (`projects/p/managedZones/z/…`).
    AssetPath,
    /// The last N `/` segments (`…:vpc/vpc-1` → `vpc-1`).
    Tail(u8),
}

impl IdForm {
    /// Every form, in the order they are described when several agree.
    pub const ALL: [IdForm; 6] =
        [IdForm::Whole, IdForm::ArnResource, IdForm::AssetPath, IdForm::Tail(1), IdForm::Tail(2), IdForm::Tail(3)];

    /// The external-name this form reads from `id`, if the ID has that shape.
    pub fn apply(self, id: &str) -> Option<String> {
        let out = match self {
            IdForm::Whole => Some(id),
            IdForm::ArnResource => id.strip_prefix("arn:").and_then(|rest| rest.splitn(5, ':').nth(4)),
            IdForm::AssetPath => id.strip_prefix("//").and_then(|rest| rest.split_once('/')).map(|(_, path)| path),
            IdForm::Tail(n) => {
                let cut = id.rmatch_indices('/').nth(usize::from(n) - 1)?.0;
                Some(&id[cut + 1..])
            }
        };
        out.filter(|s| !s.is_empty()).map(str::to_owned)
    }

    /// The form in words, for findings and docs.
    pub fn describe(self) -> String {
        match self {
            IdForm::Whole => "external-name = the cloud ID".into(),
            IdForm::ArnResource => "external-name = the ARN's resource part".into(),
            IdForm::AssetPath => "external-name = the asset name without //SERVICE/".into(),
            IdForm::Tail(1) => "external-name = the ID's last /-segment".into(),
            IdForm::Tail(n) => format!("external-name = the ID's last {n} /-segments"),
        }
    }
}

/// Whether two IDs name the same object, as their cloud compares them ([`Cloud::id_key`]).
pub fn same(a: &str, b: &str, cloud: Cloud) -> bool {
    a == b || cloud.id_key(a) == cloud.id_key(b)
}

/// Whether the ID an MR tracks is this cloud object: equal to it, or read out of it by any form.
/// This identifies, it does not predict, so any form counts.
pub fn tracks(tracked: &str, id: &str, cloud: Cloud) -> bool {
    IdForm::ALL.iter().any(|f| f.apply(id).is_some_and(|v| same(&v, tracked, cloud)))
}

/// What a kind's healthy tagged peers agree on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct KindRule {
    /// The forms agreed by the most peers (several when they tie).
    pub forms: Vec<IdForm>,
    /// An external-name built from the ARN's fields (an SQS queue's URL), when more peers agree
    /// on it than on any form; `forms` is then empty.
    pub template: Option<ArnTemplate>,
    /// How many peers agree with them.
    pub agree: usize,
    /// How many healthy tagged peers there are.
    pub peers: usize,
}

/// What a kind's rule says an untracked object's external-name is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prediction {
    /// One answer, proven by the peers.
    Id(String),
    /// Several forms tie and give different answers: report them all, predict nothing.
    Ambiguous(Vec<String>),
    /// No majority of peers agrees on any form (or there are none).
    Unproven,
}

impl KindRule {
    /// Learns from peers: each is a healthy MR's external-name and the objects tagged for it.
    pub fn learn<'a>(peers: impl IntoIterator<Item = (&'a str, Vec<(&'a str, Cloud)>)>) -> KindRule {
        let mut counts = [0usize; IdForm::ALL.len()];
        let mut templates: HashMap<ArnTemplate, usize> = HashMap::new();
        let mut total = 0;
        for (external_name, objects) in peers {
            total += 1;
            for (i, form) in IdForm::ALL.iter().enumerate() {
                let agrees =
                    objects.iter().any(|(id, cloud)| form.apply(id).is_some_and(|v| same(&v, external_name, *cloud)));
                counts[i] += usize::from(agrees);
            }
            let mut own: Vec<ArnTemplate> =
                objects.iter().filter_map(|(id, _)| ArnTemplate::learn(external_name, id)).collect();
            own.sort();
            own.dedup();
            for t in own {
                *templates.entry(t).or_default() += 1;
            }
        }
        let best = counts.iter().copied().max().unwrap_or(0);
        // A template wins only over fewer agreeing forms, and only when no other template ties it.
        let mut by_count: Vec<(ArnTemplate, usize)> = templates.into_iter().collect();
        by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        if let [(t, n), rest @ ..] = by_count.as_slice()
            && *n > best
            && rest.first().is_none_or(|(_, m)| m < n)
        {
            return KindRule { forms: Vec::new(), template: Some(t.clone()), agree: *n, peers: total };
        }
        let forms = IdForm::ALL.iter().zip(counts).filter(|(_, c)| best > 0 && *c == best).map(|(f, _)| *f).collect();
        KindRule { forms, template: None, agree: best, peers: total }
    }

    /// Whether a strict majority of the peers agree.
    pub(crate) fn proven(&self) -> bool {
        (!self.forms.is_empty() || self.template.is_some()) && self.agree * 2 > self.peers
    }

    /// The external-name the rule reads from `id`.
    pub fn predict(&self, id: &str) -> Prediction {
        if !self.proven() {
            return Prediction::Unproven;
        }
        if let Some(t) = &self.template {
            return t.render(id).map_or(Prediction::Unproven, Prediction::Id);
        }
        let mut answers: Vec<String> = self.forms.iter().filter_map(|f| f.apply(id)).collect();
        answers.sort();
        answers.dedup();
        match answers.len() {
            0 => Prediction::Unproven,
            1 => Prediction::Id(answers.remove(0)),
            _ => Prediction::Ambiguous(answers),
        }
    }

    /// The rule in words, with its agreement ("… agreed by 3 of 3 healthy tagged peers").
    pub fn describe(&self) -> String {
        if let Some(t) = &self.template {
            return format!("{}, agreed by {} of {} healthy tagged peers", t.describe(), self.agree, self.peers);
        }
        if self.forms.is_empty() {
            return format!("no ID form agreed by any of {} healthy tagged peers", self.peers);
        }
        let forms: Vec<String> = self.forms.iter().map(|f| f.describe()).collect();
        format!("{}, agreed by {} of {} healthy tagged peers", forms.join(" or "), self.agree, self.peers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Cloud::*;

    const VPC: &str = "arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-0aa1";
    const SECRET: &str = "arn:aws:secretsmanager:eu-west-1:111122223333:secret:orders-AbC123";
    const RRSET: &str = "//dns.googleapis.com/projects/p/managedZones/z/rrsets/www.example.com./A";

    #[test]
    fn forms_read_ids() {
        for (form, id, want) in [
            (IdForm::Whole, VPC, Some(VPC)),
            (IdForm::ArnResource, VPC, Some("vpc/vpc-0aa1")),
            (IdForm::ArnResource, "arn:aws:s3:::audit-logs", Some("audit-logs")),
            (IdForm::ArnResource, SECRET, Some("secret:orders-AbC123")),
            (IdForm::ArnResource, "vpc-1", None),
            (IdForm::Tail(1), VPC, Some("vpc-0aa1")),
            (IdForm::Tail(1), "arn:aws:sqs:us-east-1:1:q", None),
            (IdForm::Tail(2), RRSET, Some("www.example.com./A")),
            (IdForm::AssetPath, RRSET, Some("projects/p/managedZones/z/rrsets/www.example.com./A")),
            (IdForm::AssetPath, VPC, None),
            (IdForm::Tail(1), "ends/", None),
        ] {
            assert_eq!(form.apply(id).as_deref(), want, "{form:?} {id}");
        }
    }

    /// (case, peers as (external-name, IDs), target ID, prediction)
    type Case = (&'static str, &'static [(&'static str, &'static [&'static str])], &'static str, Prediction);

    fn cases() -> Vec<Case> {
        let id = |s: &str| Prediction::Id(s.into());
        vec![
            ("last segment", &[("vpc-0aa1", &[VPC])], "arn:aws:ec2:eu-west-1:1:vpc/vpc-9", id("vpc-9")),
            (
                "whole ARN",
                &[(SECRET, &[SECRET])],
                "arn:aws:secretsmanager:r:1:secret:x-Zz9",
                id("arn:aws:secretsmanager:r:1:secret:x-Zz9"),
            ),
            (
                "asset path",
                &[("projects/p/managedZones/z/rrsets/www.example.com./A", &[RRSET])],
                "//dns.googleapis.com/projects/p/managedZones/z/rrsets/b./A",
                id("projects/p/managedZones/z/rrsets/b./A"),
            ),
            ("no peers", &[], VPC, Prediction::Unproven),
            ("peers disagree with every form", &[("something-else", &[VPC])], VPC, Prediction::Unproven),
            (
                "one of two peers is no majority",
                &[("vpc-0aa1", &[VPC]), ("odd", &["arn:aws:ec2:r:1:vpc/vpc-2"])],
                VPC,
                Prediction::Unproven,
            ),
            (
                "tie with different answers",
                &[("a/b", &["//svc/a/b"])],
                "//svc/x/y/z",
                Prediction::Ambiguous(vec!["x/y/z".into(), "y/z".into()]),
            ),
            (
                "SQS: the queue URL is learned from the ARN's fields (provider-upjet-aws config/externalname.go, aws_sqs_queue: IdentifierFromProvider)",
                &[
                    ("https://sqs.us-east-1.amazonaws.com/1/a", &["arn:aws:sqs:us-east-1:1:a"]),
                    ("https://sqs.us-east-1.amazonaws.com/1/b", &["arn:aws:sqs:us-east-1:1:b"]),
                ],
                "arn:aws:sqs:us-east-1:1:c",
                id("https://sqs.us-east-1.amazonaws.com/1/c"),
            ),
            (
                "a form agreed by as many peers as a template wins",
                &[("q", &["arn:aws:sqs:r:1:q"])],
                "arn:aws:sqs:r:1:z",
                id("z"),
            ),
            (
                "Azure IDs are case-insensitive",
                &[("/subscriptions/s/resourceGroups/rg", &["/subscriptions/s/resourcegroups/rg"])],
                "/subscriptions/s/resourcegroups/rg2",
                id("/subscriptions/s/resourcegroups/rg2"),
            ),
        ]
    }

    #[test]
    fn rules_learned_from_peers() {
        for (name, peers, target, want) in cases() {
            let cloud = if target.starts_with('/') && !target.starts_with("//") { Azure } else { Aws };
            let rule = KindRule::learn(peers.iter().map(|(e, ids)| (*e, ids.iter().map(|i| (*i, cloud)).collect())));
            assert_eq!(rule.predict(target), want, "{name}: {}", rule.describe());
        }
    }

    #[test]
    fn tracking_is_recognised_in_any_form() {
        assert!(tracks("vpc-0aa1", VPC, Aws));
        assert!(tracks(VPC, VPC, Aws));
        assert!(!tracks("vpc-0aa", VPC, Aws));
        assert!(tracks("/subscriptions/S/resourceGroups/RG", "/subscriptions/s/resourcegroups/rg", Azure));
        assert!(!tracks("/subscriptions/S/resourceGroups/RG", "/subscriptions/s/resourcegroups/rg", Aws));
    }

    #[test]
    fn only_azure_ids_ignore_case() {
        assert_eq!(Azure.id_key("/subscriptions/S/resourceGroups/RG"), "/subscriptions/s/resourcegroups/rg");
        assert!(matches!(Azure.id_key("/subscriptions/s/rg"), std::borrow::Cow::Borrowed(_)), "lower-case: no copy");
        for cloud in [Aws, Gcp] {
            assert_eq!(cloud.id_key("vpc-0AA1"), "vpc-0AA1");
        }
    }
}
