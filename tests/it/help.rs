//! Every command's `--help` through the real binary, as a user reads it: the command's own flags
//! first, then Inputs, Output, Scan and Cluster connection, then the examples. The width is
//! pinned (clap reads `COLUMNS` when no terminal is attached) so the snapshots do not depend on
//! the terminal the tests run in.

use crate::support::upjet;

/// `args`' help at a width of 100 columns (nothing on stderr).
fn help(args: &[&str]) -> String {
    upjet().args(args).env("COLUMNS", "100").env_remove("LINES").run().stdout
}

/// The headings in the order they are printed.
fn headings(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.starts_with(' ') && l.ends_with(':')).collect()
}

#[test]
fn top_level_help() {
    let text = help(&["--help"]);
    assert_eq!(headings(&text), ["Commands:", "Options:", "Output:", "Cluster connection:", "Examples:"]);
    insta::assert_snapshot!("help_top_level", text);
}

#[test]
fn doctor_help() {
    let text = help(&["doctor", "--help"]);
    assert_eq!(
        headings(&text),
        ["Arguments:", "Options:", "Inputs:", "Output:", "Scan:", "Cluster connection:", "Examples:"]
    );
    insta::assert_snapshot!("help_doctor", text);
}

#[test]
fn doctor_short_help_is_grouped_the_same_way() {
    let text = help(&["doctor", "-h"]);
    assert_eq!(
        headings(&text),
        ["Arguments:", "Options:", "Inputs:", "Output:", "Scan:", "Cluster connection:", "Examples:"]
    );
    insta::assert_snapshot!("help_doctor_short", text);
}

#[test]
fn history_help() {
    let text = help(&["history", "--help"]);
    assert_eq!(headings(&text), ["Arguments:", "Options:", "Inputs:", "Output:", "Cluster connection:", "Examples:"]);
    insta::assert_snapshot!("help_history", text);
}

#[test]
fn adopt_help() {
    let text = help(&["adopt", "--help"]);
    assert_eq!(headings(&text), ["Arguments:", "Options:", "Inputs:", "Output:", "Cluster connection:", "Examples:"]);
    insta::assert_snapshot!("help_adopt", text);
}

#[test]
fn restore_help() {
    let text = help(&["restore", "--help"]);
    assert_eq!(headings(&text), ["Arguments:", "Options:", "Output:", "Cluster connection:", "Examples:"]);
    insta::assert_snapshot!("help_restore", text);
}

#[test]
fn rbac_help() {
    let text = help(&["rbac", "--help"]);
    assert_eq!(headings(&text), ["Options:", "Output:", "Cluster connection:", "Examples:"]);
    insta::assert_snapshot!("help_rbac", text);
}

#[test]
fn guard_help() {
    let text = help(&["guard", "--help"]);
    assert_eq!(headings(&text), ["Commands:", "Options:", "Inputs:", "Output:", "Cluster connection:", "Examples:"]);
    insta::assert_snapshot!("help_guard", text);
    let text = help(&["guard", "lock", "--help"]);
    assert_eq!(headings(&text), ["Options:", "Inputs:", "Output:", "Cluster connection:", "Examples:"]);
    insta::assert_snapshot!("help_guard_lock", text);
    let text = help(&["guard", "unlock", "--help"]);
    assert_eq!(headings(&text), ["Arguments:", "Options:", "Output:", "Cluster connection:", "Examples:"]);
    insta::assert_snapshot!("help_guard_unlock", text);
}

#[test]
fn health_help() {
    let text = help(&["health", "argocd", "--help"]);
    assert_eq!(headings(&text), ["Options:", "Output:", "Cluster connection:", "Examples:"]);
    insta::assert_snapshot!("help_health_argocd", text);
    let text = help(&["health", "flux", "--help"]);
    assert_eq!(headings(&text), ["Options:", "Output:", "Cluster connection:", "Examples:"]);
    insta::assert_snapshot!("help_health_flux", text);
}

#[test]
fn restore_plan_help() {
    let text = help(&["restore-plan", "--help"]);
    assert_eq!(headings(&text), ["Arguments:", "Options:", "Inputs:", "Output:", "Cluster connection:", "Examples:"]);
    insta::assert_snapshot!("help_restore_plan", text);
}

#[test]
fn promote_help() {
    let text = help(&["promote", "--help"]);
    assert_eq!(headings(&text), ["Options:", "Inputs:", "Output:", "Cluster connection:", "Examples:"]);
    insta::assert_snapshot!("help_promote", text);
}

/// Each migrate step's help ends with its exit codes: 5 is what a script checks (an MR refused
/// by plan, not migrated by apply, not done yet for status).
#[test]
fn migrate_help() {
    let text = help(&["migrate", "plan", "--help"]);
    let tail = ["Output:", "Cluster connection:", "Examples:", "Exit status:"];
    assert_eq!(headings(&text), [&["Arguments:", "Options:", "Inputs:"][..], &tail].concat());
    assert!(text.contains("  5  an MR was refused: the plan holds the others"), "{text}");
    insta::assert_snapshot!("help_migrate_plan", text);
    let text = help(&["migrate", "apply", "--help"]);
    assert_eq!(headings(&text), [&["Options:", "Inputs:"][..], &tail].concat());
    assert!(text.contains("  5  not every MR migrated"), "{text}");
    insta::assert_snapshot!("help_migrate_apply", text);
    let text = help(&["migrate", "status", "--help"]);
    assert_eq!(headings(&text), [&["Options:", "Inputs:"][..], &tail].concat());
    assert!(text.contains("  5  not every MR is migrated yet"), "{text}");
    insta::assert_snapshot!("help_migrate_status", text);
}

#[test]
fn completion_help() {
    let text = help(&["completion", "--help"]);
    assert_eq!(headings(&text), ["Arguments:", "Options:", "Output:", "Cluster connection:", "Examples:"]);
    insta::assert_snapshot!("help_completion", text);
}

/// The connection flags kubectl users type after the command still parse there, and the ones
/// kept out of the help (tokens, impersonation) stay out of every command's help.
#[test]
fn global_flags_are_listed_once_and_hidden_ones_stay_hidden() {
    for args in [&["doctor", "--help"][..], &["history", "--help"], &["adopt", "--help"], &["--help"]] {
        let text = help(args);
        for hidden in
            ["--token", "--server", "--insecure-skip-tls-verify", "--as ", "--as-group", "--discovery-cache-dir"]
        {
            assert!(!text.contains(hidden), "{args:?} shows {hidden}");
        }
        assert_eq!(text.matches("--kubeconfig <PATH>").count(), 1, "{args:?}");
        assert_eq!(text.matches("--color <COLOR>").count(), 1, "{args:?}");
    }
}
