//! The adoption plan `doctor --plan` writes for `adopt -f`.

use super::*;
use std::collections::HashMap;
use upjet_core::candidate;
use upjet_core::report::ReportFinding;
use upjet_core::shell::ShellCommand;

/// One MR of a plan: cluster, `kind.group/name`, namespace.
type PlanKey = (Option<String>, String, Option<String>);

/// The adoption plan: one item per MR whose findings suggest an ID, with every suggestion for
/// that MR in one ranked list (the best as `id`, the rest as `candidates` for `adopt --probe`).
/// Each item names its cluster: the finding's, else `cluster` (the one context scanned), so
/// `adopt -f` can refuse to apply it to another cluster.
pub fn plan_of(report: &Report, cluster: Option<&str>) -> Vec<PlanItem> {
    let mut order: Vec<PlanKey> = Vec::new();
    let mut by_mr: HashMap<PlanKey, Vec<&ReportFinding>> = HashMap::new();
    for f in report.findings.iter().filter(|f| f.finding.suggested_id.is_some()) {
        let r = &f.resource;
        let group = r.api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("");
        let key = (
            r.cluster.clone().or_else(|| cluster.map(str::to_owned)),
            format!("{}.{}/{}", r.kind.to_lowercase(), group, r.name),
            r.namespace.clone(),
        );
        if !by_mr.contains_key(&key) {
            order.push(key.clone());
        }
        by_mr.entry(key).or_default().push(f);
    }
    order
        .into_iter()
        .filter_map(|key| {
            let ranked = candidate::from_findings(by_mr.remove(&key)?.into_iter().map(|f| &f.finding));
            let (best, rest) = ranked.split_first()?;
            Some(PlanItem {
                cluster: key.0,
                resource: key.1,
                namespace: key.2,
                id: best.id.clone(),
                candidates: rest.iter().map(|c| c.id.clone()).collect(),
                reason: Some(best.source.clone()),
            })
        })
        .collect()
}

pub(super) fn write_plan(path: &std::path::Path, report: &Report, cluster: Option<&str>) -> anyhow::Result<()> {
    let plan = plan_of(report, cluster);
    let text = serde_json::to_string_pretty(&plan)? + "\n";
    upjet_local::store::write(path, text.as_bytes())
        .map_err(|e| Error::usage(format!("cannot write plan {}: {e}", path.display())))?;
    let adopt = ShellCommand::upjet("adopt").opt("-f", path.display().to_string());
    eprintln!("wrote an adoption plan with {} items to {} (apply with `{adopt}`)", plan.len(), path.display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use upjet_core::finding::Code;
    use upjet_core::testing::Mr;

    #[test]
    fn one_item_per_mr_with_every_suggestion_ranked() {
        let mut b = ReportBuilder::new(upjet_core::report::Filter::default());
        let www = Mr::new("RecordSet", "www").api_version("dns.gcp.upbound.io/v1beta2").build();
        let api = Mr::new("RecordSet", "api").api_version("dns.gcp.upbound.io/v1beta2").build();
        let f = |code: Code, id: &str| Finding::new(code, "m", "n").suggest(Some(id));
        b.add(&www, vec![f(Code::AlreadyExists, "predicted"), f(Code::OrphanCandidate, "logged")], Default::default);
        b.add(&api, vec![Finding::new(Code::CreateIncomplete, "m", "n")], Default::default);
        let report = b.finish();
        let plan = plan_of(&report, None);
        assert_eq!(plan.len(), 1, "an MR without a suggestion is not planned: {plan:?}");
        assert_eq!(plan[0].cluster, None);
        assert_eq!(plan_of(&report, Some("prod"))[0].cluster.as_deref(), Some("prod"), "the one context scanned");
        let merged = upjet_core::clusters::merge(vec![
            ("staging".into(), upjet_core::clusters::Outcome::Scanned(Box::new(report.clone()))),
            ("prod".into(), upjet_core::clusters::Outcome::Scanned(Box::new(report))),
        ]);
        let both: Vec<Option<String>> = plan_of(&merged, None).into_iter().map(|i| i.cluster).collect();
        assert_eq!(both, vec![Some("prod".into()), Some("staging".into())], "the same MR in two clusters is two items");
        let item = &plan[0];
        assert_eq!(item.resource, "recordset.dns.gcp.upbound.io/www");
        assert_eq!((item.id.as_str(), item.candidates.as_slice()), ("logged", &["predicted".to_string()][..]));
        assert_eq!(item.reason.as_deref(), Some("OrphanCandidate"), "the logged create outranks a prediction");
    }
}
