//! Interactive `adopt`: the prompts driven by a scripted prompter (library level, against the
//! in-process API server), and one end-to-end run of the real binary in a tmux terminal.

use crate::support::adopt::*;
use crate::support::{Cluster, Mr, text};
use kubectl_upjet::cli::{Cli, Command};
use kubectl_upjet::commands::adopt::{Interrupt, Ui, run_with};
use kubectl_upjet::settings::{Environment, Settings, Terminal};
use serde_json::{Value, json};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;
use std::time::{Duration, Instant};
use upjet_core::error::Exit;
use upjet_local::prompt::{Answer, ScriptedPrompter};

fn cluster() -> Cluster {
    Cluster::builder().crd_files("provider-upjet-gcp", &["dns.gcp.upbound.io_recordsets.yaml"]).start()
}

/// An orphan whose provider saw `www-A`, plus an Event that remembers an older name `www-B`.
fn seed(c: &Cluster) -> Value {
    let mr = c.add(
        Mr::provisioned(RS, "RecordSet", "www")
            .without_annotation(EXT)
            .create_incomplete()
            .at_provider_id("www-A")
            .json(),
    );
    c.add(json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {"name": "www.17a", "namespace": "default", "annotations": {"external-name": "www-B"}},
        "involvedObject": {"apiVersion": RS, "kind": "RecordSet", "name": "www", "uid": mr["metadata"]["uid"]},
        "reason": "CreatedExternalResource", "message": "Successfully requested creation of external resource",
        "type": "Normal", "lastTimestamp": "2024-11-30T11:00:05Z"
    }));
    mr
}

#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Buf {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// Runs `adopt` in-process with scripted answers; returns (result, stdout, stderr, transcript).
fn scripted(c: &Cluster, extra: &[&str], answers: Vec<Answer>) -> (anyhow::Result<Exit>, String, String, Vec<String>) {
    let kc = c.kubeconfig();
    let backups = c.dir().join("backups");
    let mut argv = vec![
        "kubectl-upjet",
        "adopt",
        TARGET,
        "--kubeconfig",
        kc.to_str().unwrap(),
        "--backup-dir",
        backups.to_str().unwrap(),
        "--timeout",
        "30s",
    ];
    argv.extend_from_slice(extra);
    let cli = <Cli as clap::Parser>::try_parse_from(argv).unwrap();
    let Command::Adopt(args) = &cli.command else { panic!("adopt") };
    let prompter = ScriptedPrompter::new(answers);
    let err = Buf::default();
    let mut ui = Ui {
        prompter: Box::new(prompter.clone()),
        interactive: true,
        err: Box::new(err.clone()),
        interrupt: Interrupt::default(),
    };
    let mut out = Vec::new();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let settings = Settings::resolve(&cli, &Environment::default(), SystemTime::now(), Terminal::default());
    let r = rt.block_on(run_with(&settings, args, &mut out, &mut ui));
    (r, String::from_utf8_lossy(&out).into_owned(), err.text(), prompter.transcript())
}

#[test]
fn pick_a_candidate_see_the_changes_and_confirm() {
    let c = cluster();
    seed(&c);
    provider(&c.api, Provider { cloud: vec!["www-A".into(), "www-B".into()], handles_token: true });
    let (r, out, err, transcript) = scripted(&c, &["--import"], vec![Answer::Pick(1), Answer::Confirm(true)]);
    assert!(matches!(r, Ok(Exit::Ok)), "{r:?}\n{err}");
    let t = transcript.join("\n");
    // The evidence: doctor's suggestion (status.atProvider.id) first, the event's name second.
    // ExternalNameMissing's ID is observed (the MR's own atProvider.id): it names the candidate.
    assert!(t.contains("  0) www-A  [doctor ExternalNameMissing]"), "{t}");
    assert!(t.contains("; also doctor CreateIncomplete; also status.atProvider.id"), "{t}");
    assert!(t.contains("  1) www-B  [event CreatedExternalResource] external-name on a CreatedExternalResource event at 2024-11-30T11:00:05Z"), "{t}");
    assert!(t.contains("> www-B"), "{t}");
    assert!(t.contains("? Adopt recordset.dns.gcp.upbound.io/www as \"www-B\"? [y/N]\n> yes"), "{t}");
    // The MR's state was shown before the question, and exactly what changes before the confirmation.
    assert!(err.contains("External name:   <none>") && err.contains("CreateIncomplete"), "{err}");
    assert!(err.contains("metadata.annotations[crossplane.io/external-name]: <none> -> \"www-B\""), "{err}");
    assert!(out.contains("External name:   www-B"), "{out}");
    assert_eq!(a(&c.api.get(RS, "RecordSet", None, "www").unwrap(), EXT), Some("www-B"));
    println!("--- stderr ---\n{err}--- prompts ---\n{t}\n--- stdout ---\n{out}");
}

#[test]
fn typed_id_and_a_no_change_nothing() {
    let c = cluster();
    let original = seed(&c);
    let (r, _, err, transcript) = scripted(&c, &[], vec![Answer::Type("typed-id".into()), Answer::Confirm(false)]);
    let e = r.unwrap_err();
    assert_eq!(kubectl_upjet::commands::exit::exit_for(&e), Exit::Failed);
    assert_eq!(kubectl_upjet::commands::exit::one_line(&e), "cancelled; nothing changed");
    assert!(err.contains("\"typed-id\""), "{err}");
    assert!(transcript.join("\n").contains("> typed-id"));
    assert_eq!(c.api.get(RS, "RecordSet", None, "www").unwrap(), original);
    // Cancelling the choice changes nothing either.
    let (r, ..) = scripted(&c, &[], vec![Answer::Cancel]);
    assert_eq!(kubectl_upjet::commands::exit::one_line(&r.unwrap_err()), "cancelled; nothing changed");
    assert_eq!(c.api.get(RS, "RecordSet", None, "www").unwrap(), original);
}

#[test]
fn a_conflict_is_shown_and_asked_again() {
    let c = cluster();
    seed(&c);
    provider(&c.api, Provider { cloud: vec!["www-A".into()], handles_token: true });
    // Hold the first write; meanwhile someone marks a failed create.
    c.api.fault(testapi::Fault::Delay { path_contains: "fieldManager=kubectl-upjet".into(), millis: 1500 });
    let api = c.api.clone();
    let writer = std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if api.stats().recent.iter().any(|(m, p)| m == "PATCH" && p.contains("fieldManager")) {
                let mut o = api.get(RS, "RecordSet", None, "www").unwrap();
                o["metadata"]["annotations"]["crossplane.io/external-create-failed"] = json!("2024-11-30T11:00:09Z");
                api.insert(o);
                api.clear_faults();
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    });
    let (r, _, err, transcript) = scripted(&c, &["--id", "www-A"], vec![Answer::Confirm(true), Answer::Confirm(true)]);
    writer.join().unwrap();
    assert!(matches!(r, Ok(Exit::Ok)), "{r:?}\n{err}");
    assert!(err.contains("was changed by someone else meanwhile"), "{err}");
    assert!(
        err.contains("metadata.annotations[crossplane.io/external-create-failed]: <none> -> \"2024-11-30T11:00:09Z\""),
        "{err}"
    );
    assert_eq!(transcript.iter().filter(|l| l.starts_with("? Adopt")).count(), 2, "asked again: {transcript:?}");
    let now = c.api.get(RS, "RecordSet", None, "www").unwrap();
    assert_eq!(a(&now, EXT), Some("www-A"));
    assert_eq!(a(&now, "crossplane.io/external-create-failed"), None, "the re-plan also cleared the new failed mark");
}

fn tmux(socket: &str, args: &[&str]) -> std::process::Output {
    std::process::Command::new("tmux").arg("-L").arg(socket).args(args).output().expect("tmux runs")
}

/// The real binary on a real terminal: pick the first candidate with Enter, confirm with `y`.
#[test]
fn end_to_end_in_tmux() {
    if std::process::Command::new("tmux").arg("-V").output().map(|o| !o.status.success()).unwrap_or(true) {
        eprintln!("tmux is not installed; skipping");
        return;
    }
    let c = cluster();
    seed(&c);
    provider(&c.api, Provider { cloud: vec!["www-A".into()], handles_token: true });
    let mut upjet = c.upjet();
    upjet.env("TERM", "xterm");
    let script = c.dir().join("run.sh");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\n{}\n'{}' adopt {TARGET} --import --backup-dir '{}'\necho \"EXIT=$?\"\nsleep 60\n",
            upjet.shell_exports(),
            upjet.program().display(),
            c.dir().join("backups").display()
        ),
    )
    .unwrap();
    let socket = format!("upjet-test-{}", std::process::id());
    let o = tmux(
        &socket,
        &["new-session", "-d", "-s", "adopt", "-x", "220", "-y", "60", &format!("sh {}", script.display())],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let capture = || text(&tmux(&socket, &["capture-pane", "-p", "-J", "-S", "-", "-t", "adopt"]).stdout);
    let wait_for = |needle: &str| -> String {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let screen = capture();
            if screen.contains(needle) {
                return screen;
            }
            if Instant::now() > deadline {
                tmux(&socket, &["kill-server"]);
                panic!("{needle:?} never appeared:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    wait_for("Which cloud object should this MR track?");
    tmux(&socket, &["send-keys", "-t", "adopt", "Enter"]);
    wait_for("[y/N]");
    tmux(&socket, &["send-keys", "-t", "adopt", "y"]);
    let screen = wait_for("EXIT=");
    tmux(&socket, &["kill-server"]);
    println!("--- tmux screen ---\n{screen}");
    assert!(screen.contains("EXIT=0"), "{screen}");
    assert!(
        screen.contains("www-A  [doctor ExternalNameMissing] no external-name although"),
        "evidence shown: {screen}"
    );
    assert!(
        screen.contains("? www-A  [doctor ExternalNameMissing]\n")
            || screen.contains(": www-A  [doctor ExternalNameMissing]\n"),
        "picked: {screen}"
    );
    assert!(screen.contains("[6/6] wait until Synced=True and Ready=True"), "{screen}");
    let now = c.api.get(RS, "RecordSet", None, "www").unwrap();
    assert_eq!((a(&now, EXT), a(&now, PAUSED), a(&now, MARKER)), (Some("www-A"), None, None));
}

#[test]
fn provider_logs_and_workspace_offer_candidates() {
    let c = cluster();
    let mr = seed(&c);
    let uid = mr["metadata"]["uid"].as_str().unwrap();
    c.add(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "provider-gcp-dns-1", "namespace": "crossplane-system",
                     "labels": {"pkg.crossplane.io/provider": "provider-gcp-dns"}},
        "spec": {"containers": [{"name": "package-runtime"}]},
        "status": {"startTime": "2024-11-30T09:00:00Z",
                   "containerStatuses": [{"name": "package-runtime", "restartCount": 0, "state": {"running": {"startedAt": "2024-11-30T09:00:00Z"}}}]}}));
    c.api.set_pod_log("crossplane-system", "provider-gcp-dns-1", "package-runtime", false, &format!(
        "2024-11-30T11:00:07Z\tDEBUG\tprovider-gcp\tAsync create ended.\t{{\"trackerUID\": \"{uid}\", \"resourceName\": \"www\", \"tfID\": \"www-C\"}}\n"));
    c.api.set_exec_file(
        "crossplane-system",
        "provider-gcp-dns-1",
        &format!("/tmp/{uid}/terraform.tfstate"),
        &json!({"version": 4, "resources": [{"instances": [{"attributes": {"id": "www-D"}}]}]}).to_string(),
    );
    provider(&c.api, Provider { cloud: vec!["www-A".into(), "www-C".into()], handles_token: true });
    let (r, _, err, transcript) = scripted(&c, &["--import"], vec![Answer::Pick(2), Answer::Confirm(true)]);
    assert!(matches!(r, Ok(Exit::Ok)), "{r:?}\n{err}");
    let t = transcript.join("\n");
    assert!(t.contains("  2) www-C  [logged as created]") && t.contains("also last provider-logged ID"), "{t}");
    assert!(
        t.contains("www-D  [Terraform workspace] terraform.tfstate in crossplane-system/provider-gcp-dns-1"),
        "{t}"
    );
    assert!(t.contains("www-A") && t.contains("www-B"), "the object's own evidence stays: {t}");
    assert_eq!(a(&c.api.get(RS, "RecordSet", None, "www").unwrap(), EXT), Some("www-C"));
}
