//! Shell completion: kubectl's plugin-completion protocol and the dynamic candidates behind it.
//!
//! kubectl ≥ 1.26 completes `kubectl upjet <TAB>` by running `kubectl_complete-upjet` with the
//! plugin's arguments and the word being completed last, reading one candidate per line
//! (`value<TAB>description`) and a final `:<directive>` line (cobra's ShellCompDirective). krew
//! cannot install that second executable, so `kubectl upjet completion kubectl-plugin` writes it.
//! Candidates that need the cluster (MR kinds and names, namespaces) come from a short request
//! with a tight time limit and stay silent on any failure: completion must never print errors.

use crate::cli::{Cli, KubeFlags};
use crate::cluster::{connect, discover, request};
use crate::domain::finding::Code;
use clap::CommandFactory;
use clap_complete::engine::CompletionCandidate;
use std::ffi::{OsStr, OsString};
use std::io::{self, Write};
use std::sync::OnceLock;
use std::time::Duration;

/// Name kubectl looks for on PATH to complete `kubectl upjet`.
pub const KUBECTL_COMPLETER: &str = "kubectl_complete-upjet";
/// Set by the installed completer script so the binary answers in kubectl's protocol.
pub const KUBECTL_COMPLETE_ENV: &str = "UPJET_KUBECTL_COMPLETE";

/// cobra's ShellCompDirectiveNoSpace.
const NO_SPACE: u32 = 2;
/// cobra's ShellCompDirectiveNoFileComp.
const NO_FILE_COMP: u32 = 4;
/// How long a completion may wait for the cluster.
const CLUSTER_BUDGET: Duration = Duration::from_secs(3);

static FLAGS: OnceLock<KubeFlags> = OnceLock::new();

/// Whether this process was started as kubectl's completer (by name or by the installed script).
pub fn invoked_as_kubectl_completer(argv0: &OsStr) -> bool {
    let name = std::path::Path::new(argv0).file_name().and_then(|n| n.to_str()).unwrap_or_default();
    name.starts_with("kubectl_complete-") || std::env::var_os(KUBECTL_COMPLETE_ENV).is_some_and(|v| v == "1")
}

/// The connection flags already typed on the line, so dynamic candidates use the same cluster.
fn typed_flags(args: &[OsString]) -> KubeFlags {
    let words: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    let mut flags = KubeFlags::default();
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
                "--kubeconfig" => flags.kubeconfig = value.map(Into::into),
                "--context" => flags.context = value,
                "--cluster" => flags.cluster = value,
                "--user" => flags.user = value,
                _ => flags.namespace = value,
            }
        }
        i += 1;
    }
    flags.request_timeout = Some(CLUSTER_BUDGET);
    flags
}

/// Answers kubectl: `args` are the plugin arguments, the last one being the word to complete.
pub fn kubectl_complete(args: Vec<OsString>, out: &mut dyn Write) -> io::Result<()> {
    let _ = FLAGS.set(typed_flags(&args));
    let mut full: Vec<OsString> = vec!["kubectl-upjet".into()];
    full.extend(args);
    if full.len() == 1 {
        full.push(OsString::new());
    }
    let index = full.len() - 1;
    let cwd = std::env::current_dir().ok();
    let candidates =
        clap_complete::engine::complete(&mut Cli::command(), full, index, cwd.as_deref()).unwrap_or_default();
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

/// Runs a cluster query for completion within [`CLUSTER_BUDGET`]; `None` on any failure.
fn with_cluster<T, F, Fut>(f: F) -> Option<T>
where
    F: FnOnce(connect::Connection) -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let flags = FLAGS
        .get()
        .cloned()
        .unwrap_or_else(|| KubeFlags { request_timeout: Some(CLUSTER_BUDGET), ..Default::default() });
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
    rt.block_on(async move {
        tokio::time::timeout(CLUSTER_BUDGET, async move {
            let conn = connect::connect(&flags).await.ok()?;
            f(conn).await
        })
        .await
        .ok()
        .flatten()
    })
}

fn kind_names() -> Vec<(String, String)> {
    with_cluster(|conn| async move {
        let (kinds, _) = discover::discover_managed(&conn, 8).await.ok()?;
        Some(kinds.into_iter().map(|k| (format!("{}.{}", k.kind.to_lowercase(), k.group), k.kind)).collect())
    })
    .unwrap_or_default()
}

/// `--kind`: MR kinds as `kind.group`.
pub fn complete_kind(current: &OsStr) -> Vec<CompletionCandidate> {
    let cur = current.to_string_lossy().to_lowercase();
    kind_names()
        .into_iter()
        .filter(|(k, _)| k.starts_with(&cur))
        .map(|(k, kind)| CompletionCandidate::new(k).help(Some(kind.into())))
        .collect()
}

/// `KIND/NAME`: kinds first (ending in `/`), then the names of that kind.
pub fn complete_target(current: &OsStr) -> Vec<CompletionCandidate> {
    let cur = current.to_string_lossy().to_string();
    let Some((kind_spec, prefix)) = cur.split_once('/') else {
        return kind_names()
            .into_iter()
            .filter(|(k, _)| k.starts_with(&cur.to_lowercase()))
            .map(|(k, kind)| CompletionCandidate::new(format!("{k}/")).help(Some(kind.into())))
            .collect();
    };
    let (kind_spec, prefix) = (kind_spec.to_string(), prefix.to_string());
    let namespace = FLAGS.get().and_then(|f| f.namespace.clone());
    with_cluster(|conn| async move {
        let (kinds, _) = discover::discover_managed(&conn, 8).await.ok()?;
        let kind = crate::cluster::kinds::resolve(&kinds, &kind_spec).ok()?;
        let path = format!("{}?limit=500", kind.collection_path(namespace.as_deref()));
        let body = request::text(&conn, request::get(&path, "application/json")).await.ok()?;
        let names = names_in_list(&body);
        Some(
            names
                .into_iter()
                .filter(|n| n.starts_with(&prefix))
                .map(|n| CompletionCandidate::new(format!("{kind_spec}/{n}")))
                .collect(),
        )
    })
    .unwrap_or_default()
}

fn names_in_list(body: &str) -> Vec<String> {
    #[derive(serde::Deserialize)]
    struct L {
        #[serde(default)]
        items: Vec<I>,
    }
    #[derive(serde::Deserialize)]
    struct I {
        metadata: M,
    }
    #[derive(serde::Deserialize)]
    struct M {
        name: String,
    }
    serde_json::from_str::<L>(body).map(|l| l.items.into_iter().map(|i| i.metadata.name).collect()).unwrap_or_default()
}

/// `-n/--namespace`.
pub fn complete_namespace(current: &OsStr) -> Vec<CompletionCandidate> {
    let cur = current.to_string_lossy().to_string();
    with_cluster(|conn| async move {
        let body = request::text(&conn, request::get("/api/v1/namespaces", "application/json")).await.ok()?;
        Some(names_in_list(&body))
    })
    .unwrap_or_default()
    .into_iter()
    .filter(|n| n.starts_with(&cur))
    .map(CompletionCandidate::new)
    .collect()
}

/// `--only/--ignore`: finding codes.
pub fn complete_code() -> Vec<CompletionCandidate> {
    Code::ALL
        .iter()
        .map(|c| CompletionCandidate::new(c.as_str()).help(Some(format!("{} finding", c.severity()).into())))
        .collect()
}

/// The script `completion kubectl-plugin` installs as `kubectl_complete-upjet`.
pub fn kubectl_completer_script() -> String {
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
        assert_eq!(f.context.as_deref(), Some("prod"));
        assert_eq!(f.kubeconfig.as_deref(), Some(std::path::Path::new("/tmp/kc")));
        assert_eq!(f.namespace.as_deref(), Some("team-a"));
    }

    #[test]
    fn completes_commands_and_codes_without_a_cluster() {
        let mut out = Vec::new();
        kubectl_complete(vec!["".into()], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.lines().any(|l| l.starts_with("doctor\t")), "{text}");
        assert!(text.ends_with(":4\n"), "{text}");
        let mut out = Vec::new();
        kubectl_complete(vec!["doctor".into(), "--only".into(), "Create".into()], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.contains("CreateIncomplete\t") && text.contains("CreateFailed\t"), "{text}");
    }
}
