//! The checked-in scripts under completions/ must match what the clap definition generates
//! (regenerate with `UPJET_BLESS=1 cargo test --test it completions::`), and `completion <shell>`
//! must print exactly them.

use crate::support::upjet;
use clap_complete::Shell;
use kubectl_upjet::commands::completion::script;
use std::path::PathBuf;

const SCRIPTS: &[(Shell, &str, &str)] = &[
    (Shell::Bash, "bash", "kubectl-upjet.bash"),
    (Shell::Zsh, "zsh", "_kubectl-upjet"),
    (Shell::Fish, "fish", "kubectl-upjet.fish"),
    (Shell::PowerShell, "powershell", "_kubectl-upjet.ps1"),
];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("completions")
}

#[test]
fn checked_in_completions_are_current() {
    for (shell, _, file) in SCRIPTS {
        let want = script(*shell);
        let path = dir().join(file);
        if std::env::var_os("UPJET_BLESS").is_some() {
            std::fs::write(&path, &want).unwrap();
            continue;
        }
        let have = std::fs::read(&path).unwrap_or_default();
        assert!(have == want, "{} is stale; run `UPJET_BLESS=1 cargo test --test it completions::`", path.display());
    }
}

#[test]
fn completion_command_prints_the_same_scripts() {
    for (shell, arg, _) in SCRIPTS {
        let want = String::from_utf8(script(*shell)).expect("a script is text");
        let out = upjet().args(["completion", arg]).stdout(want).run();
        assert!(out.stdout.contains("doctor"), "{arg} script knows the doctor command");
    }
}

#[test]
fn kubectl_plugin_completer_is_installed_executable() {
    let tmp = tempfile::tempdir().unwrap();
    upjet().args(["completion", "kubectl-plugin", "--install-dir"]).arg(tmp.path()).run();
    let path = tmp.path().join("kubectl_complete-upjet");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("#!/bin/sh") && text.contains("UPJET_KUBECTL_COMPLETE=1 exec kubectl-upjet"));
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o111, 0o111);
}

/// The checked-in man pages (`man/`) match the clap definition. The command is built first, so
/// each command's page lists the global flags (output, cluster connection) under their headings
/// as its `--help` does.
#[test]
fn checked_in_man_pages_are_current() {
    use clap::CommandFactory;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("man");
    let mut cmd = kubectl_upjet::cli::Cli::command().name("kubectl-upjet");
    cmd.build();
    let mut pages = vec![("kubectl-upjet.1".to_string(), cmd.clone())];
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let name: &'static str = Box::leak(format!("kubectl-upjet-{}", sub.get_name()).into_boxed_str());
        pages.push((format!("{name}.1"), sub.clone().name(name)));
    }
    for (file, page) in pages {
        let mut want = Vec::new();
        clap_mangen::Man::new(page).render(&mut want).unwrap();
        let path = dir.join(&file);
        if std::env::var_os("UPJET_BLESS").is_some() {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &want).unwrap();
            continue;
        }
        let have = std::fs::read(&path).unwrap_or_default();
        assert!(have == want, "{} is stale; run `UPJET_BLESS=1 cargo test --test it completions::`", path.display());
    }
}
