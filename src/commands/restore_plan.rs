//! `kubectl upjet restore-plan`: judge a Velero backup (`backup::judge`), and stage its restore so
//! that nothing is created twice: the resource-modifiers ConfigMap Velero applies while it
//! restores, and the promote plan `kubectl upjet promote` finishes it with.

use super::backup::{self, Inputs};
use super::resolve::RestorePlan;
use crate::cli::restore::RestorePlanArgs;
use crate::settings::Settings;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use upjet_core::error::{Error, Exit};
use upjet_core::promote::{self, PromoteItem, PromotePlan};
use upjet_core::restore::modifiers::{self, Target};
use upjet_core::shell::ShellCommand;
use upjet_local::store;
use upjet_output::style::sanitize;

/// Runs restore-plan: its flags resolved once ([`RestorePlan`]; the outputs and the backup
/// refused here, before anything is read), then the staged restore.
pub async fn run(settings: &Settings, args: &RestorePlanArgs, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let exists = |p: &Path| std::fs::symlink_metadata(p).is_ok();
    let asked = RestorePlan::resolve(args, settings, exists, backup::is_backup).map_err(Error::from)?;
    stage(settings, &asked, out).await
}

/// Judges the backup and writes the modifiers and the promote plan that stage its restore.
async fn stage(settings: &Settings, args: &RestorePlan, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let inputs = Inputs {
        evidence: &args.evidence,
        id_templates: &args.id_templates,
        source_context: args.source_context.as_deref(),
        target_context: args.target_context.as_deref(),
        at: args.at,
        fleet: args.fleet.read().await?,
    };
    let judged = backup::judge(settings, &args.backup, inputs, |_| true).await?;
    let mut kind_counts: BTreeMap<String, usize> = BTreeMap::new();
    let mut items: Vec<PromoteItem> = Vec::new();
    for j in &judged.judged {
        *kind_counts.entry(j.item.group_resource.clone()).or_default() += 1;
        items.extend(promote::item(&j.item.mr, &j.item.group_resource, &j.findings));
    }
    let name = args.backup_name.clone().unwrap_or_else(|| backup::backup_name(&args.backup));
    let cm_name = args.config_map.clone().unwrap_or_else(|| config_map_name(&name));
    let plan = PromotePlan {
        api_version: "upjet.doctor/v1".into(),
        kind: "PromotePlan".into(),
        backup: name.clone(),
        config_map: format!("velero/{cm_name}"),
        items,
    };
    let total = judged.judged.len();
    for s in &judged.skipped {
        eprintln!("skipped: {}", sanitize(s));
    }
    for n in judged.fleet.cloud_notes() {
        eprintln!("{}", sanitize(n));
    }
    write_new(&args.plan, &(serde_json::to_string_pretty(&plan)? + "\n"), args.force)?;
    let inactive = write_inactive(out, &judged.judged)?;
    if plan.items.is_empty() {
        let every = if inactive == 0 { "every one" } else { "every other one" };
        writeln!(
            out,
            "{total} managed resources in backup {name}: {every} can be restored as it is; nothing to stage."
        )?;
        writeln!(out, "Restore it with:\n  velero restore create --from-backup {name}")?;
        writeln!(out, "(wrote an empty plan to {}; no modifiers are needed)", args.plan.display())?;
        return Ok(incomplete(&judged.skipped));
    }
    let targets: Vec<Target> = plan.items.iter().map(PromoteItem::target).collect();
    let rules = modifiers::rules(&targets, &kind_counts);
    modifiers::validate(&rules)
        .map_err(|e| Error::failed(format!("the modifiers written would be refused by Velero: {e}")))?;
    let body = modifiers::to_yaml(&rules).map_err(|e| Error::failed(format!("cannot write the modifiers: {e}")))?;
    write_new(&args.modifiers, &body, args.force)?;
    describe(out, &plan, total, rules.resource_modifier_rules.len(), args)?;
    Ok(incomplete(&judged.skipped))
}

/// Says which MRs a restore skips because their kind is inactive on the target
/// (`RestoreKindInactive`), one line per kind with the command that activates it. Returns how many.
fn write_inactive(out: &mut dyn Write, judged: &[backup::Judged]) -> std::io::Result<usize> {
    let mut kinds: BTreeMap<(String, String), usize> = BTreeMap::new();
    for j in judged {
        for f in j.findings.iter().filter(|f| f.code == upjet_core::finding::Code::RestoreKindInactive) {
            let kind = format!("{}.{}", j.item.mr.kind, j.item.mr.group());
            *kinds.entry((kind, f.next.clone())).or_default() += 1;
        }
    }
    for ((kind, activate), n) in &kinds {
        writeln!(
            out,
            "{n} managed resources of kind {kind} are not restored: the kind is inactive on the target cluster. Activate it first:\n  {activate}"
        )?;
    }
    Ok(kinds.values().sum())
}

/// Exit 4 when part of the backup could not be read: the plan covers what was.
fn incomplete(skipped: &[String]) -> Exit {
    if skipped.is_empty() { Exit::Ok } else { Exit::Incomplete }
}

/// `upjet-restore-<backup>`, as a valid ConfigMap name (lower case, at most 63 characters).
fn config_map_name(backup: &str) -> String {
    let clean: String = backup
        .to_lowercase()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '.' { c } else { '-' })
        .collect();
    let name = format!("upjet-restore-{clean}");
    name.chars().take(63).collect::<String>().trim_end_matches(['-', '.']).to_string()
}

/// Writes `text` to `path`: a new file, or (with --force) over the old one.
fn write_new(path: &Path, text: &str, force: bool) -> Result<(), Error> {
    let mut f =
        store::create(path, force).map_err(|e| Error::usage(format!("cannot write {}: {e}", path.display())))?;
    f.write_all(text.as_bytes()).map_err(|e| Error::failed(format!("cannot write {}: {e}", path.display())))
}

/// What was staged, and the commands that run the restore.
fn describe(
    out: &mut dyn Write,
    plan: &PromotePlan,
    total: usize,
    rules: usize,
    args: &RestorePlan,
) -> std::io::Result<()> {
    let count = |code: &str| plan.items.iter().filter(|i| i.verdict == code).count();
    let paused = plan.items.iter().filter(|i| i.restored.paused).count();
    let with_id = plan.items.iter().filter(|i| i.id.is_some()).count();
    writeln!(
        out,
        "{total} managed resources in backup {}: {} restored as they are, {} at risk ({} created again, {} stopped at the create gate, {} managed by the source cluster).",
        plan.backup,
        total - plan.items.len(),
        plan.items.len(),
        count("RestoreCreatesDuplicate"),
        count("RestoreStopsAtCreateGate"),
        count("RestoreIntoFight")
    )?;
    writeln!(
        out,
        "The {} at risk are restored with managementPolicies [\"Observe\"]: {with_id} with their ID as external-name, {paused} paused ({} without any ID).",
        plan.items.len(),
        plan.items.iter().filter(|i| i.id.is_none()).count()
    )?;
    writeln!(
        out,
        "Wrote {} ({rules} rules for the ConfigMap {}) and {}.",
        args.modifiers.display(),
        plan.config_map,
        args.plan.display()
    )?;
    let cm = plan.config_map.trim_start_matches("velero/");
    writeln!(out, "\nNext:")?;
    let create = ShellCommand::kubectl("create")
        .word("cm")
        .arg(cm)
        .arg(format!("--from-file={}={}", modifiers::DATA_KEY, args.modifiers.display()))
        .opt("-n", "velero");
    let restore = ShellCommand::new("velero")
        .word("restore")
        .word("create")
        .opt("--from-backup", &plan.backup)
        .opt("--resource-modifier-configmap", cm);
    let promote = ShellCommand::upjet("promote").opt("-f", args.plan.display().to_string());
    for command in [create, restore, promote] {
        writeln!(out, "  {}", sanitize(&command.to_string()))?;
    }
    for i in plan.items.iter().filter(|i| i.id.is_none()) {
        writeln!(
            out,
            "  # {} has no known ID: find it ({}), set it as its external-name, then promote",
            sanitize(&i.display()),
            sanitize(&i.upjet_command("history").to_string())
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn config_map_names_are_valid() {
        assert_eq!(config_map_name("nightly"), "upjet-restore-nightly");
        assert_eq!(config_map_name("Nightly_2024 11"), "upjet-restore-nightly-2024-11");
        assert_eq!(config_map_name(&"x".repeat(80)).len(), 63);
    }
}
