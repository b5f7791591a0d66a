//! kubectl's plugin-completion protocol.
//!
//! kubectl ≥ 1.26 completes `kubectl upjet <TAB>` by running `kubectl_complete-upjet` with the
//! plugin's arguments and the word being completed last, reading one candidate per line
//! (`value<TAB>description`) and a final `:<directive>` line (cobra's ShellCompDirective). krew
//! cannot install that second executable, so `kubectl upjet completion kubectl-plugin` writes it.

use super::candidates::{self, Typed};
use crate::settings::{Environment, KUBECTL_COMPLETE_ENV};
use std::ffi::OsString;
use std::io::{self, Write};

/// Name kubectl looks for on PATH to complete `kubectl upjet`.
pub(crate) const KUBECTL_COMPLETER: &str = "kubectl_complete-upjet";

/// cobra's ShellCompDirectiveNoSpace.
const NO_SPACE: u32 = 2;
/// cobra's ShellCompDirectiveNoFileComp.
const NO_FILE_COMP: u32 = 4;

/// The connection flags already typed on the line, so dynamic candidates use the same cluster.
fn typed_flags(args: &[OsString]) -> Typed {
    let words: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    let mut typed = Typed::default();
    let mut i = 0;
    while i < words.len() {
        let (name, inline) = match words[i].split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (words[i].clone(), None),
        };
        let takes =
            matches!(name.as_str(), "--kubeconfig" | "--context" | "--cluster" | "--user" | "-n" | "--namespace");
        if takes {
            if inline.is_none() {
                i += 1;
            }
            let value = inline.or_else(|| words.get(i).cloned());
            match name.as_str() {
                "--kubeconfig" => typed.connect.kubeconfig = value.map(Into::into),
                "--context" => typed.connect.context = value,
                "--cluster" => typed.connect.cluster = value,
                "--user" => typed.connect.user = value,
                _ => typed.namespace = value,
            }
        }
        i += 1;
    }
    typed
}

/// Answers kubectl: `args` are the plugin arguments, the last one being the word to complete.
pub fn kubectl_complete(args: Vec<OsString>, env: &Environment, out: &mut dyn Write) -> io::Result<()> {
    let typed = typed_flags(&args).with_environment(env);
    let mut full: Vec<OsString> = vec!["kubectl-upjet".into()];
    full.extend(args);
    if full.len() == 1 {
        full.push(OsString::new());
    }
    let index = full.len() - 1;
    let mut command = candidates::command_with_candidates(typed);
    let candidates =
        clap_complete::engine::complete(&mut command, full, index, env.current_dir.as_deref()).unwrap_or_default();
    let mut directive = NO_FILE_COMP;
    for c in candidates.iter().filter(|c| !c.is_hide_set()) {
        let value = c.get_value().to_string_lossy();
        if value.ends_with('/') {
            directive |= NO_SPACE;
        }
        match c.get_help().map(|h| h.to_string()).and_then(|h| h.lines().next().map(str::to_owned)) {
            Some(help) if !help.is_empty() => writeln!(out, "{value}\t{help}")?,
            _ => writeln!(out, "{value}")?,
        }
    }
    writeln!(out, ":{directive}")
}

/// The script `completion kubectl-plugin` installs as `kubectl_complete-upjet`.
pub(crate) fn kubectl_completer_script() -> String {
    format!(
        "#!/bin/sh\n# kubectl plugin completion for kubectl-upjet (kubectl >= 1.26 runs this on `kubectl upjet <TAB>`).\n{KUBECTL_COMPLETE_ENV}=1 exec kubectl-upjet \"$@\"\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typed_flags_are_found_in_both_forms() {
        let args: Vec<OsString> = ["doctor", "--context", "prod", "--kubeconfig=/tmp/kc", "-n", "team-a", "x"]
            .iter()
            .map(OsString::from)
            .collect();
        let f = typed_flags(&args);
        assert_eq!(f.connect.context.as_deref(), Some("prod"));
        assert_eq!(f.connect.kubeconfig.as_deref(), Some(std::path::Path::new("/tmp/kc")));
        assert_eq!(f.namespace.as_deref(), Some("team-a"));
    }

    #[test]
    fn completes_the_kubeconfig_contexts() {
        let dir = tempfile::tempdir().unwrap();
        let kc = dir.path().join("config");
        let cluster = |n: &str| format!("- name: {n}\n  cluster:\n    server: https://{n}.example:6443\n");
        let context = |n: &str| format!("- name: {n}\n  context:\n    cluster: {n}\n    user: u\n");
        let text = format!(
            "apiVersion: v1\nkind: Config\nclusters:\n{}{}{}contexts:\n{}{}{}current-context: prod\nusers:\n- name: u\n  user:\n    token: t\n",
            cluster("prod"),
            cluster("prod-eu"),
            cluster("staging"),
            context("prod"),
            context("prod-eu"),
            context("staging")
        );
        std::fs::write(&kc, text).unwrap();
        let env = Environment { kubeconfig: Some(kc.into_os_string()), ..Default::default() };
        let complete = |words: &[&str]| {
            let mut out = Vec::new();
            kubectl_complete(words.iter().map(OsString::from).collect(), &env, &mut out).unwrap();
            String::from_utf8(out).unwrap()
        };
        assert_eq!(complete(&["doctor", "--context", "pr"]), "prod\tcurrent context\nprod-eu\n:4\n");
        let again = complete(&["doctor", "--context", "prod", "--context", ""]);
        assert!(again.contains("staging\n") && again.contains("prod-eu\n"), "{again}");
        assert_eq!(complete(&["--context=st"]), "--context=staging\n:4\n");
    }

    #[test]
    fn completes_commands_and_codes_without_a_cluster() {
        let env = Environment::default();
        let mut out = Vec::new();
        kubectl_complete(vec!["".into()], &env, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.lines().any(|l| l.starts_with("doctor\t")), "{text}");
        assert!(text.ends_with(":4\n"), "{text}");
        let mut out = Vec::new();
        kubectl_complete(vec!["doctor".into(), "--only".into(), "Create".into()], &env, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("CreateIncomplete\t") && text.contains("CreateFailed\t"), "{text}");
    }
}
