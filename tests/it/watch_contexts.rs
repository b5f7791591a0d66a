//! `kubectl upjet watch` over several contexts: two in-process API servers (and a context
//! nothing answers) under one watch, one metrics server, one journal folder per context.

use crate::multi_cluster::{closed_port, kubeconfig};
use crate::support::{Cluster, Upjet};
use crate::watch::{BUCKET, Watch, bucket, journal_ids};

fn cluster_with(stuck: &str) -> Cluster {
    let cluster = Cluster::builder().crd_files("provider-upjet-aws", &[BUCKET]).start();
    cluster.add(bucket("healthy").json());
    cluster.add(bucket(stuck).create_incomplete().json());
    cluster
}

fn finding_of(body: &str, context: &str, name: &str) -> bool {
    body.lines().any(|l| {
        l.starts_with(&format!("upjet_managed_resource_finding{{context=\"{context}\",code=\"CreateIncomplete\""))
            && l.contains(&format!("name=\"{name}\""))
    })
}

#[test]
fn two_clusters_under_one_watch_each_named_in_events_metrics_and_its_own_journal() {
    let (a, b) = (cluster_with("stuck-a"), cluster_with("stuck-b"));
    let kc = kubeconfig(a.dir(), &[("a", &a.server.url), ("b", &b.server.url)], "a");
    let mut run = Upjet::with_home(a.dir());
    run.env("KUBECONFIG", &kc);
    let mut w = Watch::spawn(&mut run, &["-o", "json", "--context", "a", "--context", "b"]);
    w.wait_ready();
    let mut seen: Vec<(String, String)> = (0..2)
        .map(|_| w.event_until(|e| e["event"] == "appeared" && e["code"] == "CreateIncomplete"))
        .map(|e| (e["context"].as_str().unwrap().to_string(), e["name"].as_str().unwrap().to_string()))
        .collect();
    seen.sort();
    assert_eq!(seen, [("a".into(), "stuck-a".into()), ("b".into(), "stuck-b".into())]);

    let body = w.metrics_until(|b| finding_of(b, "a", "stuck-a") && finding_of(b, "b", "stuck-b"));
    assert!(!finding_of(&body, "a", "stuck-b") && !finding_of(&body, "b", "stuck-a"), "{body}");
    for context in ["a", "b"] {
        assert!(body.contains(&format!("upjet_watch_synced{{context=\"{context}\"}} 1")), "{body}");
        let managed =
            format!("upjet_managed_resources{{context=\"{context}\",group=\"s3.aws.upbound.io\",kind=\"Bucket\"}} 2");
        assert!(body.contains(&managed), "{body}");
    }
    assert_eq!(body.matches("# TYPE upjet_watch_synced gauge").count(), 1, "one family per name:\n{body}");
    assert!(!body.lines().any(|l| l.starts_with("upjet_watch_kinds ")), "every series names its context:\n{body}");
    assert!(w.terminate().success());

    let journals = a.dir().join(".kube/upjet/journal");
    let names =
        |ctx: &str| -> Vec<String> { journal_ids(&journals.join(ctx)).into_iter().map(|(n, _, _)| n).collect() };
    assert!(
        names("a").contains(&"stuck-a".to_string()) && !names("a").contains(&"stuck-b".to_string()),
        "{:?}",
        names("a")
    );
    assert!(
        names("b").contains(&"stuck-b".to_string()) && !names("b").contains(&"stuck-a".to_string()),
        "{:?}",
        names("b")
    );
}

#[test]
fn a_context_nothing_answers_is_named_unsynced_and_the_others_go_on() {
    let a = cluster_with("stuck-a");
    let down = closed_port();
    let kc = kubeconfig(a.dir(), &[("a", &a.server.url), ("down", &down)], "a");
    let mut run = Upjet::with_home(a.dir());
    run.env("KUBECONFIG", &kc);
    let mut w = Watch::spawn(&mut run, &["--all-contexts"]);
    w.stderr_until(|l| l.starts_with("down: cannot watch this context:") && l.contains("the others go on"));
    let header = w.line_until(|_| true);
    assert!(header.starts_with("CONTEXT ") && header.contains("TIME"), "{header}");
    let line = w.line_until(|l| l.contains("stuck-a") && l.contains("CreateIncomplete"));
    assert!(line.starts_with("a  ") && line.contains("APPEARED"), "{line}");
    let body = w.metrics_until(|b| finding_of(b, "a", "stuck-a") && b.contains("upjet_watch_synced{context=\"a\"} 1"));
    assert!(body.contains("upjet_watch_synced{context=\"down\"} 0"), "{body}");
    let (status, why) = w.get("/readyz");
    assert_eq!(status, 503, "ready waits for every context");
    assert!(why.contains("down") && !why.contains("a,"), "{why}");
    assert!(w.terminate().success());
}
