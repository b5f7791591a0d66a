//! The adoption plan `doctor --plan` writes for `adopt -f`.

use super::*;

/// The adoption plan: one item per MR whose findings suggest an ID (the most severe finding wins).
pub fn plan_of(report: &Report) -> Vec<PlanItem> {
    let mut seen = std::collections::HashSet::new();
    report
        .findings
        .iter()
        .filter_map(|f| {
            let id = f.finding.suggested_id.clone()?;
            let r = &f.resource;
            let group = r.api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("");
            let resource = format!("{}.{}/{}", r.kind.to_lowercase(), group, r.name);
            seen.insert((resource.clone(), r.namespace.clone())).then(|| PlanItem {
                resource,
                namespace: r.namespace.clone(),
                id,
                reason: Some(f.finding.code.to_string()),
            })
        })
        .collect()
}

pub(super) fn write_plan(path: &std::path::Path, report: &Report) -> anyhow::Result<()> {
    let plan = plan_of(report);
    let text = serde_json::to_string_pretty(&plan)? + "\n";
    std::fs::write(path, text).map_err(|e| Error::usage(format!("cannot write plan {}: {e}", path.display())))?;
    eprintln!(
        "wrote an adoption plan with {} items to {} (apply with `kubectl upjet adopt -f {}`)",
        plan.len(),
        path.display(),
        path.display()
    );
    Ok(())
}
