//! `kubectl upjet guard`: the policies for the kinds asked for, printed for `kubectl apply -f -`.
//! From a cluster: its release must serve the admission APIs (`/version`), its provider pods
//! and Deployments (a provider scaled to zero has only its Deployment) name the service accounts
//! never refused, and a scan of its MRs teaches each kind's ID format. From `--from`: the CRD files alone, nothing asked of any cluster.

use super::kinds::{from_files, guard_kinds, scan};
use crate::commands::doctor::learn_peers;
use crate::commands::evidence::{provider_deployments, provider_pods};
use crate::commands::rbac::served_kinds_on;
use crate::commands::resolve::{GuardPrint, KindSource};
use crate::settings::Settings;
use std::collections::BTreeSet;
use std::io::Write;
use std::sync::Arc;
use upjet_cluster::connect::{self, Connection};
use upjet_cluster::guard::server_version;
use upjet_core::error::{Error, Exit};
use upjet_core::guard::kind::GuardKind;
use upjet_core::guard::settings::GuardSettings;
use upjet_core::guard::vars::Declarers;
use upjet_core::guard::{GuardSet, build};
use upjet_core::identity::{Peers, Sample};
use upjet_evidence::pods;
use upjet_output::guard::write;
use upjet_output::style;

/// Prints the policies, with one summary line and the notes on stderr.
pub(super) async fn run(settings: &Settings, asked: &GuardPrint, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let mut guard = asked.settings.clone();
    let (kinds, notes) = match &asked.source {
        KindSource::Files(path) => {
            let selected = from_files(path, &asked.kinds)?;
            let note = "--from: no cluster was asked, so no provider service account is exempt; pass --allow-group system:serviceaccounts:NAMESPACE (the providers' namespace) to exempt them";
            (guard_kinds(&selected, &Peers::default(), &asked.id_templates), vec![note.to_string()])
        }
        KindSource::Cluster(lists) => {
            let conn = Arc::new(connect::connect(&settings.connect).await?);
            from_cluster(&conn, asked, lists, &mut guard).await?
        }
    };
    let set = build(&kinds, &guard, &[]);
    write(out, &set, asked.format)?;
    out.flush()?;
    for note in notes {
        eprintln!("{}", style::sanitize(&note));
    }
    eprintln!("{}", summary(&set, &kinds, &guard));
    Ok(Exit::Ok)
}

/// The cluster's kinds, each with what its healthy MRs teach; the providers' service accounts
/// added to `guard`'s exempt users. Refused (exit 2) when the cluster cannot enforce the
/// policies.
async fn from_cluster(
    conn: &Arc<Connection>,
    asked: &GuardPrint,
    lists: &upjet_cluster::scan::ScanOptions,
    guard: &mut GuardSettings,
) -> anyhow::Result<(Vec<GuardKind>, Vec<String>)> {
    let mut notes = Vec::new();
    let version = server_version(conn).await.map_err(|e| e.explain(conn, "reading the API server's /version"))?;
    match version {
        Some(v) => {
            if let Some(why) = v.refusal(guard.mutate) {
                return Err(Error::usage(why).into());
            }
        }
        None => notes.push("the API server's /version names no release: the policies need Kubernetes v1.30+".into()),
    }
    let selected = served_kinds_on(conn, &asked.kinds).await?;
    notes.extend(exempt_providers(conn, guard).await?);
    let (mut results, skipped) = scan(conn, selected.clone(), lists, |mr| Sample::of(&mr).map(Some)).await;
    notes.extend(skipped.into_iter().map(|s| format!("{s}: its ID format is not learned from its MRs")));
    let peers = learn_peers(&mut results, Option::take);
    Ok((guard_kinds(&selected, &peers, &asked.id_templates), notes))
}

/// Exempts the providers' service accounts, found from their pods and their Deployments (a
/// provider that safe-start keeps at zero replicas has no pod); returns what stderr should say.
/// A Deployment list that is denied or fails is a note: the pods still name the running ones.
async fn exempt_providers(conn: &Arc<Connection>, guard: &mut GuardSettings) -> anyhow::Result<Vec<String>> {
    let mut notes = Vec::new();
    let pods = provider_pods(conn, None)
        .await
        .map_err(|e| e.explain(conn, "listing the provider pods (whose service accounts the policies never refuse)"))?;
    let deployments = match provider_deployments(conn, None).await {
        Ok(d) => d,
        Err(e) => {
            notes.push(format!(
                "cannot list Deployments, so a provider scaled to zero (no pod until one of its ManagedResourceDefinitions is active) is not exempt: {}",
                e.reason()
            ));
            Vec::new()
        }
    };
    let accounts = pods::service_accounts(&pods, &deployments);
    if accounts.is_empty() {
        notes.push("no provider pod or Deployment found (label pkg.crossplane.io/provider): no provider service account is exempt; pass --allow-group system:serviceaccounts:NAMESPACE (the providers' namespace)".into());
    }
    for d in pods::scaled_to_zero(&pods, &deployments) {
        notes.push(format!(
            "{}: its Deployment {}/{} runs no pod (scaled to zero until one of its ManagedResourceDefinitions is active); its service account {} is exempt all the same",
            d.provider, d.namespace, d.name, d.service_account
        ));
    }
    for (namespace, name) in &accounts {
        guard.exempt_service_account(namespace, name);
    }
    Ok(notes)
}

/// One line: the policies and their actions, the kinds covered, the formats known, who is
/// never judged.
fn summary(set: &GuardSet, kinds: &[GuardKind], guard: &GuardSettings) -> String {
    let actions: Vec<String> =
        set.validating.iter().map(|p| format!("{} {}", p.rule, guard.action(p.rule).as_str())).collect();
    let groups: BTreeSet<&str> = kinds.iter().map(|k| k.group.as_str()).collect();
    let formats = kinds.iter().filter(|k| !k.id_templates.is_empty()).count();
    let declarers = match guard.declarers() {
        Declarers::Writers => "",
        Declarers::Authorized => {
            "; a repair's declaration counts only from users allowed declare on identitychanges.guard.kubectl-upjet.io"
        }
    };
    format!(
        "{} policies ({}){} for {} managed kinds in {} API groups; an ID format for {formats}; never judged: {} users, {} groups{declarers}",
        set.validating.len(),
        actions.join(", "),
        if set.mutating.is_some() { " and identity-locked's MutatingAdmissionPolicy" } else { "" },
        kinds.len(),
        groups.len(),
        guard.users.len(),
        guard.groups.len()
    )
}
