//! Several clusters in one report: naming a cluster after its snapshot, and merging the reports
//! of each cluster (each already filtered) into one whose findings and summary say which cluster
//! they belong to, with one summary block per cluster.
//!
//! Pure, so that how a partial multi-cluster run is reported (which cluster, why, what still
//! counts) is decided and tested here and the shell only collects.

pub(crate) use super::report::ClusterSummary;
use super::report::{Report, Summary, kinds_going, sort_findings};
use std::path::Path;

/// How scanning one cluster ended.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// It was read (maybe partly: its own summary says so).
    Scanned(Box<Report>),
    /// It could not be read at all; the reason in one line.
    Failed(String),
}

/// A snapshot's cluster name: the folder's name for a directory (`snapshots/staging/` →
/// `staging`), else the file name without its extensions (`prod.json`, `prod.json.gz` → `prod`).
pub(crate) fn name_from_path(path: &Path, is_dir: bool) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    let name = if is_dir { name } else { name.split('.').next().unwrap_or(name) };
    (!name.is_empty() && name != "..").then(|| name.to_string())
}

/// The cluster names of several snapshots, in order; a path that names no cluster, or two that
/// name the same one, is refused (the report could not tell their findings apart).
pub fn names_of_snapshots(paths: &[(&Path, bool)]) -> Result<Vec<String>, String> {
    let mut names: Vec<String> = Vec::with_capacity(paths.len());
    for (path, is_dir) in paths {
        let name = name_from_path(path, *is_dir)
            .ok_or_else(|| format!("cannot name a cluster after {}: give a file or folder name", path.display()))?;
        if let Some(i) = names.iter().position(|n| *n == name) {
            return Err(format!(
                "{} and {} both name the cluster {name:?}: one snapshot per cluster, named after the file or folder",
                paths[i].0.display(),
                path.display()
            ));
        }
        names.push(name);
    }
    Ok(names)
}

/// One report from the reports of several clusters, in the order given: every finding and
/// skipped kind carries its cluster, unreadable objects and notes are prefixed with it, counts
/// are summed, and `summary.clusters` holds one block per cluster (a failed one with its error).
pub fn merge(clusters: Vec<(String, Outcome)>) -> Report {
    let mut findings = Vec::new();
    let mut summary = Summary::default();
    for (name, outcome) in clusters {
        let report = match outcome {
            Outcome::Failed(error) => {
                let block = ClusterSummary { name, error: Some(error), ..Default::default() };
                summary.clusters.push(block);
                continue;
            }
            Outcome::Scanned(report) => *report,
        };
        let s = report.summary;
        summary.clusters.push(ClusterSummary {
            name: name.clone(),
            complete: !s.incomplete(),
            kinds_scanned: s.kinds_scanned,
            resources_scanned: s.resources_scanned,
            findings: s.findings,
            error: None,
        });
        summary.kinds_scanned += s.kinds_scanned;
        summary.resources_scanned += s.resources_scanned;
        summary.restart_duplicates += s.restart_duplicates;
        summary.kinds_skipped.extend(s.kinds_skipped.into_iter().map(|mut k| {
            k.cluster = Some(name.clone());
            k
        }));
        summary.unreadable.extend(s.unreadable.into_iter().map(|u| format!("{name}: {u}")));
        summary.inputs_truncated.extend(s.inputs_truncated.into_iter().map(|u| format!("{name}: {u}")));
        summary.notes.extend(s.notes.into_iter().map(|n| format!("{name}: {n}")));
        findings.extend(report.findings.into_iter().map(|mut f| {
            f.resource.cluster = Some(name.clone());
            f
        }));
    }
    sort_findings(&mut findings);
    for rf in &findings {
        *summary.findings.entry(rf.finding.severity).or_default() += 1;
        *summary.by_code.entry(rf.finding.code).or_default() += 1;
    }
    summary.kinds_being_deleted = kinds_going(&findings);
    summary.complete = !summary.incomplete();
    Report { api_version: "upjet.doctor/v1", kind: "Report", findings, summary }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::{Code, Finding, Severity};
    use crate::report::{Filter, ReportBuilder};
    use crate::testing::Mr;
    use std::path::PathBuf;

    #[test]
    fn snapshot_names_come_from_files_and_folders() {
        for (path, dir, want) in [
            ("examples/clusters/prod.json", false, Some("prod")),
            ("prod.json.gz", false, Some("prod")),
            ("/tmp/staging.yaml", false, Some("staging")),
            ("snapshots/staging/", true, Some("staging")),
            ("snapshots/eu.west", true, Some("eu.west")),
            ("noext", false, Some("noext")),
            (".hidden.json", false, None),
            ("/", true, None),
            ("..", true, None),
        ] {
            assert_eq!(name_from_path(Path::new(path), dir).as_deref(), want, "{path}");
        }
    }

    #[test]
    fn two_snapshots_of_one_name_are_refused() {
        let (a, b, c) = (PathBuf::from("x/prod.json"), PathBuf::from("y/prod/"), PathBuf::from("staging.json"));
        assert_eq!(names_of_snapshots(&[(&a, false), (&c, false)]).unwrap(), vec!["prod", "staging"]);
        let err = names_of_snapshots(&[(&a, false), (&c, false), (&b, true)]).unwrap_err();
        assert!(err.contains("x/prod.json and y/prod/ both name the cluster \"prod\""), "{err}");
        assert!(names_of_snapshots(&[(Path::new("/"), true)]).unwrap_err().contains("cannot name"));
    }

    fn report_with(names: &[(&str, Code)], skipped: bool) -> Report {
        let mut b = ReportBuilder::new(Filter::default());
        b.scanned(10);
        b.kind_scanned();
        for (name, code) in names {
            b.add(&Mr::new("RecordSet", name).build(), vec![Finding::new(*code, "m", "n")], Default::default);
        }
        if skipped {
            b.kind_skipped("vpcs.ec2.aws.upbound.io".into(), "forbidden (403)".into());
            b.note("read 1 log source".into());
        }
        b.finish()
    }

    /// A kind going away is counted once per cluster: its MRs, and those deleting their object.
    #[test]
    fn kinds_going_away_are_counted_per_cluster() {
        let going = |name: &str, cloud: &str| {
            Finding::new(Code::KindBeingDeleted, "m", "n")
                .with(crate::kind_removal::DEFINITIONS, "its CustomResourceDefinition is being deleted")
                .with(crate::kind_removal::CLOUD_OBJECT, cloud)
                .with("name", name)
        };
        let report = |objects: &[&str]| {
            let mut b = ReportBuilder::new(Filter::default());
            for (i, cloud) in objects.iter().enumerate() {
                let name = format!("rs-{i}");
                b.add(&Mr::new("RecordSet", &name).build(), vec![going(&name, cloud)], Default::default);
            }
            b.finish()
        };
        let prod = report(&["deleted", "kept", "deleted"]);
        assert_eq!(prod.summary.kinds_being_deleted.len(), 1);
        assert_eq!(
            (
                prod.summary.kinds_being_deleted[0].managed_resources,
                prod.summary.kinds_being_deleted[0].delete_cloud_objects
            ),
            (3, 2)
        );
        let merged = merge(vec![
            ("prod".into(), Outcome::Scanned(Box::new(prod))),
            ("staging".into(), Outcome::Scanned(Box::new(report(&["kept"])))),
        ]);
        let lines: Vec<String> = merged.summary.kinds_being_deleted.iter().map(|k| k.line()).collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("prod: recordset.dns.gcp.upbound.io is going away"), "{lines:?}");
        assert!(lines[1].ends_with("MRs deleted with it: 1, deleting their cloud object: 0"), "{lines:?}");
    }

    #[test]
    fn merged_reports_name_their_cluster_and_sum_per_cluster() {
        let prod = report_with(&[("www", Code::AlreadyExists), ("api", Code::Paused)], true);
        let staging = report_with(&[("www", Code::AlreadyExists)], false);
        let merged = merge(vec![
            ("staging".into(), Outcome::Scanned(Box::new(staging))),
            ("prod".into(), Outcome::Scanned(Box::new(prod))),
            ("dr".into(), Outcome::Failed("cannot reach the API server at https://dr:6443/".into())),
        ]);
        let rows: Vec<(Option<&str>, &str, Code)> = merged
            .findings
            .iter()
            .map(|f| (f.resource.cluster.as_deref(), f.resource.name.as_str(), f.finding.code))
            .collect();
        assert_eq!(
            rows,
            vec![
                (Some("prod"), "www", Code::AlreadyExists),
                (Some("staging"), "www", Code::AlreadyExists),
                (Some("prod"), "api", Code::Paused),
            ],
            "most severe first, then by cluster"
        );
        let s = &merged.summary;
        assert_eq!((s.kinds_scanned, s.resources_scanned, s.complete), (2, 20, false));
        assert_eq!(s.findings.get(&Severity::Error), Some(&2));
        assert_eq!(s.kinds_skipped[0].cluster.as_deref(), Some("prod"));
        assert_eq!(s.notes, vec!["prod: read 1 log source".to_string()]);
        let blocks: Vec<(&str, bool, usize, Option<&str>)> =
            s.clusters.iter().map(|c| (c.name.as_str(), c.complete, c.resources_scanned, c.error.as_deref())).collect();
        assert_eq!(
            blocks,
            vec![
                ("staging", true, 10, None),
                ("prod", false, 10, None),
                ("dr", false, 0, Some("cannot reach the API server at https://dr:6443/")),
            ]
        );
        assert_eq!(s.clusters[1].findings.values().sum::<usize>(), 2);
        let json = serde_json::to_value(&merged).unwrap();
        assert_eq!(json["findings"][0]["resource"]["cluster"], "prod");
        assert_eq!(json["summary"]["clusters"][2]["error"], "cannot reach the API server at https://dr:6443/");
        assert_eq!(json["summary"]["clusters"][0]["kindsScanned"], 1);
    }

    #[test]
    fn only_failed_clusters_or_a_clean_set_decide_completeness() {
        let clean = merge(vec![
            ("a".into(), Outcome::Scanned(Box::new(report_with(&[], false)))),
            ("b".into(), Outcome::Scanned(Box::new(report_with(&[], false)))),
        ]);
        assert!(clean.summary.complete && !clean.summary.incomplete());
        let one_down = merge(vec![
            ("a".into(), Outcome::Scanned(Box::new(report_with(&[], false)))),
            ("b".into(), Outcome::Failed("x".into())),
        ]);
        assert!(!one_down.summary.complete && one_down.summary.incomplete());
        // A single-cluster report is untouched by all this: no cluster, no block.
        let single = serde_json::to_value(report_with(&[("www", Code::Paused)], false)).unwrap();
        assert!(
            single["summary"].get("clusters").is_none() && single["findings"][0]["resource"].get("cluster").is_none()
        );
    }
}
