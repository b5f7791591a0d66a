//! The fleet view: hundreds or thousands of findings folded into one line per code × kind ×
//! provider config, worst first, each with the one command that deals with the whole group.
//!
//! Exists because on a real fleet the table is hundreds of near-identical rows (4,000 RecordSets
//! that lost their cloud object after one node shutdown): what a person needs first is how many,
//! of what, under which credentials, and what to run next.

use super::codes::{Family, Lost};
use super::finding::{Code, Severity};
use super::managed::ProviderConfigKey;
use super::report::{Report, ReportFinding};
use super::rules::restore_plan;
use super::shell::{ShellCommand, words};
use std::collections::BTreeMap;

/// Screen height assumed when stdout is a terminal whose size cannot be read.
pub(crate) const DEFAULT_SCREEN_ROWS: usize = 50;

/// How many adoptions the suggested bulk command runs at once.
pub(crate) const SUGGESTED_PARALLEL: usize = 32;

/// One group of findings: same cluster, same code, same kind, same provider config.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The cluster, in a report of several (then groups never span clusters).
    pub cluster: Option<String>,
    /// The finding code.
    pub code: Code,
    /// The code's severity.
    pub severity: Severity,
    /// `kind.group` in lower case, e.g. `recordset.dns.gcp.upbound.io`.
    pub kind: String,
    /// `spec.providerConfigRef` as (kind, namespace, name), when the MRs have one: team-a's
    /// ProviderConfig `default` and the ClusterProviderConfig `default` are two groups.
    pub provider_config: Option<ProviderConfigKey>,
    /// Findings in the group.
    pub count: usize,
    /// Findings that carry a `suggestedId` (an adoption plan can fill them).
    pub with_id: usize,
    /// The one command to run next for the whole group.
    pub next: String,
    /// `next` is the first MR's own command: the others need the same, one by one.
    pub per_mr: bool,
}

/// The `kind.group` of a finding's resource, as every command of this tool accepts it.
fn kind_of(f: &ReportFinding) -> String {
    let r = &f.resource;
    match r.api_version.rsplit_once('/') {
        Some((group, _)) if !group.is_empty() => format!("{}.{group}", r.kind.to_lowercase()),
        _ => r.kind.to_lowercase(),
    }
}

/// The flags that point a suggested command at what the run read (`--context prod`,
/// `--from fleet.json`, `--log-file provider.log`), each value quoted as it needs when printed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SourceFlags {
    flags: Vec<(&'static str, String)>,
}

impl SourceFlags {
    /// Adds `flag VALUE`.
    pub fn flag(mut self, flag: &'static str, value: impl Into<String>) -> SourceFlags {
        self.flags.push((flag, value.into()));
        self
    }

    /// The first value of `flag`.
    fn value(&self, flag: &str) -> Option<&str> {
        self.flags.iter().find(|(f, _)| *f == flag).map(|(_, v)| v.as_str())
    }

    /// `command` with these flags added.
    pub fn apply(&self, command: ShellCommand) -> ShellCommand {
        self.flags.iter().fold(command, |c, (flag, value)| c.opt(flag, value))
    }

    /// The flags as printed, each word quoted as it needs (empty when there are none).
    fn text(&self) -> String {
        words(self.flags.iter().flat_map(|(flag, value)| [*flag, value.as_str()]))
    }
}

#[cfg(test)]
/// Folds the report's findings into groups, worst first: severity, then size, then code, kind
/// and provider config (so the order is stable). `scope` is repeated in every suggested doctor
/// command (e.g. `--from fleet.json`), so the commands run against what was diagnosed.
pub(crate) fn summarize(report: &Report, scope: &SourceFlags) -> Vec<Group> {
    summarize_scoped(report, |_| scope.clone())
}

/// [`summarize`] over a report of several clusters: the cluster is part of each group, and
/// `scope` gives the doctor flags that read one cluster again (`--context prod`).
pub fn summarize_scoped(report: &Report, scope: impl Fn(Option<&str>) -> SourceFlags) -> Vec<Group> {
    type Key = (Option<String>, Code, String, Option<ProviderConfigKey>);
    let mut groups: BTreeMap<Key, Vec<&ReportFinding>> = BTreeMap::new();
    for f in &report.findings {
        let key = (f.resource.cluster.clone(), f.finding.code, kind_of(f), f.state.provider_config.clone());
        groups.entry(key).or_default().push(f);
    }
    let mut out: Vec<Group> = groups
        .into_iter()
        .map(|((cluster, code, kind, provider_config), members)| {
            let with_id = members.iter().filter(|f| f.finding.suggested_id.is_some()).count();
            let scope = scope(cluster.as_deref());
            let (mut next, per_mr) = next_command(code, &kind, with_id, &members, &scope);
            if cluster.is_some() {
                next = scoped(&next, &scope);
            }
            Group {
                cluster,
                code,
                severity: code.severity(),
                kind,
                provider_config,
                count: members.len(),
                with_id,
                next,
                per_mr,
            }
        })
        .collect();
    out.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then(b.count.cmp(&a.count))
            .then(a.code.cmp(&b.code))
            .then(a.kind.cmp(&b.kind))
            .then(a.provider_config.cmp(&b.provider_config))
            .then(a.cluster.cmp(&b.cluster))
    });
    out
}

/// The group's next command: an adoption plan when IDs are known, a way to find them when an
/// identity code has none, else the findings' own command (shared, or the first MR's).
fn next_command(
    code: Code,
    kind: &str,
    with_id: usize,
    members: &[&ReportFinding],
    scope: &SourceFlags,
) -> (String, bool) {
    if code.family() == Family::Backup {
        // A backup's verdicts: the restore is staged (or run) from the backup read.
        let staged = restore_plan(scope.value("--from")).to_string();
        let next = |f: &&ReportFinding| match f.finding.next == restore_plan(None).to_string() {
            true => staged.clone(),
            false => f.finding.next.clone(),
        };
        let first = members.first().map(next).unwrap_or_default();
        let shared = members.iter().all(|f| next(f) == first);
        return (first, !shared);
    }
    let doctor = scope.apply(ShellCommand::upjet("doctor")).opt("--kind", kind).opt("--only", code.as_str());
    if with_id > 0 {
        // A plan made in a live cluster names it: adopt it there.
        let adopt = match scope.value("--context") {
            Some(context) => ShellCommand::upjet("adopt").opt("--context", context),
            None => ShellCommand::upjet("adopt"),
        };
        let adopt = adopt.opt("-f", "plan.json").word("--import").opt("--parallel", SUGGESTED_PARALLEL.to_string());
        return (doctor.opt("--plan", "plan.json").and_then(adopt).to_string(), false);
    }
    // Lost with no ID known: find one. A code that names its ID whenever adopting is due
    // (`Lost::Recorded`, `Lost::WhenNamed`) has nothing to adopt without one.
    if code.lost() == Lost::Search {
        let find = doctor.opt("--plan", "plan.json").opt("--inventory", "EXPORT.json");
        return (find.comment_with("or --id-template", &format!("{kind}=TEMPLATE")).to_string(), false);
    }
    let first = members.first().map(|f| f.finding.next.as_str()).unwrap_or_default();
    let shared = members.iter().all(|f| f.finding.next == first);
    (first.to_string(), !shared)
}

/// A finding's own `kubectl upjet CMD …` pointed at its cluster (`CMD --context prod …`), so a
/// command copied from a report of several clusters reads the right one; doctor's own suggested
/// commands already carry the scope. The subcommand is the word the rule wrote after
/// `kubectl upjet`, and the scope's words are quoted as every argument is.
fn scoped(next: &str, scope: &SourceFlags) -> String {
    let Some(rest) = next.strip_prefix("kubectl upjet ") else { return next.to_string() };
    let (cmd, args) = rest.split_once(' ').unwrap_or((rest, ""));
    let flags = scope.text();
    if flags.is_empty() || args.starts_with(&flags) {
        return next.to_string();
    }
    let mut out = next.to_string();
    out.insert_str("kubectl upjet ".len() + cmd.len(), &format!(" {flags}"));
    out
}

/// Whether doctor prints the fleet summary instead of the table: only when no `-o` was given,
/// stdout is a terminal, and the table would not fit on the screen (scripts reading a pipe
/// always get the table, byte for byte).
pub fn summary_first(
    format_given: bool,
    stdout_terminal: bool,
    table_lines: usize,
    screen_rows: Option<usize>,
) -> bool {
    // Two lines stay free: the stderr count line and the shell prompt.
    !format_given && stdout_terminal && table_lines + 2 > screen_rows.unwrap_or(DEFAULT_SCREEN_ROWS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::finding::Finding;
    use crate::report::{Filter, ReportBuilder, ResourceState};
    use crate::testing::Mr;

    /// A provider config key from its words: `default` (legacy), `ClusterProviderConfig default`,
    /// `ProviderConfig team-a/default`.
    fn key(words: &str) -> ProviderConfigKey {
        match words.split_once(' ') {
            None => ProviderConfigKey::cluster_scoped(words),
            Some((kind, rest)) => match rest.split_once('/') {
                Some((ns, name)) => {
                    ProviderConfigKey { kind: kind.into(), namespace: Some(ns.into()), name: name.into() }
                }
                None => ProviderConfigKey { kind: kind.into(), namespace: None, name: rest.into() },
            },
        }
    }

    fn report(items: &[(&str, &str, Code, Option<&str>, Option<&str>)]) -> Report {
        let mut b = ReportBuilder::new(Filter::default());
        for (kind, name, code, pc, id) in items {
            let mr = Mr::new(kind, name).build();
            let f = Finding::new(*code, "m", format!("kubectl upjet history {name}")).suggest(*id);
            let state = ResourceState { provider_config: pc.map(key), ..ResourceState::of(&mr) };
            b.add(&mr, vec![f], || state);
        }
        b.finish()
    }

    #[test]
    fn groups_by_code_kind_and_provider_config_worst_first() {
        use Code::*;
        let r = report(&[
            ("RecordSet", "a", AlreadyExists, Some("default"), Some("id-a")),
            ("RecordSet", "b", AlreadyExists, Some("default"), None),
            ("RecordSet", "c", AlreadyExists, Some("default"), Some("id-c")),
            ("RecordSet", "d", AlreadyExists, Some("other"), None),
            ("RecordSet", "t", AlreadyExists, Some("ProviderConfig team-a/default"), None),
            ("RecordSet", "u", AlreadyExists, Some("ClusterProviderConfig default"), None),
            ("RecordSet", "e", Paused, Some("default"), None),
            ("RecordSet", "f", Paused, Some("default"), None),
            ("ManagedZone", "z", CreateFailed, None, None),
        ]);
        let groups = summarize(&r, &SourceFlags::default());
        let got: Vec<(Code, &str, Option<String>, usize, usize, bool)> = groups
            .iter()
            .map(|g| {
                (
                    g.code,
                    g.kind.as_str(),
                    g.provider_config.as_ref().map(|k| k.to_string()),
                    g.count,
                    g.with_id,
                    g.per_mr,
                )
            })
            .map(|(c, k, p, n, i, m)| (c, k.strip_suffix(".dns.gcp.upbound.io").unwrap(), p, n, i, m))
            .collect();
        assert_eq!(
            got,
            vec![
                (AlreadyExists, "recordset", Some("default".into()), 3, 2, false),
                (AlreadyExists, "recordset", Some("ClusterProviderConfig default".into()), 1, 0, false),
                (AlreadyExists, "recordset", Some("other".into()), 1, 0, false),
                (AlreadyExists, "recordset", Some("ProviderConfig team-a/default".into()), 1, 0, false),
                (CreateFailed, "managedzone", None, 1, 0, false),
                (Paused, "recordset", Some("default".into()), 2, 0, true),
            ]
        );
    }

    #[test]
    fn next_command_plans_predicts_or_repeats() {
        use Code::*;
        let r = report(&[
            ("RecordSet", "a", AlreadyExists, None, Some("id-a")),
            ("Key", "k", ExternalNameMissing, None, None),
            ("Bucket", "b", Paused, None, None),
        ]);
        let groups = summarize(&r, &SourceFlags::default().flag("--from", "fleet.json"));
        let next = |code: Code| groups.iter().find(|g| g.code == code).unwrap().next.clone();
        assert_eq!(
            next(AlreadyExists),
            "kubectl upjet doctor --from fleet.json --kind recordset.dns.gcp.upbound.io --only AlreadyExists \
             --plan plan.json && kubectl upjet adopt -f plan.json --import --parallel 32"
        );
        assert!(
            next(ExternalNameMissing).contains("--plan plan.json --inventory EXPORT.json"),
            "{}",
            next(ExternalNameMissing)
        );
        assert!(next(ExternalNameMissing).contains("--id-template key.dns.gcp.upbound.io=TEMPLATE"));
        assert_eq!(next(Paused), "kubectl upjet history b");
    }

    #[test]
    fn several_clusters_are_grouped_apart_with_their_own_scope() {
        use crate::clusters::{Outcome, merge};
        let one = || report(&[("RecordSet", "a", Code::AlreadyExists, None, Some("id-a"))]);
        let merged = merge(vec![
            ("prod".into(), Outcome::Scanned(Box::new(one()))),
            ("staging".into(), Outcome::Scanned(Box::new(one()))),
        ]);
        let groups = summarize_scoped(&merged, |c| SourceFlags::default().flag("--context", c.unwrap_or("?")));
        let got: Vec<(Option<&str>, usize)> = groups.iter().map(|g| (g.cluster.as_deref(), g.count)).collect();
        assert_eq!(got, vec![(Some("prod"), 1), (Some("staging"), 1)]);
        assert!(groups[1].next.starts_with("kubectl upjet doctor --context staging --kind"), "{}", groups[1].next);
        assert!(groups[1].next.contains("&& kubectl upjet adopt --context staging -f plan.json"), "{}", groups[1].next);
        let prod = SourceFlags::default().flag("--context", "prod");
        assert_eq!(scoped("kubectl upjet history rs/a -n x", &prod), "kubectl upjet history --context prod rs/a -n x");
        assert_eq!(
            scoped("kubectl upjet doctor --context prod --kind k", &prod),
            "kubectl upjet doctor --context prod --kind k"
        );
        assert_eq!(scoped("kubectl annotate x", &prod), "kubectl annotate x");
        let odd = SourceFlags::default().flag("--context", "arn:aws:eks:x:1:cluster/a b;id");
        assert_eq!(
            scoped("kubectl upjet history rs/a", &odd),
            "kubectl upjet history --context 'arn:aws:eks:x:1:cluster/a b;id' rs/a",
            "a context name is quoted like any argument"
        );
        assert!(summarize(&one(), &SourceFlags::default()).iter().all(|g| g.cluster.is_none()));
    }

    #[test]
    fn summary_first_only_for_an_unasked_terminal_that_overflows() {
        for (given, tty, lines, rows, want) in [
            (false, true, 100, Some(40), true),
            (false, true, 30, Some(40), false),
            (false, true, 39, Some(40), true),
            (false, true, 49, None, true),
            (false, true, 47, None, false),
            (true, true, 1000, Some(40), false),
            (false, false, 1000, Some(40), false),
        ] {
            assert_eq!(summary_first(given, tty, lines, rows), want, "{given} {tty} {lines} {rows:?}");
        }
    }
}
