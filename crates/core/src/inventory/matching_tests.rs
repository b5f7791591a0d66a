//! The cross-check over written MRs and objects: matching, tracking, learning, and gone.
use super::*;
use crate::inventory::Cloud;
use crate::testing::Mr;

const G: &str = "ec2.aws.upbound.io/v1beta1";
const GM: &str = "ec2.aws.m.upbound.io/v1beta1";

fn vpc(name: &str) -> Mr {
    Mr::new("VPC", name).api_version(G)
}

fn o(id: &str, kind: &str, name: &str, ns: Option<&str>) -> InventoryObject {
    let mut tags = CrossplaneTags::default();
    tags.set("crossplane-kind", kind);
    tags.set("crossplane-name", name);
    tags.set("crossplane-namespace", ns.unwrap_or_default());
    InventoryObject { id: id.into(), cloud: Cloud::Aws, tags, source: "inv.json".into() }
}

fn arn(id: &str) -> String {
    format!("arn:aws:ec2:eu-west-1:1:vpc/{id}")
}

fn run(mrs: &[Mr], objects: &[InventoryObject]) -> CrossCheck {
    let built: Vec<ManagedResource> = mrs.iter().map(Mr::build).collect();
    let refs: Vec<&ManagedResource> = built.iter().collect();
    let kinds = ScanCoverage::of_kinds(built.iter().map(ServedKind::of));
    cross_check(objects, &refs, &ScanCoverage { kinds, all_kinds: true, complete: true, truncated: Vec::new() })
}

/// (case, MRs, objects, per MR key: (tracking of each object, predicted external-name of the
/// first), unmatched)
type Case = (
    &'static str,
    fn() -> Vec<Mr>,
    fn() -> Vec<InventoryObject>,
    &'static [(&'static str, &'static [Tracking], Option<&'static str>)],
    usize,
);

use Tracking::{Tracked as T, Unknown as Q, Untracked as U};

const SQS: &str = "sqs.aws.upbound.io/v1beta1";

fn queue(name: &str) -> Mr {
    Mr::new("Queue", name).api_version(SQS).param("region", "us-east-1")
}

fn url(name: &str) -> String {
    format!("https://sqs.us-east-1.amazonaws.com/111122223333/{name}")
}

fn queue_arn(name: &str) -> String {
    format!("arn:aws:sqs:us-east-1:111122223333:{name}")
}

fn q(name: &str) -> InventoryObject {
    o(&queue_arn(name), "queue.sqs.aws.upbound.io", name, None)
}

const CASES: &[Case] = &[
    (
        "a healthy peer teaches the last segment; the lost MR gets its ID",
        || vec![vpc("a").external_name("vpc-a").healthy(), vpc("b")],
        || {
            vec![
                o(&arn("vpc-a"), "vpc.ec2.aws.upbound.io", "a", None),
                o(&arn("vpc-b"), "vpc.ec2.aws.upbound.io", "b", None),
            ]
        },
        &[("/vpc.ec2.aws.upbound.io/a", &[T], Some("vpc-a")), ("/vpc.ec2.aws.upbound.io/b", &[U], Some("vpc-b"))],
        0,
    ),
    (
        "no peer: nothing predicted",
        || vec![vpc("b")],
        || vec![o(&arn("vpc-b"), "vpc.ec2.aws.upbound.io", "b", None)],
        &[("/vpc.ec2.aws.upbound.io/b", &[U], None)],
        0,
    ),
    (
        "a duplicate, the same object listed twice counts once",
        || vec![vpc("a").external_name("vpc-a").healthy()],
        || {
            vec![
                o(&arn("vpc-a"), "vpc.ec2.aws.upbound.io", "a", None),
                o(&arn("vpc-z"), "vpc.ec2.aws.upbound.io", "a", None),
                o(&arn("vpc-z"), "vpc.ec2.aws.upbound.io", "a", None),
            ]
        },
        &[("/vpc.ec2.aws.upbound.io/a", &[T, U], Some("vpc-a"))],
        0,
    ),
    ("deleted MR", || vec![vpc("a")], || vec![o(&arn("vpc-x"), "vpc.ec2.aws.upbound.io", "gone", None)], &[], 1),
    (
        "namespace tag decides between namespaces",
        || vec![vpc("v").api_version(GM).namespace("a"), vpc("v").api_version(GM).namespace("b")],
        || vec![o(&arn("vpc-1"), "vpc.ec2.aws.m.upbound.io", "v", Some("b"))],
        &[("b/vpc.ec2.aws.m.upbound.io/v", &[U], None)],
        0,
    ),
    (
        "no namespace tag, name in two namespaces: undecided",
        || vec![vpc("v").api_version(GM).namespace("a"), vpc("v").api_version(GM).namespace("b")],
        || vec![o(&arn("vpc-1"), "vpc.ec2.aws.m.upbound.io", "v", None)],
        &[],
        1,
    ),
    (
        "no namespace tag, name unique: matched (tagged before the provider wrote it)",
        || vec![vpc("v").api_version(GM).namespace("a")],
        || vec![o(&arn("vpc-1"), "vpc.ec2.aws.m.upbound.io", "v", None)],
        &[("a/vpc.ec2.aws.m.upbound.io/v", &[U], None)],
        0,
    ),
    (
        "GCP-style kind with underscores matches",
        || vec![vpc("a")],
        || vec![o(&arn("vpc-1"), "vpc_ec2_aws_upbound_io", "a", None)],
        &[("/vpc.ec2.aws.upbound.io/a", &[U], None)],
        0,
    ),
    (
        "healthy SQS queues: the URL is learned from the ARNs, all tracked, the lost one predicted \
         (provider-upjet-aws config/externalname.go: aws_sqs_queue is IdentifierFromProvider, its ID the URL)",
        || {
            vec![
                queue("a").external_name(&url("a")).healthy(),
                queue("b").external_name(&url("b")).healthy(),
                queue("c"),
            ]
        },
        || vec![q("a"), q("b"), q("c")],
        &[
            ("/queue.sqs.aws.upbound.io/a", &[T], Some("https://sqs.us-east-1.amazonaws.com/111122223333/a")),
            ("/queue.sqs.aws.upbound.io/b", &[T], Some("https://sqs.us-east-1.amazonaws.com/111122223333/b")),
            ("/queue.sqs.aws.upbound.io/c", &[U], Some("https://sqs.us-east-1.amazonaws.com/111122223333/c")),
        ],
        0,
    ),
    (
        "one healthy queue among unproven peers: its own atProvider.arn ties it",
        || {
            vec![
                queue("a").external_name(&url("a")).at_provider_arn(&queue_arn("a")).healthy(),
                queue("b").external_name("x1").healthy(),
                queue("c").external_name("x2").healthy(),
            ]
        },
        || vec![q("a"), q("b"), q("c")],
        &[
            ("/queue.sqs.aws.upbound.io/a", &[T], None),
            ("/queue.sqs.aws.upbound.io/b", &[Q], None),
            ("/queue.sqs.aws.upbound.io/c", &[Q], None),
        ],
        0,
    ),
    (
        "no form and no rule ties a healthy MR's ID to its object: unknown, never untracked",
        || vec![queue("a").external_name(&url("a")).healthy(), queue("b").external_name("odd").healthy()],
        || vec![q("a"), q("b")],
        &[("/queue.sqs.aws.upbound.io/a", &[Q], None), ("/queue.sqs.aws.upbound.io/b", &[Q], None)],
        0,
    ),
    (
        "its own ARN names another object: untracked",
        || vec![queue("a").external_name("odd").at_provider_arn(&queue_arn("other"))],
        || vec![q("a")],
        &[("/queue.sqs.aws.upbound.io/a", &[U], None)],
        0,
    ),
    (
        "atProvider.id counts as tracked without an external-name",
        || vec![vpc("a").at_provider_id("vpc-1")],
        || vec![o(&arn("vpc-1"), "vpc.ec2.aws.upbound.io", "a", None)],
        &[("/vpc.ec2.aws.upbound.io/a", &[T], None)],
        0,
    ),
];

#[test]
fn table() {
    for (name, mrs, objects, want, unmatched) in CASES {
        let got = run(&mrs(), &objects());
        assert_eq!(got.unmatched.len(), *unmatched, "{name}");
        assert_eq!(got.per_mr.len(), want.len(), "{name}: {:?}", got.per_mr.keys());
        for (key, tracked, predicted) in *want {
            let inv = got.per_mr.get(*key).unwrap_or_else(|| panic!("{name}: no {key} in {:?}", got.per_mr.keys()));
            let flags: Vec<Tracking> = inv.objects.iter().map(|o| o.tracking).collect();
            assert_eq!(&flags, tracked, "{name}");
            let first = match &inv.objects[0].prediction {
                Prediction::Id(id) => Some(id.as_str()),
                _ => None,
            };
            assert_eq!(first, *predicted, "{name}: {}", inv.rule);
        }
    }
}

/// crossplane-runtime `GetExternalTags` tags `crossplane-kind` as `<kind>.<group>` lower-cased: an
/// object whose MR is gone is named by the kind as the run read it (here another Queue of the
/// snapshot), and its external-name by the rule the kind's healthy tagged peers teach.
#[test]
fn an_object_without_its_mr_names_the_served_kind_and_the_id_its_rule_gives() {
    let generated = "terraform-20260110090000000000000001";
    let mut peers = vec![queue("a").external_name(&url("a")).healthy(), queue("b").external_name(&url("b")).healthy()];
    let objects = [
        o(&queue_arn("a"), "queue.sqs.aws.upbound.io", "a", None),
        o(&queue_arn("b"), "queue.sqs.aws.upbound.io", "b", None),
        o(&queue_arn(generated), "queue.sqs.aws.upbound.io", "orders", None),
        o(&arn("vpc-9"), "vpc.ec2.aws.upbound.io", "gone", None),
    ];
    let got = run(&peers, &objects);
    let [queue_object, vpc_object] = got.unmatched.as_slice() else { panic!("{:?}", got.unmatched) };
    let served = queue_object.served.as_ref().expect("the snapshot's Queues name the kind");
    assert_eq!((served.kind.as_str(), served.api_version()), ("Queue", SQS.to_string()));
    assert_eq!(queue_object.external_name, Some(url(generated)), "{}", queue_object.rule);
    assert!(queue_object.rule.contains("agreed by 2 of 2"), "{}", queue_object.rule);
    assert_eq!((&vpc_object.served, &vpc_object.external_name), (&None, &None), "nothing of the run names VPCs");
    // Two healthy peers that disagree prove no rule: nothing is predicted.
    peers[1] = queue("b").external_name("odd").healthy();
    let got = run(&peers, &objects);
    assert_eq!(got.unmatched[0].external_name, None, "{}", got.unmatched[0].rule);
}

#[test]
fn objects_of_kinds_not_scanned_are_not_reported() {
    let built = vpc("a").build();
    let objects = [o(&arn("vpc-x"), "bucket.s3.aws.upbound.io", "gone", None)];
    for scope in [
        ScanCoverage {
            kinds: ScanCoverage::of_kinds([ServedKind::of(&built)]),
            all_kinds: false,
            complete: true,
            truncated: Vec::new(),
        },
        ScanCoverage { kinds: HashMap::new(), all_kinds: true, complete: false, truncated: Vec::new() },
    ] {
        let got = cross_check(&objects, &[&built], &scope);
        assert_eq!((got.unmatched.len(), got.out_of_scope), (0, 1), "{scope:?}");
    }
}

/// The MRs the cross-check says are gone, by name, for MRs and objects read from `files`
/// (object → file), with `truncated` files cut short.
fn gone_names(mrs: &[Mr], objects: &[(InventoryObject, &str)], truncated: &[&str]) -> Vec<String> {
    let built: Vec<ManagedResource> = mrs.iter().map(Mr::build).collect();
    let refs: Vec<&ManagedResource> = built.iter().collect();
    let objects: Vec<InventoryObject> =
        objects.iter().map(|(o, file)| InventoryObject { source: Arc::from(*file), ..o.clone() }).collect();
    let scope = ScanCoverage {
        kinds: HashMap::new(),
        all_kinds: true,
        complete: true,
        truncated: truncated.iter().map(|f| Arc::from(*f)).collect(),
    };
    let got = cross_check(&objects, &refs, &scope);
    let mut names: Vec<String> = built
        .iter()
        .filter(|mr| got.per_mr.get(&mr_key(mr)).is_some_and(|i| i.gone.is_some()))
        .map(|mr| mr.name.clone())
        .collect();
    names.sort();
    names
}

fn healthy_queue(name: &str) -> Mr {
    queue(name).external_name(&url(name)).healthy()
}

/// A gone object is said only when a complete export lists a healthy peer of the same kind,
/// provider config and region, the kind's rule is proven, and the ID is nowhere in the export.
#[test]
fn gone_only_where_a_complete_export_covers_kind_account_and_region() {
    let peers = || vec![healthy_queue("a"), healthy_queue("b")];
    let listed = || vec![(q("a"), "inv.json"), (q("b"), "inv.json")];
    let with = |extra: Mr| [peers(), vec![extra]].concat();
    // (case, MRs, objects, truncated files, gone)
    let cases: Vec<(&str, Vec<Mr>, Vec<(InventoryObject, &str)>, Vec<&str>, Vec<&str>)> = vec![
        ("covered and missing", with(healthy_queue("gone")), listed(), vec![], vec!["gone"]),
        (
            "listed without tags: not gone",
            with(healthy_queue("untagged")),
            [listed(), vec![(InventoryObject { tags: CrossplaneTags::default(), ..q("untagged") }, "inv.json")]]
                .concat(),
            vec![],
            vec![],
        ),
        ("the file is cut short: nothing said", with(healthy_queue("gone")), listed(), vec!["inv.json"], vec![]),
        (
            "another region: not covered",
            with(Mr::new("Queue", "far").api_version(SQS).param("region", "eu-west-1").external_name("x").healthy()),
            listed(),
            vec![],
            vec![],
        ),
        (
            "another provider config: not covered (another account)",
            with(healthy_queue("other").provider_config(None, "prod")),
            listed(),
            vec![],
            vec![],
        ),
        (
            "a namespaced ProviderConfig default is not the ClusterProviderConfig default",
            vec![
                healthy_queue("a").namespace("team-a").provider_config(Some("ClusterProviderConfig"), "default"),
                healthy_queue("b").namespace("team-a").provider_config(Some("ClusterProviderConfig"), "default"),
                healthy_queue("gone").namespace("team-a").provider_config(Some("ProviderConfig"), "default"),
            ],
            vec![
                (o(&queue_arn("a"), "queue.sqs.aws.upbound.io", "a", Some("team-a")), "inv.json"),
                (o(&queue_arn("b"), "queue.sqs.aws.upbound.io", "b", Some("team-a")), "inv.json"),
            ],
            vec![],
            vec![],
        ),
        ("being deleted: nothing said", with(healthy_queue("gone").deleting()), listed(), vec![], vec![]),
        (
            "no proven rule for the kind: nothing said",
            vec![queue("a").external_name("x1").healthy(), queue("gone").external_name("x2").healthy()],
            vec![(q("a"), "inv.json")],
            vec![],
            vec![],
        ),
    ];
    for (name, mrs, objects, truncated, want) in cases {
        assert_eq!(gone_names(&mrs, &objects, &truncated), want, "{name}");
    }
}

/// Without a rule of the inventory's own (no healthy Bucket is tagged), the kind's identity format
/// names the object: three healthy Buckets named as their MRs (upjet's `NameAsIdentifier`) teach
/// `{name}`, which the tags' `crossplane-name` fills; a format over `forProvider` cannot be filled.
#[test]
fn the_identity_format_names_an_object_the_inventory_s_rule_does_not() {
    let bucket =
        |name: &str| Mr::new("Bucket", name).api_version("s3.aws.upbound.io/v1beta1").param("region", "eu-west-1");
    let healthy: Vec<ManagedResource> =
        ["a-logs", "b-logs", "c-logs"].iter().map(|n| bucket(n).external_name(n).healthy().build()).collect();
    let refs: Vec<&ManagedResource> = healthy.iter().collect();
    let objects = [o("arn:aws:s3:::gone-logs", "bucket.s3.aws.upbound.io", "gone-logs", None)];
    let kinds = ScanCoverage::of_kinds(healthy.iter().map(ServedKind::of));
    let mut got =
        cross_check(&objects, &refs, &ScanCoverage { kinds, all_kinds: true, complete: true, truncated: Vec::new() });
    assert_eq!(got.unmatched[0].external_name, None, "no healthy Bucket is tagged: {}", got.unmatched[0].rule);
    let mut peers = Peers::default();
    healthy.iter().for_each(|mr| peers.observe(mr));
    peers.learn();
    name_by_identity(&mut got.unmatched, &peers, &[]);
    let named = &got.unmatched[0];
    assert_eq!(named.external_name.as_deref(), Some("gone-logs"), "{}", named.rule);
    assert!(named.rule.contains("template `{name}`"), "{}", named.rule);

    // Named by region and name: the tags do not tell the region.
    let user: identity::UserTemplate = "bucket.s3.aws.upbound.io={forProvider.region}-{name}".parse().unwrap();
    let mut again = cross_check(
        &objects,
        &refs,
        &ScanCoverage {
            kinds: ScanCoverage::of_kinds(healthy.iter().map(ServedKind::of)),
            all_kinds: true,
            complete: true,
            truncated: Vec::new(),
        },
    );
    name_by_identity(&mut again.unmatched, &peers, &[user]);
    assert_eq!(again.unmatched[0].external_name, None);
    assert!(again.unmatched[0].rule.contains("forProvider.region"), "{}", again.unmatched[0].rule);
}
