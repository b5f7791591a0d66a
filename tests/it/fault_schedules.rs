//! doctor through an API server that misbehaves the way busy control planes do: continue tokens
//! expiring (410) on every page, bodies cut at random points, 429 storms, 5xx and resets, alone
//! and all at once. The scan must finish with the clean run's exact report (byte for byte, and
//! the same adoption plan), or name the kinds it could not read; never lose findings silently.

use crate::support::NO_GUARD;
use crate::support::{Cluster, Mr, Run, Upjet};
use proptest::prelude::*;
use serde_json::Value;
use testapi::{Fault, Method};

const DNS: &str = "dns.gcp.upbound.io/v1beta2";
/// The retry budget the tests give doctor: the default schedule's shape, in milliseconds.
const BUDGET: &str = "2s";

/// Three kinds with findings in each: 1,250 record sets (3 pages), 520 zones (2 pages), 10 policies.
fn fleet() -> Cluster {
    let c = Cluster::builder()
        .crd_files(
            "provider-upjet-gcp",
            &[
                "dns.gcp.upbound.io_recordsets.yaml",
                "dns.gcp.upbound.io_managedzones.yaml",
                "dns.gcp.upbound.io_policies.yaml",
            ],
        )
        .start();
    for i in 0..1_250 {
        let mr = Mr::provisioned(DNS, "RecordSet", &format!("rs-{i:04}"));
        c.add(if i % 50 == 7 { mr.create_incomplete() } else { mr }.json());
    }
    for i in 0..520 {
        let mr = Mr::provisioned(DNS, "ManagedZone", &format!("zone-{i:03}"));
        c.add(if i % 40 == 3 { mr.create_incomplete() } else { mr }.json());
    }
    for i in 0..10 {
        let mr = Mr::provisioned(DNS, "Policy", &format!("policy-{i}"));
        c.add(if i == 4 { mr.create_incomplete() } else { mr }.json());
    }
    c
}

/// One doctor run with `--retry-budget budget` (the report on stdout) that writes its adoption
/// plan afresh (read it with [`plan`]).
fn scan(c: &Cluster, budget: &str) -> Upjet {
    let plan = c.dir().join("plan.json");
    let _ = std::fs::remove_file(&plan);
    let mut cmd = c.upjet();
    cmd.args(["doctor", "--retry-budget", budget, "--concurrency", "4", "--plan"]).arg(&plan).json();
    cmd
}

/// The adoption plan the last [`scan`] wrote.
fn plan(c: &Cluster) -> String {
    std::fs::read_to_string(c.dir().join("plan.json")).unwrap_or_default()
}

/// The run without faults: every MR read, findings in each kind (exit 1).
fn clean(c: &Cluster) -> (Run, String) {
    let run = scan(c, BUDGET)
        .status(1)
        .stderr_contains(NO_GUARD)
        .stderr_contains("3 kinds scanned, 1780 managed resources, 39 errors, 39 warnings, 0 info")
        .run();
    let r = run.report();
    assert_eq!(r["summary"]["resourcesScanned"], 1_780);
    assert_eq!(r["summary"]["complete"], true);
    assert_eq!(r["summary"]["byCode"]["CreateIncomplete"], 25 + 13 + 1);
    (run, plan(c))
}

/// The faulty run equals the clean one (report bytes, plan and exit code); returns how many list
/// requests it took (the clean run takes 6 pages: 3 + 2 + 1).
fn assert_same(c: &Cluster, (clean, clean_plan): &(Run, String)) -> u64 {
    c.api.reset_stats();
    // The clean run's exit code.
    let run = scan(c, BUDGET)
        .status(1)
        .stderr_contains(NO_GUARD)
        .stderr_contains("3 kinds scanned, 1780 managed resources, 39 errors, 39 warnings, 0 info")
        .run();
    assert!(run.stdout == clean.stdout, "report differs from the clean run's; stderr:\n{}", run.stderr);
    assert_eq!(&plan(c), clean_plan);
    c.api.stats().class("list")
}

/// Runs the fleet under `schedule(seed)` for several seeds; every run must equal the clean one,
/// and the faults must have cost at least `min_extra` extra list requests in all.
fn under_schedules(schedule: impl Fn(u64) -> Vec<Fault>, runs: u64, min_extra: u64) {
    let c = fleet();
    let clean = clean(&c);
    let mut extra = 0;
    for seed in 0..runs {
        c.api.clear_faults();
        for f in schedule(seed) {
            c.api.fault(f);
        }
        // A clean run lists 9 times: the MR pages, the one ManagedResourceDefinition list, the
        // one list of admission policies (the guard's, not served here) and the one
        // CompositeResourceDefinition list (not served either).
        extra += assert_same(&c, &clean) - 9;
    }
    assert!(extra >= min_extra, "the faults fired: {extra} extra list requests");
}

fn on_lists(percent: u8, seed: u64, fault: Fault) -> Fault {
    Fault::Chance { percent, seed, fault: Box::new(fault) }
}

fn cut(framed: bool) -> Fault {
    Fault::CutBody { path_contains: "dns.gcp.upbound.io/v1beta2/".into(), times: None, framed }
}

fn status(code: u16, retry_after: Option<u32>) -> Fault {
    Fault::Status {
        method: Some(Method::GET),
        path_contains: "dns.gcp.upbound.io/v1beta2/".into(),
        code,
        reason: "Injected".into(),
        times: None,
        retry_after_secs: retry_after,
    }
}

fn expire_every_continue() -> Fault {
    Fault::ExpireContinue { path_contains: "dns.gcp.upbound.io/v1beta2/".into(), times: None }
}

#[test]
fn expired_continue_on_every_page_falls_back_to_one_full_list() {
    let c = fleet();
    let clean = clean(&c);
    c.api.fault(expire_every_continue());
    assert_eq!(
        assert_same(&c, &clean),
        10,
        "three first pages, two expired continues, two full lists, the one ManagedResourceDefinition list, the one list of admission policies and the one CompositeResourceDefinition list"
    );
    let lists: Vec<String> = c.api.stats().recent.into_iter().map(|(_, p)| p).filter(|p| p.contains("/dns.")).collect();
    let full: Vec<&String> = lists.iter().filter(|p| !p.contains("limit=")).collect();
    assert_eq!(full.len(), 2, "one full list for each kind with more than one page: {lists:#?}");
    assert!(full.iter().all(|p| !p.contains("continue=")));
}

/// 15 % of list responses lose their connection mid-body, another 15 % (of the rest) arrive
/// complete but truncated: about 30 % of pages are cut, at random points.
#[test]
fn bodies_cut_at_random_points_on_30_percent_of_pages() {
    under_schedules(|seed| vec![on_lists(15, seed * 2, cut(false)), on_lists(18, seed * 2 + 1, cut(true))], 8, 8);
}

/// A third of list requests throttled (429) and some unavailable (503): kube's transport retries
/// them first, this client's policy after; the result is the clean one.
#[test]
fn throttling_storms_are_ridden_out() {
    under_schedules(
        |seed| vec![on_lists(35, seed * 2, status(429, Some(0))), on_lists(15, seed * 2 + 1, status(503, Some(0)))],
        4,
        8,
    );
}

#[test]
fn everything_at_once() {
    let lists = "dns.gcp.upbound.io/v1beta2/";
    under_schedules(
        |seed| {
            vec![
                expire_every_continue(),
                on_lists(35, seed * 8, status(429, Some(0))),
                on_lists(15, seed * 8 + 1, cut(false)),
                on_lists(18, seed * 8 + 2, cut(true)),
                on_lists(5, seed * 8 + 3, status(500, None)),
                on_lists(5, seed * 8 + 4, Fault::ResetConnection { path_contains: lists.into(), times: None }),
                on_lists(10, seed * 8 + 5, Fault::Delay { path_contains: lists.into(), millis: 20 }),
            ]
        },
        6,
        12,
    );
}

#[test]
fn discovery_cut_short_is_read_again() {
    let c = fleet();
    let (clean, _) = clean(&c);
    c.api.fault(Fault::CutBody { path_contains: "/apis".into(), times: Some(2), framed: true });
    c.api.reset_stats();
    let plan = c.dir().join("plan.json");
    let run = c
        .upjet()
        .args(["doctor", "--refresh-discovery", "--retry-budget", BUDGET, "--concurrency", "4", "--plan"])
        .arg(&plan)
        .json()
        .status(1)
        .stderr_contains(NO_GUARD)
        .stderr_contains("3 kinds scanned, 1780 managed resources, 39 errors, 39 warnings, 0 info")
        .run();
    assert!(run.stdout == clean.stdout, "{}", run.stderr);
    let discovery = c.api.stats().recent.iter().filter(|(_, p)| p == "/apis").count();
    assert_eq!(discovery, 3, "two cut discovery documents, then a whole one");
}

/// `plural.group` of a finding's resource, as `kindsSkipped` names kinds.
fn resource_of(finding: &Value) -> String {
    let plural = match finding["resource"]["kind"].as_str().unwrap() {
        "RecordSet" => "recordsets",
        "ManagedZone" => "managedzones",
        "Policy" => "policies",
        other => panic!("unexpected kind {other}"),
    };
    format!("{plural}.dns.gcp.upbound.io")
}

/// One random fault of a schedule: which fault, on what share of list requests.
fn any_fault() -> impl Strategy<Value = (u8, u8, u64)> {
    (0u8..7, 5u8..60, any::<u64>())
}

fn build(kind: u8, percent: u8, seed: u64) -> Fault {
    // kube's transport retries 429/503 itself with a backoff that doubles up to minutes; long runs
    // of them would only make the test slow, not check more (see docs/reliability.md).
    let percent = if matches!(kind, 3 | 5) { percent.min(25) } else { percent };
    let fault = match kind {
        0 => return expire_every_continue(),
        1 => cut(false),
        2 => cut(true),
        3 => status(429, Some(0)),
        4 => status(500, None),
        5 => status(503, Some(0)),
        _ => Fault::ResetConnection { path_contains: "dns.gcp.upbound.io/v1beta2/".into(), times: None },
    };
    on_lists(percent, seed, fault)
}

/// What a faulty run must be, given the clean one: the same report, or a report that names every
/// kind it could not read, is marked incomplete and keeps exactly the clean findings of every kind
/// it did read (its exit code, 4 or 1 on findings, is checked by the run).
fn check_against_clean(clean: &Value, run: &Run) -> Result<(), TestCaseError> {
    let r: Value = serde_json::from_str(&run.stdout).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let skipped: Vec<String> = r["summary"]["kindsSkipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["resource"].as_str().unwrap().to_string())
        .collect();
    if skipped.is_empty() {
        prop_assert_eq!(&r, clean, "no kind skipped, so the report must be the clean one");
        return Ok(());
    }
    prop_assert_eq!(&r["summary"]["complete"], &Value::Bool(false));
    for kind in &skipped {
        prop_assert!(run.stderr.contains(&format!("skipped {kind}: ")), "{} not named on stderr", kind);
    }
    let read = |report: &Value| -> Vec<Value> {
        report["findings"].as_array().unwrap().iter().filter(|f| !skipped.contains(&resource_of(f))).cloned().collect()
    };
    prop_assert_eq!(read(&r), read(clean), "findings of the kinds that were read are exact");
    // What was read of a skipped kind before it failed is reported (those findings are real),
    // but never a finding the clean run does not have, and never one twice.
    let (all, known) = (r["findings"].as_array().unwrap(), clean["findings"].as_array().unwrap());
    prop_assert!(all.iter().all(|f| known.contains(f)), "a finding the clean run does not have");
    let mut seen = std::collections::HashSet::new();
    prop_assert!(all.iter().all(|f| seen.insert(f.to_string())), "a finding reported twice");
    prop_assert!(r["summary"]["resourcesScanned"].as_u64() <= clean["summary"]["resourcesScanned"].as_u64());
    Ok(())
}

#[test]
fn random_fault_schedules_never_lose_findings_silently() {
    let c = fleet();
    let clean = clean(&c).0.json();
    let config = ProptestConfig { cases: 16, failure_persistence: None, ..ProptestConfig::default() };
    let budgets = prop_oneof![Just("0"), Just("200ms"), Just(BUDGET)];
    proptest!(config, |(faults in proptest::collection::vec(any_fault(), 1..5), budget in budgets)| {
        c.api.clear_faults();
        for (kind, percent, seed) in &faults {
            c.api.fault(build(*kind, *percent, *seed));
        }
        // The clean report, or an incomplete one: exit 4, or 1 on the findings of what was read.
        let run = scan(&c, budget).status_one_of(&[1, 4]).stderr_contains("wrote an adoption plan with ").run();
        check_against_clean(&clean, &run)?;
    });
    c.api.clear_faults();
}
