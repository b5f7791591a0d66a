//! Printed commands are safe to paste: whatever an MR's status, an export or a log line holds,
//! a command this tool prints hands each argument to the program exactly, and runs nothing else.
//! Each printed line is run through `sh -c` (and bash, when installed) with `kubectl` defined as
//! a function that prints its arguments, NUL-separated.

use crate::support::upjet;
use proptest::prelude::*;
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;
use upjet_core::shell::{ShellCommand, quoted, word};

/// The ID of the issue: quotes of both kinds, a command substitution, backticks and a `;`.
const HOSTILE: &str = "vpc-0a b'c\"d$(touch /tmp/x)`id`;e";

/// The shells that run the printed lines: `sh` always, `bash` when it is there.
fn shells() -> Vec<&'static str> {
    let has = |s: &str| Command::new(s).arg("-c").arg("true").output().is_ok_and(|o| o.status.success());
    ["sh", "bash"].into_iter().filter(|s| has(s)).collect()
}

/// The arguments `line` hands to `kubectl` when `shell` runs it in `dir`.
fn argv(shell: &str, line: &str, dir: &Path) -> Vec<String> {
    let script = format!("kubectl() {{ printf '%s\\0' \"$@\"; }}\nprintargs() {{ printf '%s\\0' \"$@\"; }}\n{line}\n");
    let out =
        Command::new(shell).arg("-c").arg(&script).current_dir(dir).env("PATH", "/usr/bin:/bin").output().unwrap();
    assert!(out.status.success(), "{shell} -c {line:?}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("UTF-8 arguments");
    let mut args: Vec<String> = text.split('\0').map(str::to_owned).collect();
    assert_eq!(args.pop().as_deref(), Some(""), "NUL-terminated");
    args
}

/// Any argument but one with a NUL (which no program can receive): the characters a shell reads
/// specially, line breaks and other control characters, and text beyond ASCII.
fn argument() -> impl Strategy<Value = String> {
    let special = prop::sample::select(vec![
        ' ', '\'', '"', '$', '`', ';', '\\', '\n', '\t', '\r', '\u{1b}', '\u{7f}', '\u{85}', '!', '^', '#', '~', '=',
        '*', '?', '[', ']', '{', '}', '(', ')', '|', '&', '<', '>', '%', ',', '-', 'é', '日', '\u{202e}',
    ]);
    let ch = prop_oneof![3 => prop::char::range('a', 'z'), 3 => special, 1 => any::<char>().prop_filter("no NUL", |c| *c != '\0')];
    prop::collection::vec(ch, 0..12).prop_map(|cs| cs.into_iter().collect())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// `sh -c` hands the program each argument exactly as it was given.
    #[test]
    fn every_argument_comes_back_exactly(args in prop::collection::vec(argument(), 1..5), id in argument()) {
        let dir = tempfile::tempdir().unwrap();
        let command = ShellCommand::new("printargs").args(&args).opt("--id", &id);
        let line = command.to_string();
        let mut want = args.clone();
        match id.starts_with('-') {
            true => want.push(format!("--id={id}")),
            false => want.extend(["--id".to_string(), id.clone()]),
        }
        for shell in shells() {
            prop_assert_eq!(&argv(shell, &line, dir.path()), &want, "{} ran {:?}", shell, line);
        }
        prop_assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "nothing was written");
        // A value a sentence quotes is one word too: the same value.
        for shell in shells() {
            let sentence = format!("printargs {} {}", quoted(&id), word(&id));
            prop_assert_eq!(argv(shell, &sentence, dir.path()), vec![id.clone(), id.clone()], "{}", sentence);
        }
    }
}

/// A fleet of one VPC whose status holds `id` and no external-name: doctor's `ExternalNameMissing`
/// suggests adopting that ID.
fn snapshot(dir: &Path, id: &str) -> std::path::PathBuf {
    let mr = json!({
        "apiVersion": "ec2.aws.upbound.io/v1beta1", "kind": "VPC",
        "metadata": {"name": "main", "uid": "uid-main", "generation": 1, "resourceVersion": "1",
                     "creationTimestamp": "2024-11-30T10:00:00Z"},
        "spec": {"forProvider": {"region": "eu-west-1"}},
        "status": {"atProvider": {"id": id}, "conditions": [
            {"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2024-11-30T10:01:00Z"},
            {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": "2024-11-30T10:01:00Z"}
        ]}
    });
    let path = dir.join("fleet.json");
    std::fs::write(&path, json!({"apiVersion": "v1", "kind": "List", "items": [mr]}).to_string()).unwrap();
    path
}

/// doctor's JSON `next`, its table's `(adopt …)` and history's offer: run in a shell, each hands
/// adopt the hostile ID as one argument, and neither `touch` nor `id` runs.
#[test]
fn a_hostile_id_in_an_mrs_status_reaches_adopt_as_one_argument_and_runs_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("pwned");
    let aimed = format!("{HOSTILE}$(touch {m})`touch {m}`;touch {m}", m = marker.display());
    let tmp_x_before = Path::new("/tmp/x").exists();
    for id in [HOSTILE, aimed.as_str()] {
        let fleet = snapshot(dir.path(), id);
        let fleet = fleet.to_str().unwrap();
        let adopt = ["upjet", "adopt", "vpc.ec2.aws.upbound.io/main", "--id", id];

        let report = upjet().args(["doctor", "--from", fleet, "-o", "json"]).status(1).stderr("1 kinds scanned, 1 managed resources, 1 errors, 0 warnings, 0 info, 1 would be created again by a provider restart\n").run().json();
        let finding = report["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["code"] == "ExternalNameMissing")
            .unwrap_or_else(|| panic!("{report}"));
        let next = finding["next"].as_str().unwrap();
        assert_eq!(finding["suggestedId"], Value::from(id));

        let table = upjet().args(["doctor", "--from", fleet]).status(1).stderr("1 kinds scanned, 1 managed resources, 1 errors, 0 warnings, 0 info, 1 would be created again by a provider restart\n").run().stdout;
        let row = table.lines().find(|l| l.contains("ExternalNameMissing")).unwrap_or_else(|| panic!("{table}"));
        let quoted_id = row.split_once("(adopt ").map(|(_, rest)| rest.strip_suffix(')').unwrap()).unwrap();

        let history = upjet().args(["history", "vpc.ec2.aws.upbound.io/main", "--from", fleet]).run().stdout;
        let offer = history.lines().find_map(|l| l.split_once("adopt the best candidate: ").map(|(_, c)| c));
        let offer = offer.unwrap_or_else(|| panic!("{history}"));

        for shell in shells() {
            assert_eq!(argv(shell, next, dir.path()), adopt, "{shell}: doctor's next {next}");
            assert_eq!(argv(shell, &format!("printargs {quoted_id}"), dir.path()), [id], "{shell}: the table's {row}");
            assert_eq!(argv(shell, offer, dir.path())[..5], adopt, "{shell}: history's {offer}");
        }
    }
    assert!(!marker.exists(), "a printed command ran what the ID held");
    assert!(tmp_x_before || !Path::new("/tmp/x").exists(), "a printed command created /tmp/x");
}
