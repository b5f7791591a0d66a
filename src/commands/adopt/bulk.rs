//! Adopting every MR of a plan file (`doctor --plan` writes one): everything is resolved and
//! read before anything changes, then each item is adopted with bounded concurrency
//! (`super::parallel`) and reported on one line.

use super::duplicates::external_names;
use super::error::AdoptError;
use super::parallel::{Item, Runner, Tally};
use super::ui::Ui;
use super::{AdoptEnv, options};
use crate::commands::resolve::{AdoptPlan, Carry, Parallel, Reach};
use futures::StreamExt;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use upjet_cluster::connect::Connection;
use upjet_cluster::kinds::ApiKind;
use upjet_cluster::target::{self, Kinds, TargetSpec};
use upjet_cluster::write::{self, WriteError};
use upjet_core::adopt::{self, Context, Options, Verdict, probe};
use upjet_core::error::{Error, Exit};
use upjet_core::managed::ManagedResource;
use upjet_core::plan::PlanItem;
use upjet_core::shell::{quoted, word};
use upjet_output::style;

/// An item to adopt, and whether it resumes an interrupted adoption.
type ToAdopt = (Item, bool);

/// Adopts every item of the plan, read before the cluster was asked anything.
pub(super) async fn bulk(
    plan: AdoptPlan,
    out: &mut dyn Write,
    ui: &mut Ui,
    env: &AdoptEnv,
) -> Result<Exit, AdoptError> {
    let AdoptPlan { path, items, carry, parallel, reach } = plan;
    if items.is_empty() {
        writeln!(out, "the plan is empty; nothing to do")?;
        return Ok(Exit::Ok);
    }
    let conn = Arc::new(reach.connect().await?);
    let mut tally = Tally::default();
    let here = this_cluster(&items, conn.context.as_deref(), out, &mut tally)?;
    let ready = if here.is_empty() { Vec::new() } else { read_all(&reach, parallel, &conn, &here, &path).await? };
    let by_name = duplicates(&conn, &ready, ui).await;
    let opts = options(&carry, env);
    let to_adopt = preview(ready, &by_name, &opts, out, &mut tally)?;
    let slots = std::sync::Arc::new(tokio::sync::Semaphore::new(parallel.slots));
    let interrupt = ui.interrupt.clone();
    let runner = Runner { conn: &conn, carry: &carry, parallel, opts: &opts, env, by_name: &by_name, interrupt, slots };
    if carry.dry_run() {
        return dry_run_all(&runner, to_adopt, out, tally).await;
    }
    if to_adopt.is_empty() {
        writeln!(out, "nothing to adopt: {} already adopted, {} refused", tally.skipped, tally.refused)?;
        return Ok(if tally.refused > 0 { Exit::Failed } else { Exit::Ok });
    }
    if !carry.confirmed() {
        confirm_all(&carry, parallel, ui, &to_adopt)?;
    }
    runner.run_all(to_adopt.into_iter().map(|(item, _)| item).collect(), ui, out, &mut tally).await?;
    let backups = carry.backups().ok().map(|d| d.path.display().to_string());
    writeln!(out, "{}", summary(&tally, items.len(), backups.as_deref()))?;
    Ok(if tally.failed + tally.refused + tally.not_started > 0 { Exit::Failed } else { Exit::Ok })
}

/// The last line: every count, the failures broken down, and where the backups are.
fn summary(tally: &Tally, planned: usize, backups: Option<&str>) -> String {
    let not_started = if tally.not_started > 0 {
        format!(", {} not started (interrupted)", tally.not_started)
    } else {
        String::new()
    };
    let backups = backups.map(|b| format!("; backups in {}", style::sanitize(b))).unwrap_or_default();
    format!(
        "{} adopted, {} skipped (already adopted), {} refused, {} failed{not_started} of {planned} in the plan \
         (not found: {}, conflicts: {}){backups}",
        tally.adopted, tally.skipped, tally.refused, tally.failed, tally.not_found, tally.conflicts
    )
}

/// The items meant for the cluster of `current` (the context adopt connected through), and
/// those without a cluster; an item `doctor` found in another cluster is refused on its own line
/// and never located, read or written (its MR may not even exist here).
fn this_cluster(
    items: &[PlanItem],
    current: Option<&str>,
    out: &mut dyn Write,
    tally: &mut Tally,
) -> Result<Vec<PlanItem>, AdoptError> {
    let mut here = Vec::with_capacity(items.len());
    for item in items {
        match item.cluster.as_deref() {
            Some(cluster) if Some(cluster) != current => {
                tally.refused += 1;
                let now = current.map_or("no kubeconfig context".to_string(), |c| {
                    format!("the current context is {c}", c = quoted(c))
                });
                let who = style::sanitize(&item.resource);
                let why =
                    style::sanitize(&format!("planned for cluster {cluster}, but {now}", cluster = quoted(cluster)));
                writeln!(out, "{:<8} {who} {why}; use --context {}", "refused", style::sanitize(&word(cluster)))?;
            }
            _ => here.push(item.clone()),
        }
    }
    Ok(here)
}

/// Locates and reads every item; any problem refuses the whole plan (nothing is changed).
async fn read_all(
    reach: &Reach,
    parallel: Parallel,
    conn: &Arc<Connection>,
    items: &[PlanItem],
    path: &Path,
) -> Result<Vec<Item>, AdoptError> {
    let kinds = Kinds::discover(conn).await?;
    let namespace_flag = reach.namespace();
    let mut problems = Vec::new();
    let mut targets = Vec::new();
    for (index, item) in items.iter().enumerate() {
        let namespace = item.namespace.as_deref().or(namespace_flag);
        let located = TargetSpec::parse(&item.resource).map_err(|e| format!("item {index}: {e}")).and_then(|spec| {
            target::locate(conn, &kinds, &spec, namespace).map_err(|e| format!("item {index} ({}): {e}", item.resource))
        });
        match located {
            Ok(t) => targets.push((index, item.clone(), t)),
            Err(problem) => problems.push(problem),
        }
    }
    let fetched: Vec<Result<Item, String>> = futures::stream::iter(targets)
        .map(|(index, plan, target)| {
            let conn = conn.clone();
            async move {
                match write::read(&conn, &target).await {
                    Ok(obj) => {
                        let start = if parallel.probe { probe::start_index(&obj, &plan.ranked()) } else { 0 };
                        Ok(Item { plan, target, obj, start })
                    }
                    Err(WriteError::NotFound { target }) => Err(format!("item {index}: {target} not found")),
                    Err(e) => Err(format!("item {index}: {e}")),
                }
            }
        })
        .buffered(parallel.slots.max(4))
        .collect()
        .await;
    let mut ready = Vec::new();
    for f in fetched {
        match f {
            Ok(item) => ready.push(item),
            Err(p) => problems.push(p),
        }
    }
    if !problems.is_empty() {
        let list: Vec<String> = problems.iter().map(|p| format!("  {}", style::sanitize(p))).collect();
        return Err(Error::usage(format!(
            "the plan {} cannot be applied; nothing was changed:\n{}",
            path.display(),
            list.join("\n")
        ))
        .into());
    }
    Ok(ready)
}

/// Other MRs of the items' kinds by external-name.
async fn duplicates(conn: &Arc<Connection>, ready: &[Item], ui: &mut Ui) -> HashMap<String, Vec<ManagedResource>> {
    let mut kinds_needed: Vec<ApiKind> = ready.iter().map(|i| i.target.kind.clone()).collect();
    kinds_needed.sort_by_key(|k| k.resource_name());
    kinds_needed.dedup_by_key(|k| k.resource_name());
    let (by_name, scan_problems) = external_names(conn, kinds_needed).await;
    for p in scan_problems {
        ui.say(format!("note: could not check other MRs for the same IDs: {}", style::sanitize(&p)));
    }
    by_name
}

/// One line per item that will not be adopted; the others are returned.
fn preview(
    ready: Vec<Item>,
    by_name: &HashMap<String, Vec<ManagedResource>>,
    opts: &Options,
    out: &mut dyn Write,
    tally: &mut Tally,
) -> Result<Vec<ToAdopt>, AdoptError> {
    let mut to_adopt = Vec::new();
    for item in ready {
        let dups = by_name.get(item.id()).cloned().unwrap_or_default();
        let who = style::sanitize(&item.target.display());
        match adopt::preflight(&item.obj, item.id(), opts, &Context { duplicates: &dups, composite_paused: false }) {
            Verdict::NothingToDo(_) => {
                tally.skipped += 1;
                let id = style::sanitize(item.id());
                writeln!(out, "{:<8} {who} already has external-name {id}", "skipped", id = quoted(&id))?;
            }
            Verdict::Refused(r) => {
                tally.refused += 1;
                writeln!(out, "{:<8} {who} {}", "refused", style::sanitize(&r.to_string()))?;
            }
            Verdict::Adopt(p) => to_adopt.push((item, p.resumed)),
        }
    }
    Ok(to_adopt)
}

/// Every item's plan and patches, each sent with dryRun=All; nothing changes.
async fn dry_run_all(
    runner: &Runner<'_>,
    to_adopt: Vec<ToAdopt>,
    out: &mut dyn Write,
    mut tally: Tally,
) -> Result<Exit, AdoptError> {
    for (item, _) in &to_adopt {
        let dups = runner.by_name.get(item.id()).cloned().unwrap_or_default();
        let mut job = runner.job(item, None);
        writeln!(out)?;
        if let Err(e) = job.adopt(item.obj.clone(), item.id(), &dups, out).await {
            tally.refused += 1;
            let e = e.into_anyhow();
            let who = style::sanitize(&item.target.display());
            writeln!(out, "{:<8} {who}: {}", "failed", style::sanitize(&format!("{e:#}")))?;
        }
    }
    writeln!(
        out,
        "dry run: {} to adopt, {} already adopted, {} refused; nothing was changed",
        to_adopt.len(),
        tally.skipped,
        tally.refused
    )?;
    Ok(if tally.refused > 0 { Exit::Failed } else { Exit::Ok })
}

fn confirm_all(carry: &Carry, parallel: Parallel, ui: &mut Ui, to_adopt: &[ToAdopt]) -> Result<(), AdoptError> {
    if !ui.interactive {
        return Err(AdoptError::NoTerminal { what: format!("adopt {} MRs", to_adopt.len()), preview: "plans" });
    }
    for (item, resumed) in to_adopt {
        let more = item.plan.ranked().len().saturating_sub(item.start + 1);
        ui.say(format!(
            "  adopt {} as {}{}{}",
            style::sanitize(&item.target.display()),
            quoted(&style::sanitize(item.id())),
            if parallel.probe && more > 0 {
                format!(" (or the next of {more} more candidates)")
            } else {
                String::new()
            },
            if *resumed { " (resume)" } else { "" }
        ));
    }
    let q = format!("Adopt these {} MRs{}?", to_adopt.len(), if carry.import() { " (--import)" } else { "" });
    ui.confirm_change(&q, format!("adopt {} MRs", to_adopt.len()), "plans")
}
