//! Every doctor flow and every refusal, row by row: the flags as typed, whether several contexts
//! were given, and what resolution must decide. Paths ending in `.tar.gz` or `-backup/` are
//! backups, paths ending in `/` are folders, `-` and paths starting `repo` hold manifests:
//! resolution never touches the disk.

use super::super::Refusal;
use super::*;
use crate::cli::{Cli, Command};
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
    let one = |target: &str, from: Option<&str>, source: Option<&str>| {
        Flow::OneMr(OneMr {
            target: target.into(),
            from: from.map(PathBuf::from),
            source_context: source.map(Into::into),
            in_backup: from.is_some_and(|f| kind_of(Path::new(f)).backup),
        })
    };
    let backup =
        |path: &str, source: Option<&str>| Flow::Backup { path: path.into(), source_context: source.map(Into::into) };
    for (words, several, want) in [
        (&[][..], false, Flow::Cluster),
        (&["--logs", "--inventory", "inv.json", "--cloud-audit", "trail.json"][..], false, Flow::Cluster),
        (&["vpc/main"][..], false, one("vpc/main", None, None)),
        (&["vpc/main", "--from", "fleet.json"][..], false, one("vpc/main", Some("fleet.json"), None)),
        (
            &["vpc/main", "--from", "nightly.tar.gz", "--source-context", "prod"][..],
            false,
            one("vpc/main", Some("nightly.tar.gz"), Some("prod")),
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

/// What the flags build besides the flow: the scan, the evidence and fleet-wide sources, the
/// filter, the printer and the exit rule, each from its flags alone.
#[test]
fn the_flags_build_each_collaborator_once() {
    let resolve = |words: &[&str], home: Option<&str>| {
        let cli = Cli::try_parse_from(["kubectl-upjet", "doctor"].iter().chain(words)).expect("parses");
        let env = crate::settings::Environment { home: home.map(Into::into), ..Default::default() };
        let settings = crate::settings::Settings::resolve(&cli, &env, std::time::UNIX_EPOCH, Default::default());
        let Command::Doctor(args) = cli.command else { unreachable!("doctor") };
        Doctor::resolve(&args, &settings, kind_of).expect("resolves")
    };
    let d = resolve(
        &["-n", "team-a", "--kind", "vpc", "--concurrency", "4", "--logs", "--log-file", "p.log", "--since", "2m"],
        Some("/home/u"),
    );
    assert_eq!((d.scan.lists.namespace.as_deref(), d.scan.lists.concurrency), (Some("team-a"), 4));
    assert_eq!(d.scan.select.kinds, ["vpc"]);
    assert_eq!(d.scan.cache.dir, Some("/home/u/.kube/cache/upjet/discovery".into()));
    assert!(d.evidence.provider_logs && d.evidence.logs.limits.since_seconds == Some(120));
    assert_eq!(
        (&d.printer.output, d.printer.chosen, &d.printer.scope.log_files),
        (&DoctorOutput::Human(Human::Table), false, &vec!["p.log".into()])
    );
    assert_eq!(d.at.reconcile_timeout.secs(), 180, "upjet's reconcile timeout without --create-timeout");
    assert_eq!(d.exit, ExitRule { fail_on: Some(Severity::Error), fail_on_incomplete: false });
    let d = resolve(
        &["-A", "-n", "x", "-o", "name", "--severity", "warning", "--fail-on", "never", "--cloud-audit", "t.json"],
        None,
    );
    assert_eq!((d.scan.lists.namespace, d.scan.cache.dir), (None, None), "-A wins; no home, no cache");
    assert_eq!(
        (&d.printer.output, d.printer.chosen),
        (&DoctorOutput::Document(Document::Form(crate::cli::output::FormSpec::Name)), true)
    );
    assert_eq!((d.filter.min_severity, d.exit.fail_on), (Some(Severity::Warning), None));
    assert_eq!(d.fleet.cloud.files, [PathBuf::from("t.json")]);
    let judged = resolve(&["--create-timeout", "5m"], None).at;
    assert_eq!(judged.reconcile_timeout.secs(), 300, "--create-timeout is resolved with doctor's flags");
    let named = resolve(&["--from", "prod.json", "--from", "staging/"], None);
    assert_eq!(named.printer.scope.snapshots, named.flow.snapshot_names(), "the summary names each cluster's --from");
}

/// Every `-o` doctor takes, and what it prints: for a person or a document, a form with its spec.
#[test]
fn every_output_is_a_human_view_or_a_document() {
    use crate::cli::output::FormSpec;
    let output = |words: &[&str]| DoctorOutput::of(doctor(words).output.as_ref());
    for (words, want) in [
        (&[][..], DoctorOutput::Human(Human::Table)),
        (&["-o", "table"][..], DoctorOutput::Human(Human::Table)),
        (&["-o", "wide"][..], DoctorOutput::Human(Human::Wide)),
        (&["-o", "summary"][..], DoctorOutput::Human(Human::Summary)),
        (&["-o", "json"][..], DoctorOutput::Document(Document::Json)),
        (&["-o", "yaml"][..], DoctorOutput::Document(Document::Yaml)),
        (&["-o", "sarif"][..], DoctorOutput::Document(Document::Sarif)),
        (&["-o", "junit"][..], DoctorOutput::Document(Document::Junit)),
        (&["-o", "html"][..], DoctorOutput::Document(Document::Html)),
        (&["-o", "name"][..], DoctorOutput::Document(Document::Form(FormSpec::Name))),
    ] {
        assert_eq!(output(words), want, "{words:?}");
    }
    let jsonpath = DoctorOutput::Document(Document::Form(FormSpec::JsonPath("{.summary}".into())));
    assert_eq!(output(&["-o", "jsonpath={.summary}"]), jsonpath, "the form keeps its template");
}
