use super::*;
use crate::testing::Mr;

/// One healthy peer: name, forProvider scalars, external-name.
type Peer = (&'static str, &'static [(&'static str, &'static str)], &'static str);

#[derive(Debug)]
enum Want {
    Few,
    Assigned,
    /// The best template, its count, and how many templates share that count.
    Tmpl(&'static str, usize, usize),
}

fn sample((name, params, ext): &Peer) -> Sample {
    let mut mr = Mr::new("RecordSet", name).external_name(ext).healthy().at_provider_id(ext);
    for (k, v) in params.iter() {
        mr = mr.param(k, *v);
    }
    Sample::of(&mr.build()).expect("healthy")
}

const RRSET: &[(&str, &str)] = &[];
const CASES: &[(&str, &[Peer], Want)] = &[
    ("too few peers", &[("a", RRSET, "a"), ("b", RRSET, "b")], Want::Few),
    (
        "external-name is the name",
        &[("a", RRSET, "a"), ("b", RRSET, "b"), ("c", RRSET, "c")],
        Want::Tmpl("{name}", 3, 1),
    ),
    (
        "external-name is a parameter",
        &[
            ("a", &[("bucket", "logs-1")], "logs-1"),
            ("b", &[("bucket", "logs-2")], "logs-2"),
            ("c", &[("bucket", "assets")], "assets"),
        ],
        Want::Tmpl("{forProvider.bucket}", 3, 1),
    ),
    (
        "a template over parameters",
        &[
            ("w", &[("zoneId", "Z1"), ("name", "www.example.com"), ("type", "A")], "Z1_www.example.com_A"),
            ("m", &[("zoneId", "Z1"), ("name", "mail.example.com"), ("type", "MX")], "Z1_mail.example.com_MX"),
            ("x", &[("zoneId", "Z2"), ("name", "example.org"), ("type", "TXT")], "Z2_example.org_TXT"),
        ],
        Want::Tmpl("{forProvider.zoneId}_{forProvider.name}_{forProvider.type}", 3, 1),
    ),
    (
        "a constant segment from the provider config",
        &[
            (
                "r1",
                &[("managedZone", "z"), ("name", "r1.ex.com."), ("type", "A")],
                "projects/bench-7/managedZones/z/rrsets/r1.ex.com./A",
            ),
            (
                "r2",
                &[("managedZone", "z"), ("name", "r2.ex.com."), ("type", "A")],
                "projects/bench-7/managedZones/z/rrsets/r2.ex.com./A",
            ),
            (
                "r3",
                &[("managedZone", "y"), ("name", "r3.ex.com."), ("type", "AAAA")],
                "projects/bench-7/managedZones/y/rrsets/r3.ex.com./AAAA",
            ),
        ],
        Want::Tmpl(
            "projects/bench-7/managedZones/{forProvider.managedZone}/rrsets/{forProvider.name}/{forProvider.type}",
            3,
            2,
        ),
    ),
    (
        "two fields always equal: ambiguous at this level",
        &[("a", &[("name", "a")], "a"), ("b", &[("name", "b")], "b"), ("c", &[("name", "c")], "c")],
        Want::Tmpl("{name}", 3, 2),
    ),
    (
        "provider-assigned: a random suffix",
        &[
            (
                "s1",
                &[("name", "s1"), ("region", "eu-west-1")],
                "arn:aws:secretsmanager:eu-west-1:1111:secret:s1-AbCdEf",
            ),
            (
                "s2",
                &[("name", "s2"), ("region", "eu-west-1")],
                "arn:aws:secretsmanager:eu-west-1:1111:secret:s2-x9Y8z7",
            ),
            (
                "s3",
                &[("name", "s3"), ("region", "eu-west-1")],
                "arn:aws:secretsmanager:eu-west-1:1111:secret:s3-Qq1Ww2",
            ),
        ],
        Want::Assigned,
    ),
    (
        "provider-assigned: cloud IDs",
        &[("v1", RRSET, "vpc-0a1b2c3d"), ("v2", RRSET, "vpc-0f9e8d7c"), ("v3", RRSET, "vpc-0123abcd")],
        Want::Assigned,
    ),
    (
        "a supermajority agrees (9 of 10)",
        &[
            ("a", RRSET, "a"),
            ("b", RRSET, "b"),
            ("c", RRSET, "c"),
            ("d", RRSET, "d"),
            ("e", RRSET, "e"),
            ("f", RRSET, "f"),
            ("g", RRSET, "g"),
            ("h", RRSET, "h"),
            ("i", RRSET, "i"),
            ("j", RRSET, "renamed-by-hand"),
        ],
        Want::Tmpl("{name}", 9, 1),
    ),
    (
        "8 of 10 is not enough",
        &[
            ("a", RRSET, "a"),
            ("b", RRSET, "b"),
            ("c", RRSET, "c"),
            ("d", RRSET, "d"),
            ("e", RRSET, "e"),
            ("f", RRSET, "f"),
            ("g", RRSET, "g"),
            ("h", RRSET, "h"),
            ("i", RRSET, "x-1"),
            ("j", RRSET, "x-2"),
        ],
        Want::Assigned,
    ),
];

#[test]
fn inference() {
    for (what, peers, want) in CASES {
        let samples: Vec<Sample> = peers.iter().map(sample).collect();
        match (infer(&samples), want) {
            (Identity::TooFewPeers { peers: n }, Want::Few) => assert_eq!(n, peers.len(), "{what}"),
            (Identity::ProviderAssigned { peers: n, .. }, Want::Assigned) => assert_eq!(n, peers.len(), "{what}"),
            (Identity::Templates { agreed, .. }, Want::Tmpl(t, count, n)) => {
                assert_eq!(agreed[0].template.to_string(), *t, "{what}: {agreed:?}");
                assert_eq!((agreed[0].count, agreed.len()), (*count, *n), "{what}: {agreed:?}");
            }
            (got, want) => panic!("{what}: got {got:?}, want {want:?}"),
        }
    }
}

#[test]
fn only_healthy_mrs_are_peers_and_values_match_whole_tokens() {
    let mr = |m: Mr| Sample::of(&m.build());
    assert!(mr(Mr::new("K", "a").healthy()).is_none(), "no external-name");
    assert!(mr(Mr::new("K", "a").external_name("a")).is_none(), "not Ready");
    assert!(mr(Mr::new("K", "a").external_name("a").healthy().deleting()).is_none(), "being deleted");
    let s = mr(Mr::new("K", "data").external_name("data/a").healthy().param("x", "a").param("y", "at")).unwrap();
    let kept: Vec<String> = s.fields.iter().map(|(f, _)| f.to_string()).collect();
    assert_eq!(kept, ["name", "forProvider.x"], "`at` is not a token of data/a; unrelated fields are dropped");
    assert_eq!(occurrences("a", "data/a"), [5]);
    assert_eq!(occurrences("-1", "x-1"), [1], "a value starting with a separator may follow a letter");
}
