//! Interrupting `adopt` at every step boundary (an abrupt exit through the test hook, and a real
//! Ctrl-C): the stored MR must be as it was, paused with its backup printed, observing only with
//! its identity complete (import phase), or fully adopted — never unpaused with a half-written
//! identity. Afterwards a re-run finishes the adoption and `restore` brings back the original.

use crate::support::adopt::*;
use crate::support::{Cluster, Mr, Upjet};
use serde_json::{Value, json};
use std::process::Stdio;
use std::time::{Duration, Instant};

fn cluster() -> Cluster {
    Cluster::builder().crd_files("provider-upjet-gcp", &["dns.gcp.upbound.io_recordsets.yaml"]).start()
}

fn get(c: &Cluster) -> Value {
    c.api.get(RS, "RecordSet", None, "www").expect("stored")
}

#[derive(Debug, PartialEq, Eq, Clone, Copy)]
enum State {
    Original,
    PausedWithBackup,
    ObservingWithIdentity,
    Adopted,
}

/// Which of the allowed states the stored MR is in; panics on anything else.
fn classify(original: &Value, now: &Value, id: &str, stderr: &str) -> State {
    if ann(now) == ann(original) && now["spec"] == original["spec"] {
        return State::Original;
    }
    let identity_complete = a(now, EXT) == Some(id) && a(now, PENDING).is_none();
    if a(now, PAUSED) == Some("true") {
        let backup = backup_path(stderr).unwrap_or_else(|| panic!("paused without a printed backup path:\n{stderr}"));
        assert!(backup.is_file(), "the printed backup exists: {}", backup.display());
        assert!(a(now, MARKER).is_some(), "a paused MR carries the adoption marker");
        return State::PausedWithBackup;
    }
    assert!(identity_complete, "unpaused with a half-written identity: {:?}", ann(now));
    if now["spec"]["managementPolicies"] == json!(["Observe"])
        && original["spec"]["managementPolicies"] != json!(["Observe"])
    {
        assert!(a(now, MARKER).is_some());
        return State::ObservingWithIdentity;
    }
    assert_eq!(a(now, MARKER), None, "adopted MRs carry no marker");
    assert_eq!(now["spec"], original["spec"], "adopted with the original policies");
    State::Adopted
}

fn adopt_cmd(c: &Cluster, import: bool) -> Upjet {
    let mut cmd = c.upjet();
    cmd.args(["adopt", TARGET, "--id", "www-A", "--yes", "--backup-dir"]).arg(c.dir().join("backups"));
    if import {
        cmd.arg("--import");
    }
    cmd
}

fn every_boundary(import: bool, expected: &[State]) {
    for (n, want) in expected.iter().enumerate() {
        let c = cluster();
        let original = c.add(
            Mr::provisioned(RS, "RecordSet", "www")
                .without_annotation(EXT)
                .create_incomplete()
                .at_provider_id("www-A")
                .json(),
        );
        provider(&c.api, Provider { cloud: vec!["www-A".into()], handles_token: true });
        let o = adopt_cmd(&c, import).env("UPJET_TEST_STOP_AFTER_STEP", n.to_string()).status(99).stderr_contains("Warnings:").stderr_contains("  2. set identity: crossplane.io/external-name = \"www-A\", declared to the guard (kubectl-upjet.io/identity-change); remove crossplane.io/external-create-pending (the create it guards is resolved by this adoption)").run();
        let err = &o.stderr;
        assert!(err.contains(&format!("stopping abruptly after step {n}")), "{err}");
        let state = classify(&original, &get(&c), "www-A", err);
        assert_eq!(state, *want, "import={import}, after step {n}");

        // A re-run finishes the adoption (and says nothing on stderr when it was done already).
        let mut rerun = adopt_cmd(&c, import);
        if *want != State::Adopted {
            rerun
                .stderr_contains("Warnings:")
                .stderr_contains("adopted recordset.dns.gcp.upbound.io/www: external-name \"www-A\"");
        }
        let o = rerun.run();
        let err2 = &o.stderr;
        assert_eq!(classify(&original, &get(&c), "www-A", err2), State::Adopted, "re-run after step {n}");
        if *want != State::Original {
            assert!(err2.contains("resuming the adoption") || *want == State::Adopted, "{err2}");
        }

        // And restore from the first run's backup brings back the original exactly.
        let backup = backup_path(err).expect("backup printed at step 0");
        c.upjet()
            .args(["restore", backup.to_str().unwrap(), "--yes"])
            .stderr_contains("  metadata.annotations[crossplane.io/external-name]: \"www-A\" -> <none>")
            .run();
        assert_as_original(&original, &get(&c), &format!("restored after step {n}"));
    }
}

#[test]
fn abrupt_stop_at_every_step_boundary_without_import() {
    use State::*;
    // 0 backup written | 1 pause | 2 identity | 3 unpause | 4 wait Ready
    every_boundary(false, &[Original, PausedWithBackup, PausedWithBackup, Adopted, Adopted]);
}

#[test]
fn abrupt_stop_at_every_step_boundary_with_import() {
    use State::*;
    // 0 backup | 1 pause | 2 identity | 3 observe-only+unpause | 4 wait import | 5 restore policies | 6 wait Ready
    every_boundary(
        true,
        &[Original, PausedWithBackup, PausedWithBackup, ObservingWithIdentity, ObservingWithIdentity, Adopted, Adopted],
    );
}

/// Starts the binary in the background with stderr captured to a file.
fn spawn(c: &Cluster, args: &[&str]) -> (std::process::Child, std::path::PathBuf) {
    spawn_with(c, args, &[])
}

/// [`spawn`] with extra environment variables (the test hooks).
pub(crate) fn spawn_with(
    c: &Cluster,
    args: &[&str],
    env: &[(&str, String)],
) -> (std::process::Child, std::path::PathBuf) {
    let log = c.dir().join(format!("stderr-{}.txt", std::process::id()));
    let file = std::fs::File::create(&log).unwrap();
    let child = c
        .upjet()
        .to_std()
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .args(args)
        .arg("--backup-dir")
        .arg(c.dir().join("backups"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(file)
        .spawn()
        .unwrap();
    (child, log)
}

pub(crate) fn until(what: &str, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(25));
    }
}

fn ctrl_c(child: &mut std::process::Child) -> i32 {
    let ok = std::process::Command::new("kill").arg("-INT").arg(child.id().to_string()).status().unwrap();
    assert!(ok.success());
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code().unwrap_or(-1);
        }
        assert!(Instant::now() < deadline, "the process did not stop after Ctrl-C");
        std::thread::sleep(Duration::from_millis(25));
    }
}

#[test]
fn ctrl_c_during_the_import_wait_pauses_it_again_with_original_policies() {
    let c = cluster();
    let original = c.add(
        Mr::provisioned(RS, "RecordSet", "www")
            .without_annotation(EXT)
            .create_incomplete()
            .at_provider_id("www-A")
            .json(),
    );
    // No provider yet: the wait for the import never ends by itself.
    let (mut child, log) = spawn(&c, &["adopt", TARGET, "--id", "www-A", "--import", "--yes", "--timeout", "60s"]);
    until("the observe-only phase", || {
        let o = get(&c);
        o["spec"]["managementPolicies"] == json!(["Observe"]) && a(&o, PAUSED).is_none()
    });
    let code = ctrl_c(&mut child);
    let err = std::fs::read_to_string(&log).unwrap();
    assert_eq!(code, 5, "{err}");
    assert!(err.contains("interrupted") && err.contains("is left paused"), "{err}");
    let now = get(&c);
    assert_eq!(classify(&original, &now, "www-A", &err), State::PausedWithBackup);
    assert_eq!(now["spec"], original["spec"], "original policies back");
    // Resume with the provider running.
    provider(&c.api, Provider { cloud: vec!["www-A".into()], handles_token: true });
    adopt_cmd(&c, true)
        .stderr_contains(
            "Adopt recordset.dns.gcp.upbound.io/www as ID \"www-A\" (--import: verified with Observe-only first)",
        )
        .stderr_contains("adopted recordset.dns.gcp.upbound.io/www: external-name \"www-A\"")
        .run();
    assert_eq!(classify(&original, &get(&c), "www-A", ""), State::Adopted);
}

#[test]
fn ctrl_c_during_the_final_wait_leaves_it_adopted() {
    let c = cluster();
    let original = c.add(
        Mr::provisioned(RS, "RecordSet", "www")
            .without_annotation(EXT)
            .create_incomplete()
            .at_provider_id("www-A")
            .json(),
    );
    let (mut child, log) = spawn(&c, &["adopt", TARGET, "--id", "www-A", "--yes", "--timeout", "60s"]);
    until("the unpause", || {
        let o = get(&c);
        a(&o, EXT) == Some("www-A") && a(&o, PAUSED).is_none()
    });
    let code = ctrl_c(&mut child);
    let err = std::fs::read_to_string(&log).unwrap();
    assert_eq!(code, 5, "{err}");
    assert!(err.contains("interrupted") && err.contains("is adopted"), "{err}");
    assert_eq!(classify(&original, &get(&c), "www-A", &err), State::Adopted);
}

#[test]
fn ctrl_c_before_the_first_write_changes_nothing() {
    let c = cluster();
    let original = c.add(
        Mr::provisioned(RS, "RecordSet", "www")
            .without_annotation(EXT)
            .create_incomplete()
            .at_provider_id("www-A")
            .json(),
    );
    // Hold the first read of the MR so the Ctrl-C lands before any write.
    c.api.fault(testapi::Fault::Delay { path_contains: "/recordsets/www".into(), millis: 1500 });
    let (mut child, log) = spawn(&c, &["adopt", TARGET, "--id", "www-A", "--yes"]);
    until("the first read", || c.api.stats().recent.iter().any(|(m, p)| m == "GET" && p.ends_with("/recordsets/www")));
    let code = ctrl_c(&mut child);
    let err = std::fs::read_to_string(&log).unwrap();
    assert_eq!(code, 5, "{err}");
    assert!(err.contains("interrupted; nothing changed"), "{err}");
    assert_eq!(get(&c), original);
    assert_eq!(c.api.stats().class("patch"), 0);
}

/// The server fails the Nth write (a 500 on PATCH), for every N the adoption makes: the MR ends
/// in an allowed state, and `restore` returns it to the original from any of them.
#[test]
fn server_failing_at_every_write_leaves_an_allowed_state() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    for import in [false, true] {
        // Without import the adoption writes 3 times (pause, identity, unpause); with import 4.
        let writes = if import { 4 } else { 3 };
        for fail_at in 1..=writes {
            let c = cluster();
            let original = c.add(
                Mr::provisioned(RS, "RecordSet", "www")
                    .without_annotation(EXT)
                    .create_incomplete()
                    .at_provider_id("www-A")
                    .json(),
            );
            provider(&c.api, Provider { cloud: vec!["www-A".into()], handles_token: true });
            let fail = testapi::Fault::Status {
                method: Some(testapi::Method::PATCH),
                path_contains: "recordsets/www".into(),
                code: 500,
                reason: "InternalError".into(),
                times: Some(1),
                retry_after_secs: None,
            };
            if fail_at == 1 {
                c.api.fault(fail.clone());
            }
            let (count, api) = (Arc::new(AtomicUsize::new(0)), c.api.clone());
            c.api.on_write(move |_| {
                if count.fetch_add(1, Ordering::SeqCst) + 2 == fail_at {
                    api.fault(fail.clone());
                }
            });
            // A failed write is not success.
            let o = adopt_cmd(&c, import).status(5).stderr_contains("Warnings:").stderr_contains("  2. set identity: crossplane.io/external-name = \"www-A\", declared to the guard (kubectl-upjet.io/identity-change); remove crossplane.io/external-create-pending (the create it guards is resolved by this adoption)").run();
            let err = &o.stderr;
            assert!(!err.contains("panicked"), "{err}");
            let state = classify(&original, &get(&c), "www-A", err);
            assert!(state != State::Adopted, "import={import} fail_at={fail_at}: {state:?}");
            if state != State::Original {
                let backup = backup_path(err).expect("backup printed");
                c.upjet()
                    .args(["restore", backup.to_str().unwrap(), "--yes"])
                    .stderr_contains("  metadata.annotations[crossplane.io/paused]: \"true\" -> <none>")
                    .run();
            }
            assert_as_original(&original, &get(&c), &format!("import={import} fail_at={fail_at}"));
        }
    }
}

/// A literal `kill -9` (SIGKILL) at every step boundary, with and without `--import`: the process
/// announces the boundary through the test hook and hangs until killed.
#[test]
fn kill_9_at_every_step_boundary() {
    use State::*;
    let cases: [(bool, &[State]); 2] = [
        (false, &[Original, PausedWithBackup, PausedWithBackup, Adopted, Adopted]),
        (
            true,
            &[
                Original,
                PausedWithBackup,
                PausedWithBackup,
                ObservingWithIdentity,
                ObservingWithIdentity,
                Adopted,
                Adopted,
            ],
        ),
    ];
    for (import, expected) in cases {
        for (n, want) in expected.iter().enumerate() {
            let c = cluster();
            let original = c.add(
                Mr::provisioned(RS, "RecordSet", "www")
                    .without_annotation(EXT)
                    .create_incomplete()
                    .at_provider_id("www-A")
                    .json(),
            );
            provider(&c.api, Provider { cloud: vec!["www-A".into()], handles_token: true });
            let mut args = vec!["adopt", TARGET, "--id", "www-A", "--yes"];
            if import {
                args.push("--import");
            }
            let (mut child, log) = spawn_with(&c, &args, &[("UPJET_TEST_HANG_AFTER_STEP", n.to_string())]);
            let marker = format!("waiting to be killed after step {n}");
            until(&marker, || std::fs::read_to_string(&log).is_ok_and(|t| t.contains(&marker)));
            child.kill().unwrap(); // SIGKILL
            let status = child.wait().unwrap();
            assert!(status.code().is_none(), "killed by a signal, not exited");
            let err = std::fs::read_to_string(&log).unwrap();
            assert_eq!(classify(&original, &get(&c), "www-A", &err), *want, "import={import}, kill -9 after step {n}");
            if *want != Original {
                let backup = backup_path(&err).expect("backup printed");
                let restore = format!("Restore recordset.dns.gcp.upbound.io/www from {}:", backup.display());
                c.upjet().args(["restore", backup.to_str().unwrap(), "--yes"]).stderr_contains(restore).run();
            }
            assert_as_original(&original, &get(&c), &format!("import={import}, restored after kill -9 at step {n}"));
        }
    }
}
