use super::*;
use crate::finding::Code;
use crate::testing::Mr;

fn rrset(name: &str, zone: &str) -> Mr {
    Mr::new("RecordSet", name)
        .param("managedZone", zone)
        .param("name", format!("{name}.ex.com."))
        .param("type", "A")
        .param("ttl", 300)
}

fn peers_of(mrs: &[Mr]) -> Peers {
    let mut p = Peers::default();
    for m in mrs {
        p.observe(&m.build());
    }
    p.learn();
    p
}

fn rrset_peers() -> Peers {
    let ok = |n: &str, z: &str| {
        let id = format!("projects/bench-7/managedZones/{z}/rrsets/{n}.ex.com./A");
        rrset(n, z).external_name(&id).at_provider_id(&id).healthy()
    };
    peers_of(&[ok("r1", "z"), ok("r2", "z"), ok("r3", "y"), rrset("broken", "z")])
}

#[test]
fn predictions() {
    let peers = rrset_peers();
    let user = |s: &str| vec![s.parse::<UserTemplate>().unwrap()];
    // (case, MR, user templates, Ok(predicted id, evidence part) or Err(reason part))
    let cases: Vec<(&str, Mr, Vec<UserTemplate>, Result<(&str, &str), &str>)> = vec![
        (
            "peer template",
            rrset("r9", "z"),
            vec![],
            Ok((
                "projects/bench-7/managedZones/z/rrsets/r9.ex.com./A",
                "template `projects/bench-7/managedZones/{forProvider.managedZone}/rrsets/{forProvider.name}/{forProvider.type}`, agreed by 3 of 3 healthy RecordSets; their status.atProvider.id equals the external-name; `bench-7` is the same",
            )),
        ),
        (
            "ambiguous: name and forProvider.name disagree on this MR",
            rrset("r9", "z").param("name", "other.ex.com."),
            vec![],
            Err("ambiguous: 2 templates fit 3 of 3 healthy RecordSets but disagree here"),
        ),
        (
            "a field the template reads is missing",
            Mr::new("RecordSet", "bare"),
            vec![],
            Err("which this MR does not set"),
        ),
        ("no peers of the kind", Mr::new("Zone", "z"), vec![], Err("no ID predicted: 0 healthy Zones")),
        ("a user template wins", rrset("r9", "z"), user("recordset={name}"), Ok(("r9", "given with --id-template"))),
        (
            "a user template for another group does not apply",
            Mr::new("Zone", "z"),
            user("zone.other.io={name}"),
            Err("0 healthy Zones"),
        ),
        (
            "a user template reading the provider config",
            Mr::new("Zone", "z"),
            user("zone=projects/{providerConfig.project}/{name}"),
            Err("reads providerConfig.project, which this MR does not set (write the provider config's value"),
        ),
    ];
    for (what, mr, users, want) in cases {
        match (predict(&mr.build(), &peers, &users), want) {
            (Prediction::Predicted(c), Ok((id, evidence))) => {
                assert_eq!(c.id, id, "{what}");
                assert!(c.evidence.contains(evidence), "{what}: {}", c.evidence);
            }
            (Prediction::None(why), Err(reason)) => assert!(why.contains(reason), "{what}: {why}"),
            (got, want) => panic!("{what}: got {got:?}, want {want:?}"),
        }
    }
}

#[test]
fn provider_assigned_ids_are_never_predicted() {
    let secret = |n: &str, suffix: &str| {
        Mr::new("Secret", n)
            .param("name", n)
            .param("region", "eu-west-1")
            .external_name(&format!("arn:aws:secretsmanager:eu-west-1:1111:secret:{n}-{suffix}"))
            .healthy()
    };
    let peers = peers_of(&[secret("a", "AbCdEf"), secret("b", "x9Y8z7"), secret("c", "Qq1Ww2")]);
    let Prediction::None(why) = predict(&Mr::new("Secret", "d").param("name", "d").build(), &peers, &[]) else {
        panic!("predicted a provider-assigned ID")
    };
    assert!(why.starts_with("provider-assigned: the external-names of 3 healthy Secrets"), "{why}");
}

#[test]
fn fill_completes_only_untracked_findings_without_an_id() {
    let peers = rrset_peers();
    let mr = rrset("r9", "z").build();
    let mut findings = vec![
        Finding::new(Code::AlreadyExists, "m", "n"),
        Finding::new(Code::ExternalNameMissing, "m", "n").suggest(Some("from-status")),
        Finding::new(Code::CreateFailed, "m", "n"),
    ];
    fill(&mut findings, &mr, &peers, &[]);
    assert_eq!(findings[0].suggested_id.as_deref(), Some("projects/bench-7/managedZones/z/rrsets/r9.ex.com./A"));
    assert!(findings[0].evidence[EVIDENCE_KEY].ends_with("(peer template, medium confidence)"));
    assert_eq!(findings[1].suggested_id.as_deref(), Some("from-status"));
    assert!(findings[1].evidence.is_empty() && findings[2].evidence.is_empty() && findings[2].suggested_id.is_none());
}

/// Peers under two provider configs (two GCP projects) write two constants: each MR is predicted
/// from its own provider config's peers, keyed by (kind, namespace, name) — team-a's ProviderConfig
/// `default` is not the ClusterProviderConfig `default`.
#[test]
fn peers_under_another_provider_config_do_not_decide() {
    let ok = |n: &str, project: &str, kind: &str, ns: &str| {
        let id = format!("projects/{project}/managedZones/z/rrsets/{n}.ex.com./A");
        rrset(n, "z")
            .namespace(ns)
            .provider_config(Some(kind), "default")
            .external_name(&id)
            .at_provider_id(&id)
            .healthy()
    };
    let cluster = |n: &str| ok(n, "shared-1", "ClusterProviderConfig", "team-a");
    let team_a = |n: &str| ok(n, "team-a-7", "ProviderConfig", "team-a");
    let peers = peers_of(&[
        cluster("c1"),
        cluster("c2"),
        cluster("c3"),
        cluster("c4"),
        team_a("a1"),
        team_a("a2"),
        team_a("a3"),
    ]);
    for (kind, want) in [("ProviderConfig", "team-a-7"), ("ClusterProviderConfig", "shared-1")] {
        let mr = rrset("lost", "z").namespace("team-a").provider_config(Some(kind), "default").build();
        let Prediction::Predicted(c) = predict(&mr, &peers, &[]) else { panic!("{kind}: nothing predicted") };
        assert_eq!(c.id, format!("projects/{want}/managedZones/z/rrsets/lost.ex.com./A"), "{kind}");
    }
}
