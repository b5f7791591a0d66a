//! Adopting every MR of a plan file (`doctor --plan` writes one): everything is resolved and
//! read before anything changes, then each item is adopted with bounded concurrency and reported
//! on one line.

use super::duplicates::external_names;
use super::error::AdoptError;
use super::executor::{Job, Outcome, Recorder, Sink};
use super::ui::Ui;
use super::{AdoptEnv, options};
use crate::cli::adopt::AdoptArgs;
use crate::cluster::connect::{self, Connection};
use crate::cluster::kinds::ApiKind;
use crate::cluster::target::{self, Kinds, TargetSpec};
use crate::cluster::write::{self, Target, WriteError};
use crate::domain::adopt::{self, Context, Options, Verdict};
use crate::domain::managed::ManagedResource;
use crate::domain::plan::{PlanItem, parse_plan};
use crate::error::{Error, Exit};
use crate::output::adopt::timed_out;
use crate::output::style;
use crate::settings::Settings;
use futures::StreamExt;
use serde_json::Value;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// One plan item, located and read.
struct Item {
    plan: PlanItem,
    target: Target,
    obj: Value,
}

/// An item to adopt, with the other MRs that already track its ID.
type ToAdopt = (Item, Vec<ManagedResource>, bool);

/// The counts the last line reports.
#[derive(Default)]
struct Tally {
    adopted: usize,
    skipped: usize,
    refused: usize,
    failed: usize,
    not_started: usize,
}

/// Adopts the plan at `path`.
pub(super) async fn bulk(
    settings: &Settings,
    args: &AdoptArgs,
    path: &Path,
    out: &mut dyn Write,
    ui: &mut Ui,
    env: &AdoptEnv,
) -> Result<Exit, AdoptError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::usage(format!("cannot read the plan {}: {e}", path.display())))?;
    let items = parse_plan(&text).map_err(|e| Error::usage(format!("{}: {e}", path.display())))?;
    if items.is_empty() {
        writeln!(out, "the plan is empty; nothing to do")?;
        return Ok(Exit::Ok);
    }
    let conn = Arc::new(connect::connect(&settings.connect).await?);
    let ready = read_all(settings, args, &conn, &items, path).await?;
    let by_name = duplicates(&conn, &ready, ui).await;
    let opts = options(args, env);
    let mut tally = Tally::default();
    let to_adopt = preview(ready, &by_name, &opts, out, &mut tally)?;
    if args.dry_run {
        return dry_run_all(&conn, args, &opts, env, ui, to_adopt, out, tally).await;
    }
    if to_adopt.is_empty() {
        writeln!(out, "nothing to adopt: {} already adopted, {} refused", tally.skipped, tally.refused)?;
        return Ok(if tally.refused > 0 { Exit::Failed } else { Exit::Ok });
    }
    if !args.yes {
        confirm_all(args, ui, &to_adopt)?;
    }
    adopt_all(&conn, args, &opts, env, ui, to_adopt, out, &mut tally).await?;
    writeln!(
        out,
        "{} adopted, {} skipped (already adopted), {} refused, {} failed{} of {} in the plan",
        tally.adopted,
        tally.skipped,
        tally.refused,
        tally.failed,
        if tally.not_started > 0 {
            format!(", {} not started (interrupted)", tally.not_started)
        } else {
            String::new()
        },
        items.len()
    )?;
    Ok(if tally.failed + tally.refused + tally.not_started > 0 { Exit::Failed } else { Exit::Ok })
}

/// Locates and reads every item; any problem refuses the whole plan (nothing is changed).
async fn read_all(
    settings: &Settings,
    args: &AdoptArgs,
    conn: &Arc<Connection>,
    items: &[PlanItem],
    path: &Path,
) -> Result<Vec<Item>, AdoptError> {
    let kinds = Kinds::discover(conn).await?;
    let namespace_flag = settings.namespace_flag.as_deref();
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
                    Ok(obj) => Ok(Item { plan, target, obj }),
                    Err(WriteError::NotFound { target }) => Err(format!("item {index}: {target} not found")),
                    Err(e) => Err(format!("item {index}: {e}")),
                }
            }
        })
        .buffered(usize::from(args.concurrency).max(4))
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
        let dups = by_name.get(&item.plan.id).cloned().unwrap_or_default();
        let who = style::sanitize(&item.target.display());
        match adopt::preflight(&item.obj, &item.plan.id, opts, &Context { duplicates: &dups }) {
            Verdict::NothingToDo(_) => {
                tally.skipped += 1;
                let id = style::sanitize(&item.plan.id);
                writeln!(out, "{:<8} {who} already has external-name {id:?}", "skipped")?;
            }
            Verdict::Refused(r) => {
                tally.refused += 1;
                writeln!(out, "{:<8} {who} {}", "refused", style::sanitize(&r.to_string()))?;
            }
            Verdict::Adopt(p) => to_adopt.push((item, dups, p.resumed)),
        }
    }
    Ok(to_adopt)
}

/// A job for one item whose progress is recorded.
fn job<'a>(
    conn: &'a Connection,
    item: &'a Item,
    args: &'a AdoptArgs,
    opts: &'a Options,
    env: &'a AdoptEnv,
    ui: &Ui,
) -> Job<'a> {
    Job {
        conn,
        target: &item.target,
        args,
        opts,
        env,
        sink: Sink::Recorder(Recorder::default()),
        can_ask: false,
        confirmed: true,
        interrupt: ui.interrupt.clone(),
    }
}

#[allow(clippy::too_many_arguments)]
async fn dry_run_all(
    conn: &Connection,
    args: &AdoptArgs,
    opts: &Options,
    env: &AdoptEnv,
    ui: &Ui,
    to_adopt: Vec<ToAdopt>,
    out: &mut dyn Write,
    mut tally: Tally,
) -> Result<Exit, AdoptError> {
    for (item, dups, _) in &to_adopt {
        let mut job = job(conn, item, args, opts, env, ui);
        writeln!(out)?;
        if let Err(e) = job.adopt(item.obj.clone(), &item.plan.id, dups, out).await {
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

fn confirm_all(args: &AdoptArgs, ui: &mut Ui, to_adopt: &[ToAdopt]) -> Result<(), AdoptError> {
    if !ui.interactive {
        return Err(AdoptError::NoTerminal { what: format!("adopt {} MRs", to_adopt.len()), preview: "plans" });
    }
    for (item, _, resumed) in to_adopt {
        ui.say(format!(
            "  adopt {} as {:?}{}",
            style::sanitize(&item.target.display()),
            style::sanitize(&item.plan.id),
            if *resumed { " (resume)" } else { "" }
        ));
    }
    let q = format!("Adopt these {} MRs{}?", to_adopt.len(), if args.import { " (--import)" } else { "" });
    ui.confirm_change(&q, format!("adopt {} MRs", to_adopt.len()), "plans")
}

/// Adopts with bounded concurrency; one line per MR as each finishes.
#[allow(clippy::too_many_arguments)]
async fn adopt_all(
    conn: &Connection,
    args: &AdoptArgs,
    opts: &Options,
    env: &AdoptEnv,
    ui: &Ui,
    to_adopt: Vec<ToAdopt>,
    out: &mut dyn Write,
    tally: &mut Tally,
) -> Result<(), AdoptError> {
    let interrupt = &ui.interrupt;
    let mut stream = futures::stream::iter(to_adopt)
        .map(|(item, dups, _)| async move {
            if interrupt.is_set() {
                return (item, Err(None), Recorder::default());
            }
            let mut job = job(conn, &item, args, opts, env, ui);
            let r = job.adopt(item.obj.clone(), &item.plan.id, &dups, &mut std::io::sink()).await;
            let recorded = match job.sink {
                Sink::Recorder(r) => r,
                Sink::Live(_) => Recorder::default(),
            };
            (item, r.map_err(Some), recorded)
        })
        .buffer_unordered(usize::from(args.concurrency));
    while let Some((item, result, recorded)) = stream.next().await {
        writeln!(out, "{}", item_line(&item, result, recorded, tally))?;
        out.flush()?;
    }
    Ok(())
}

/// The line that reports one item of the plan.
fn item_line(
    item: &Item,
    result: Result<Outcome, Option<AdoptError>>,
    recorded: Recorder,
    tally: &mut Tally,
) -> String {
    let who = style::sanitize(&item.target.display());
    let id = style::sanitize(&item.plan.id);
    match result {
        Ok(Outcome::Adopted { note }) => {
            tally.adopted += 1;
            let backup = recorded.backup.map(|b| format!(" (backup {b})")).unwrap_or_default();
            let extra = note.map(|n| format!(" (warning: {})", style::sanitize(&timed_out(&n)))).unwrap_or_default();
            format!("{:<8} {who} as {id:?}{backup}{extra}", "adopted")
        }
        Ok(Outcome::NothingToDo(_)) => {
            tally.skipped += 1;
            format!("{:<8} {who} already has external-name {id:?}", "skipped")
        }
        Ok(Outcome::DryRun) => format!("{:<8} {who}", "planned"),
        Err(None) => {
            tally.not_started += 1;
            format!("{:<8} {who} (interrupted before it started)", "skipped")
        }
        Err(Some(e)) => {
            tally.failed += 1;
            let e = e.into_anyhow();
            let mut l = format!("{:<8} {who}: {}", "failed", style::sanitize(&format!("{e:#}")));
            for d in &recorded.lines {
                l.push_str(&format!("\n           {d}"));
            }
            l
        }
    }
}
