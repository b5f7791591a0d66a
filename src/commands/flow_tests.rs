//! Every doctor flow and every refusal, row by row: the flags as typed, whether several contexts
//! were given, and what resolution must decide. Paths ending in `.tar.gz` or `-backup/` are
//! backups, paths ending in `/` are folders, `-` and paths starting `repo` hold manifests:
//! resolution never touches the disk.

use super::*;
use crate::cli::Cli;
use clap::Parser;

fn doctor(words: &[&str]) -> DoctorArgs {
    let argv = ["kubectl-upjet", "doctor"].iter().chain(words);
    match Cli::try_parse_from(argv).expect("the row's flags parse").command {
        Command::Doctor(args) => *args,
        other => panic!("not doctor: {other:?}"),
    }
}

/// What each path is, read from its spelling.
fn kind_of(path: &Path) -> PathKind {
    let s = path.to_string_lossy();
    let backup = s.ends_with(".tar.gz") || s.ends_with("-backup/");
    PathKind { backup, folder: s.ends_with('/'), manifests: s == "-" || s.starts_with("repo") }
}

fn resolve(words: &[&str], several_contexts: bool) -> Result<Flow, Refusal> {
    Flow::of_doctor(&doctor(words), several_contexts, kind_of)
}

fn named(name: &str, path: &str, backup: bool) -> NamedInput {
    NamedInput { name: name.into(), path: path.into(), backup }
}

#[test]
fn every_flow_is_resolved_from_its_flags() {
    let lint = |paths: &[&str]| Flow::Lint(paths.iter().map(PathBuf::from).collect());
    let one = |target: &str, from: Option<&str>| Flow::OneMr { target: target.into(), from: from.map(PathBuf::from) };
    let backup =
        |path: &str, source: Option<&str>| Flow::Backup { path: path.into(), source_context: source.map(Into::into) };
    for (words, several, want) in [
        (&[][..], false, Flow::Cluster),
        (&["--logs", "--inventory", "inv.json", "--cloud-audit", "trail.json"][..], false, Flow::Cluster),
        (&["vpc/main"][..], false, one("vpc/main", None)),
        (&["vpc/main", "--from", "fleet.json"][..], false, one("vpc/main", Some("fleet.json"))),
        (
            &["vpc/main", "--from", "nightly.tar.gz", "--source-context", "prod"][..],
            false,
            one("vpc/main", Some("nightly.tar.gz")),
        ),
        (&["--from", "fleet.json", "--inventory", "inv.json"][..], false, Flow::Snapshot("fleet.json".into())),
        (&["--from", "nightly.tar.gz"][..], false, backup("nightly.tar.gz", None)),
        (
            &["--from", "nightly-backup/", "--source-context", "prod"][..],
            false,
            backup("nightly-backup/", Some("prod")),
        ),
        (&["--from", "-"][..], false, lint(&["-"])),
        (&["--from", "repo/", "--kind", "vpc"][..], false, lint(&["repo/"])),
        (&["--from", "repo/a.yaml", "--from", "repo/b/"][..], false, lint(&["repo/a.yaml", "repo/b/"])),
        (&["--from", "-", "--from", "repo/", "-o", "sarif"][..], false, lint(&["-", "repo/"])),
        (&["--logs"][..], true, Flow::Contexts),
        (
            &["--from", "prod.json", "--from", "staging/", "--from", "nightly.tar.gz"][..],
            false,
            Flow::Snapshots(vec![
                named("prod", "prod.json", false),
                named("staging", "staging/", false),
                named("nightly", "nightly.tar.gz", true),
            ]),
        ),
    ] {
        assert_eq!(resolve(words, several), Ok(want), "{words:?} several contexts: {several}");
    }
}

#[test]
fn every_refused_combination_is_refused_before_anything_is_read() {
    use Refusal::*;
    let clash = "a/prod.json and b/prod.json both name the cluster \"prod\": one snapshot per cluster, named after the file or folder";
    for (words, several, want) in [
        (&["--logs", "--from", "fleet.json"][..], false, LogsOffline),
        (&["vpc/main", "--inventory", "inv.json"][..], false, InventoryForOneMr),
        (
            &["--source-context", "prod", "--from", "a.tar.gz", "--from", "b.tar.gz"][..],
            false,
            SourceContextWithoutOneBackup,
        ),
        (
            &["--source-context", "prod", "--from", "fleet.json"][..],
            false,
            SourceContextNotABackup("fleet.json".into()),
        ),
        (&["--from", "fleet.json"][..], true, SnapshotsAndContexts),
        (&["vpc/main"][..], true, OneMrInSeveralClusters),
        (&["vpc/main", "--from", "a.json", "--from", "b.json"][..], false, OneMrInSeveralClusters),
        (&["--inventory", "inv.json"][..], true, InventoryForSeveralClusters),
        (
            &["--from", "a.json", "--from", "b.json", "--cloud-audit", "trail.json"][..],
            false,
            CloudAuditForSeveralClusters,
        ),
        (&["--log-file", "provider.log"][..], true, LogFileForSeveralClusters),
        (&["--from", "a/prod.json", "--from", "b/prod.json"][..], false, SnapshotNames(clash.into())),
        (&["--from", "-", "--inventory", "inv.json"][..], false, EvidenceForManifests("--inventory")),
        (&["--from", "repo/", "--log-file", "p.log"][..], false, EvidenceForManifests("--log-file")),
        (&["--from", "repo/", "--audit-log", "a.log"][..], false, EvidenceForManifests("--audit-log")),
        (&["--from", "-", "--cloud-audit", "trail.json"][..], false, EvidenceForManifests("--cloud-audit")),
        (&["--from", "-", "--target-context", "dr"][..], false, EvidenceForManifests("--target-context")),
        (
            &["--from", "repo/", "--from", "repo2/", "--log-file", "p.log"][..],
            false,
            EvidenceForManifests("--log-file"),
        ),
        (
            &["--from", "repo/", "--from", "fleet.json"][..],
            false,
            ManifestsAndSnapshots { manifests: "repo/".into(), snapshot: "fleet.json".into() },
        ),
        (
            &["--from", "nightly.tar.gz", "--from", "prod.json", "--from", "-"][..],
            false,
            ManifestsAndSnapshots { manifests: "-".into(), snapshot: "nightly.tar.gz".into() },
        ),
        // Two rules broken at once: the first in the fixed order is the one reported.
        (&["--logs", "--from", "fleet.json"][..], true, LogsOffline),
        (&["vpc/main", "--inventory", "inv.json"][..], true, InventoryForOneMr),
        (&["--inventory", "inv.json", "--log-file", "provider.log"][..], true, InventoryForSeveralClusters),
    ] {
        assert_eq!(resolve(words, several), Err(want), "{words:?} several contexts: {several}");
    }
}

#[test]
fn refusals_read_as_usage_errors_naming_what_to_do() {
    let e: crate::error::Error = Refusal::SourceContextNotABackup("fleet.json".into()).into();
    assert_eq!(crate::error::exit_for(&e.into()), crate::error::Exit::Usage);
    assert_eq!(
        Refusal::SourceContextNotABackup("fleet.json".into()).to_string(),
        "--source-context compares a Velero backup with its source cluster; fleet.json is not a backup"
    );
    assert_eq!(
        Refusal::SeveralClusters("history").to_string(),
        "history acts on one cluster: give at most one --context (several clusters and --all-contexts are for doctor)"
    );
}

#[test]
fn only_doctor_and_restore_plan_scan_several_clusters() {
    let cli = |words: &[&str]| Cli::try_parse_from(["kubectl-upjet"].iter().chain(words)).expect("parses").command;
    for (words, refused) in [
        (&["history", "vpc/main"][..], Some("history")),
        (&["rbac"][..], Some("rbac")),
        (&["doctor"][..], None),
        (&["restore-plan", "b.tar.gz", "--modifiers", "m.yaml", "--plan", "p.json"][..], None),
    ] {
        assert_eq!(one_cluster_only(&cli(words), true).err(), refused.map(Refusal::SeveralClusters), "{words:?}");
        assert_eq!(one_cluster_only(&cli(words), false), Ok(()), "{words:?} with one context");
    }
}
