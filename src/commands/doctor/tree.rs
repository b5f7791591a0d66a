//! `doctor CLAIM|XR --from SNAPSHOT`: one composition tree judged whole. The snapshot is judged
//! as a fleet (so duplicates and earlier MRs are seen), then the report keeps the findings of the
//! tree's MRs; the terminal gets the tree (claim → XR → MRs) above them.

use super::*;
use crate::commands::inputs::read_snapshot;
use crate::commands::resolve::{DoctorOutput, Human, OneMr};
use std::collections::{BTreeSet, HashMap};
use upjet_core::composition::tree::{self, NodeRole};
use upjet_core::composition::{Composite, Composites};

/// The claim or XR `spec` names in `index` (kind as `kind[.group]`, any case, plural or not).
fn find_root<'a>(index: &'a Composites, spec: &TargetSpec, namespace: Option<&str>) -> Option<&'a Composite> {
    let (kind, group) = spec.kind.split_once('.').map(|(k, g)| (k, Some(g))).unwrap_or((spec.kind.as_str(), None));
    let kind = kind.to_lowercase();
    index.xrs().chain(index.claims()).find(|c| {
        let own = c.kind.to_lowercase();
        let kind_ok = kind == own || kind == format!("{own}s") || kind == format!("{own}es");
        kind_ok
            && group.is_none_or(|g| g.eq_ignore_ascii_case(c.group()))
            && c.name == spec.name
            && namespace.is_none_or(|n| c.namespace.as_deref().is_none_or(|own| own == n))
    })
}

/// Runs `doctor CLAIM|XR` over a snapshot; `None` when the target is no claim or XR of it (then
/// it is looked up as an MR).
pub(super) async fn offline(
    settings: &Settings,
    doctor: &Doctor,
    printer: &Printer,
    asked: &OneMr,
    path: &std::path::Path,
    out: &mut dyn Write,
) -> anyhow::Result<Option<Exit>> {
    let spec = TargetSpec::parse(&asked.target)?;
    let snap = read_snapshot(path)?;
    let Some(root) = find_root(&snap.tree, &spec, settings.namespace_flag.as_deref()).cloned() else {
        return Ok(None);
    };
    let mut report = from_snapshot(path, doctor, settings).await?;
    let key = |kind: &str, ns: Option<&str>, name: &str| (kind.to_string(), ns.map(str::to_owned), name.to_string());
    let mut by_mr: HashMap<_, Vec<Finding>> = HashMap::new();
    for f in &report.findings {
        let r = &f.resource;
        by_mr.entry(key(&r.kind, r.namespace.as_deref(), &r.name)).or_default().push(f.finding.clone());
    }
    let mrs: Vec<(ManagedResource, Vec<Finding>)> = snap
        .items
        .iter()
        .filter_map(|i| ManagedResource::from_json(&i.json).ok())
        .filter(|m| m.composed.is_some())
        .map(|m| {
            let findings = by_mr.remove(&key(&m.kind, m.namespace.as_deref(), &m.name)).unwrap_or_default();
            (m, findings)
        })
        .collect();
    let node = tree::build(&root, &snap.tree, &mrs);
    let in_tree: BTreeSet<_> = tree::walk(&node)
        .into_iter()
        .filter(|(_, _, n)| n.role == NodeRole::Mr)
        .map(|(_, _, n)| key(&n.kind, n.namespace.as_deref(), &n.name))
        .collect();
    report
        .findings
        .retain(|f| in_tree.contains(&key(&f.resource.kind, f.resource.namespace.as_deref(), &f.resource.name)));
    if matches!(printer.output, DoctorOutput::Human(Human::Table | Human::Wide)) {
        upjet_output::tree::write_tree(out, &node)?;
        writeln!(out)?;
    }
    print::report(settings, printer, &report, out)?;
    Ok(Some(print::exit_code(&doctor.exit, report.worst(), report.summary.incomplete())))
}
