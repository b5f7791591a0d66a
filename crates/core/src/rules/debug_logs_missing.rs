//! `DebugLogsMissing`: a provider (or log file) holds no DEBUG line, so the IDs it created cannot
//! be recovered from it. This rule looks at the log sources as a whole, not at one MR.

use super::mr_evidence::LogSource;
use crate::finding::{Code, Finding, ResourceRef};
use crate::report::{ReportFinding, ResourceState};
use std::collections::BTreeMap;

/// How to turn on debug logging, the only way upjet logs the IDs it creates.
pub(crate) const ENABLE_DEBUG: &str = "kubectl apply -f - <<EOF\napiVersion: pkg.crossplane.io/v1beta1\nkind: DeploymentRuntimeConfig\nmetadata: {name: debug}\nspec:\n  deploymentTemplate:\n    spec:\n      selector: {}\n      template:\n        spec:\n          containers:\n          - name: package-runtime\n            args: [--debug]\nEOF\n# then set spec.runtimeConfigRef.name: debug on the Provider";

/// One finding per provider (or log file) whose sources held lines but no DEBUG line: upjet logs
/// the IDs it creates only at debug level (upjet pkg/controller/external_nofork.go).
pub(super) fn check(sources: &[LogSource]) -> Vec<ReportFinding> {
    let mut by_owner: BTreeMap<String, (Option<String>, bool, Vec<&LogSource>)> = BTreeMap::new();
    for s in sources {
        let key = s.provider.clone().unwrap_or_else(|| s.name.clone());
        let entry = by_owner.entry(key).or_insert((s.provider.clone(), false, Vec::new()));
        entry.1 |= s.saw_debug;
        entry.2.push(s);
    }
    by_owner
        .into_iter()
        .filter(|(_, (_, saw_debug, sources))| !saw_debug && !sources.iter().all(|s| s.lines == 0))
        .map(|(owner, (provider, _, sources))| finding_for(owner, provider.is_some(), &sources))
        .collect()
}

/// The finding about one owner, attached to the Provider or to the log file.
fn finding_for(owner: String, is_provider: bool, sources: &[&LogSource]) -> ReportFinding {
    let (api_version, kind) = if is_provider { ("pkg.crossplane.io/v1", "Provider") } else { ("v1", "LogFile") };
    let names: Vec<&str> = sources.iter().map(|s| s.name.as_str()).collect();
    let finding = Finding::new(
        Code::DebugLogsMissing,
        format!("{owner} does not log at debug level, so the IDs it creates cannot be recovered from its logs; enable --debug"),
        ENABLE_DEBUG,
    )
    .with("sources", names.join(", "));
    ReportFinding {
        resource: ResourceRef {
            api_version: api_version.into(),
            kind: kind.into(),
            namespace: None,
            name: owner,
            uid: String::new(),
            cluster: None,
            source: None,
        },
        finding,
        state: ResourceState::default(),
    }
}

#[cfg(test)]
mod tests {
    use super::LogSource;

    fn source(name: &str, provider: Option<&str>, lines: u64, saw_debug: bool) -> LogSource {
        LogSource { name: name.into(), provider: provider.map(str::to_owned), lines, saw_debug }
    }

    #[test]
    fn once_per_owner_with_lines_and_no_debug() {
        let kms = Some("provider-aws-kms");
        let sources = [
            source("crossplane-system/p1/package-runtime", kms, 1, false),
            source("crossplane-system/p1/package-runtime (previous)", kms, 1, false),
            source("crossplane-system/p2/package-runtime", Some("provider-aws-ec2"), 1, true),
            source("incident.log", None, 1, false),
            source("empty.log", None, 0, false),
        ];
        let f = super::check(&sources);
        let owners: Vec<(&str, &str)> =
            f.iter().map(|r| (r.resource.kind.as_str(), r.resource.name.as_str())).collect();
        assert_eq!(owners, vec![("LogFile", "incident.log"), ("Provider", "provider-aws-kms")]);
        assert!(f[1].finding.next.contains("DeploymentRuntimeConfig"));
        assert_eq!(
            f[1].finding.evidence["sources"],
            "crossplane-system/p1/package-runtime, crossplane-system/p1/package-runtime (previous)"
        );
    }
}
