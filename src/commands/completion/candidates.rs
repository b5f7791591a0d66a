//! The dynamic candidates behind completion: MR kinds and names, namespaces, finding codes.
//!
//! They are attached to the clap definition here, at completion time, so `cli/` stays plain
//! clap. Candidates that need the cluster come from a short request with a tight time limit and
//! stay silent on any failure: completion must never print errors.

use crate::cli::Cli;
use crate::settings::Environment;
use clap::CommandFactory;
use clap_complete::engine::{ArgValueCandidates, ArgValueCompleter, CompletionCandidate};
use std::ffi::OsStr;
use std::sync::Arc;
use std::time::Duration;
use upjet_cluster::connect::{self, ConnectOptions};
use upjet_cluster::{discover, kinds, target};
use upjet_core::finding::Code;

/// How long a completion may wait for the cluster.
const CLUSTER_BUDGET: Duration = Duration::from_secs(3);

/// What the line being completed already says about the cluster to ask.
#[derive(Clone, Debug, Default)]
pub(crate) struct Typed {
    /// Connection flags typed so far (plus the environment's kubeconfig and home).
    pub connect: ConnectOptions,
    /// `-n` typed so far.
    pub namespace: Option<String>,
}

impl Typed {
    /// Adds what kubectl would take from the environment, and completion's time limit.
    pub(crate) fn with_environment(mut self, env: &Environment) -> Typed {
        self.connect.kubeconfig_env = env.kubeconfig.clone();
        self.connect.home = env.home.clone();
        self.connect.in_cluster = env.in_cluster;
        self.connect.request_timeout = Some(CLUSTER_BUDGET);
        self
    }
}

/// The command definition with every dynamic completer attached.
pub(crate) fn command_with_candidates(typed: Typed) -> clap::Command {
    let typed = Arc::new(typed);
    let target = |t: &Arc<Typed>| {
        let t = t.clone();
        ArgValueCompleter::new(move |cur: &OsStr| complete_target(&t, cur))
    };
    let kind = {
        let t = typed.clone();
        ArgValueCompleter::new(move |cur: &OsStr| complete_kind(&t, cur))
    };
    let namespace = {
        let t = typed.clone();
        ArgValueCompleter::new(move |cur: &OsStr| complete_namespace(&t, cur))
    };
    let context = {
        let t = typed.clone();
        ArgValueCompleter::new(move |cur: &OsStr| complete_context(&t, cur))
    };
    Cli::command()
        .mut_arg("namespace", |a| a.add(namespace))
        .mut_arg("contexts", |a| a.add(context))
        .mut_subcommand("doctor", |c| {
            c.mut_arg("target", |a| a.add(target(&typed)))
                .mut_arg("kinds", |a| a.add(kind))
                .mut_arg("only", |a| a.add(ArgValueCandidates::new(complete_code)))
                .mut_arg("ignore", |a| a.add(ArgValueCandidates::new(complete_code)))
        })
        .mut_subcommand("history", |c| c.mut_arg("target", |a| a.add(target(&typed))))
        .mut_subcommand("adopt", |c| c.mut_arg("target", |a| a.add(target(&typed))))
}

/// Runs a cluster query for completion within [`CLUSTER_BUDGET`]; `None` on any failure.
fn with_cluster<T, F, Fut>(typed: &Typed, f: F) -> Option<T>
where
    F: FnOnce(connect::Connection) -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let options = typed.connect.clone();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().ok()?;
    rt.block_on(async move {
        tokio::time::timeout(CLUSTER_BUDGET, async move {
            let conn = connect::connect(&options).await.ok()?;
            f(conn).await
        })
        .await
        .ok()
        .flatten()
    })
}

fn kind_names(typed: &Typed) -> Vec<(String, String)> {
    with_cluster(typed, |conn| async move {
        let (kinds, _) = discover::discover_managed(&conn, 8).await.ok()?;
        Some(kinds.into_iter().map(|k| (format!("{}.{}", k.kind.to_lowercase(), k.group), k.kind)).collect())
    })
    .unwrap_or_default()
}

/// `--kind`: MR kinds as `kind.group`.
fn complete_kind(typed: &Typed, current: &OsStr) -> Vec<CompletionCandidate> {
    let cur = current.to_string_lossy().to_lowercase();
    kind_names(typed)
        .into_iter()
        .filter(|(k, _)| k.starts_with(&cur))
        .map(|(k, kind)| CompletionCandidate::new(k).help(Some(kind.into())))
        .collect()
}

/// `KIND/NAME`: kinds first (ending in `/`), then the names of that kind.
fn complete_target(typed: &Typed, current: &OsStr) -> Vec<CompletionCandidate> {
    let cur = current.to_string_lossy().to_string();
    let Some((kind_spec, prefix)) = cur.split_once('/') else {
        return kind_names(typed)
            .into_iter()
            .filter(|(k, _)| k.starts_with(&cur.to_lowercase()))
            .map(|(k, kind)| CompletionCandidate::new(format!("{k}/")).help(Some(kind.into())))
            .collect();
    };
    let (kind_spec, prefix) = (kind_spec.to_string(), prefix.to_string());
    let namespace = typed.namespace.clone();
    with_cluster(typed, |conn| async move {
        let (kinds, _) = discover::discover_managed(&conn, 8).await.ok()?;
        let kind = kinds::resolve(&kinds, &kind_spec).ok()?;
        let names = target::names(&conn, kind, namespace.as_deref()).await?;
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

/// `-n/--namespace`.
fn complete_namespace(typed: &Typed, current: &OsStr) -> Vec<CompletionCandidate> {
    let cur = current.to_string_lossy().to_string();
    with_cluster(typed, |conn| async move { target::namespaces(&conn).await })
        .unwrap_or_default()
        .into_iter()
        .filter(|n| n.starts_with(&cur))
        .map(CompletionCandidate::new)
        .collect()
}

/// `--context`: the contexts of the merged kubeconfig (no request; the current one says so).
fn complete_context(typed: &Typed, current: &OsStr) -> Vec<CompletionCandidate> {
    let cur = current.to_string_lossy().to_string();
    let Ok((names, now)) = connect::kubeconfig_contexts(&typed.connect) else { return Vec::new() };
    names
        .into_iter()
        .filter(|n| n.starts_with(&cur))
        .map(|n| {
            let help = (now.as_deref() == Some(n.as_str())).then(|| "current context".into());
            CompletionCandidate::new(n).help(help)
        })
        .collect()
}

/// `--only/--ignore`: finding codes.
fn complete_code() -> Vec<CompletionCandidate> {
    Code::ALL
        .iter()
        .map(|c| CompletionCandidate::new(c.as_str()).help(Some(format!("{} finding", c.severity()).into())))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dynamic_argument_exists_in_the_definition() {
        // mut_arg panics on an unknown id when the command is built.
        command_with_candidates(Typed::default()).build();
    }
}
