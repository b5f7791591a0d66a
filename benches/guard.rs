//! `kubectl upjet guard` at fleet scale (issue 35's figures): the policies for
//! `UPJET_BENCH_GUARD_KINDS` (2,000) managed kinds (a quarter with a known ID format) and a lock
//! of `UPJET_BENCH_GUARD_IDS` (22,000) IDs, built and printed as YAML; the lock's merge (the
//! pure part of `guard lock`); the worst rule's estimated CEL cost against the API server's
//! limits; and the admission work per MR write, the policies' CEL run through the tests'
//! evaluator (cel-rust, `tests/it/support/guard_cel.rs`) with every policy compiled once and the
//! shards decoded once, as the API server keeps them. Prints one markdown table; asserts nothing.
//!
//! ```text
//! cargo bench --bench guard
//! UPJET_BENCH_GUARD_KINDS=200 UPJET_BENCH_GUARD_IDS=2000 cargo bench --bench guard   # a quick look
//! ```
//!
//! `UPJET_BENCH_GUARD_WRITES` (200) writes are timed of each kind (an UPDATE that changes a label
//! on a created MR, a CREATE of a locked MR with another ID, which the lock refuses);
//! `UPJET_BENCH_GUARD_PROFILE=1` also prints each policy's time on stderr.
//!
//! Then the release binary against the in-process API server holding `UPJET_BENCH_GUARD_MRS`
//! (22,000) MRs over twelve AWS kinds (the fleet benchmark's realistic MRs, a few percent broken)
//! and the lock's CRD: `guard lock` into an empty lock
//! (target < 10 s), the same again (nothing to write), and `guard` printed (the scan that learns
//! each kind's format included); wall time from spawn to exit. `UPJET_BENCH_GUARD_MRS=0` skips it.

#[path = "../tests/it/support/cluster.rs"]
mod cluster;
#[path = "../tests/it/support/guard_cel.rs"]
#[allow(dead_code)]
mod guard_cel;
#[path = "fleet/seed.rs"]
#[allow(dead_code)]
mod seed;

use guard_cel::{Bound, Compiled, Outcome, Params, Request};
use serde_json::{Value, json};
use std::time::Instant;
use upjet_cluster::kinds::ApiKind;
use upjet_core::guard::kind::GuardKind;
use upjet_core::guard::lock::crd::shard_object;
use upjet_core::guard::lock::key::LockKey;
use upjet_core::guard::lock::merge::{Change, ShardWrite, merge};
use upjet_core::guard::lock::shard::Shard;
use upjet_core::guard::settings::GuardSettings;
use upjet_core::guard::{GuardSet, build};
use upjet_core::identity::Template;
use upjet_output::guard::{GuardFormat, write};

fn env(name: &str, default: usize) -> usize {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// `n` kinds over 150 groups, alternately cluster-scoped and namespaced; every fourth with an
/// ARN-like format (an account constant and the name), as doctor learns them from peers.
fn kinds(n: usize) -> Vec<GuardKind> {
    (0..n)
        .map(|i| {
            let mut k = GuardKind::new(
                &format!("svc{}.aws.upbound.io", i % 150),
                &format!("Kind{i}"),
                &format!("kind{i}s"),
                i % 2 == 1,
            );
            if i % 4 == 0 {
                k.id_templates =
                    vec![Template::parse(&format!("arn:aws:svc{i}:eu-west-1:123456789012:thing/{{name}}")).unwrap()];
            }
            k
        })
        .collect()
}

fn lock(ids: usize, kinds: &[GuardKind]) -> Change {
    let add = (0..ids)
        .map(|i| {
            let k = &kinds[i % kinds.len()];
            let ns = k.namespaced.then(|| format!("team-{}", i % 40));
            (
                LockKey::new(&k.group, &k.kind, ns.as_deref(), &format!("mr-{i:06}")),
                format!("arn:aws:svc:eu-west-1:123456789012:thing/{i:06}-{:08x}", i * 2654435761 % (1 << 32)),
            )
        })
        .collect();
    Change { add, ..Change::default() }
}

fn mr(kind: &GuardKind, name: &str) -> Value {
    let mut m = json!({"apiVersion": format!("{}/v1beta1", kind.group), "kind": kind.kind,
        "metadata": {"name": name, "annotations": {"crossplane.io/external-name": format!("arn:aws:svc0:eu-west-1:123456789012:thing/{name}"),
            "crossplane.io/external-create-succeeded": "2024-11-30T10:53:06Z"}},
        "spec": {"managementPolicies": ["Observe", "Create", "Update", "Delete", "LateInitialize"],
            "forProvider": {"region": "eu-west-1", "tags": {"team": "a"}}},
        "status": {"atProvider": {"id": name}, "conditions": [{"type": "Ready", "status": "True"}, {"type": "Synced", "status": "True"}]}});
    if kind.namespaced {
        m["metadata"]["namespace"] = json!("team-1");
    }
    m
}

/// Every policy that matches the write, evaluated as the API server does (the write's values
/// converted once); the refusals.
fn admit(compiled: &[(Compiled, Value)], params: &Params, req: &Request) -> usize {
    let bound = Bound::of(req);
    compiled
        .iter()
        .filter(|(c, binding)| matches!(c.validate_bound(binding, params, &bound), Outcome::Failed { .. }))
        .count()
}

fn time_writes(set: &GuardSet, shards: &[Value], kind: &GuardKind, writes: usize) -> (f64, f64) {
    let compiled: Vec<(Compiled, Value)> =
        set.validating.iter().map(|p| (Compiled::new(&p.policy), p.binding.clone())).collect();
    let params = Params::new(shards);
    let old = mr(kind, "mr-000000");
    let mut new = old.clone();
    new["metadata"]["labels"] = json!({"team": "a"});
    let update = Request::update(old, new, &kind.plural);
    let mut fresh = mr(kind, "mr-000000");
    fresh.as_object_mut().unwrap().remove("status");
    let create = Request::create(fresh, &kind.plural);
    if std::env::var("UPJET_BENCH_GUARD_PROFILE").is_ok() {
        for req in [&update, &create] {
            let bound = Bound::of(req);
            for (c, binding) in &compiled {
                let start = Instant::now();
                for _ in 0..20 {
                    std::hint::black_box(c.validate_bound(binding, &params, &bound));
                }
                eprintln!(
                    "{} {}: {:.3} ms",
                    req.operation,
                    binding["metadata"]["name"],
                    start.elapsed().as_secs_f64() * 1e3 / 20.0
                );
            }
        }
    }
    let mut per = [0f64; 2];
    for (slot, req) in [update, create].iter().enumerate() {
        assert_eq!(
            admit(&compiled, &params, req),
            usize::from(slot == 1),
            "a locked bare create is refused, the update passes"
        );
        let start = Instant::now();
        for _ in 0..writes {
            std::hint::black_box(admit(&compiled, &params, req));
        }
        per[slot] = start.elapsed().as_secs_f64() * 1e3 / writes as f64;
    }
    (per[0], per[1])
}

/// The kinds the lock's fleet is spread over (files of provider-upjet-aws), each with its kind.
const FLEET_KINDS: [(&str, &str); 12] = [
    ("ec2.aws.upbound.io_vpcs.yaml", "VPC"),
    ("ec2.aws.upbound.io_subnets.yaml", "Subnet"),
    ("ec2.aws.upbound.io_securitygroups.yaml", "SecurityGroup"),
    ("ec2.aws.upbound.io_securitygrouprules.yaml", "SecurityGroupRule"),
    ("ec2.aws.upbound.io_routes.yaml", "Route"),
    ("ec2.aws.upbound.io_instances.yaml", "Instance"),
    ("route53.aws.upbound.io_records.yaml", "Record"),
    ("iam.aws.upbound.io_roles.yaml", "Role"),
    ("iam.aws.upbound.io_policies.yaml", "Policy"),
    ("iam.aws.upbound.io_rolepolicyattachments.yaml", "RolePolicyAttachment"),
    ("s3.aws.upbound.io_buckets.yaml", "Bucket"),
    ("ec2.aws.m.upbound.io_vpcs.yaml", "VPC"),
];

/// The kind a CRD file of [`FLEET_KINDS`] serves at v1beta1 (`group_plural.yaml`).
fn fleet_kind((file, kind): (&str, &str)) -> ApiKind {
    let (group, plural) = file.trim_end_matches(".yaml").split_once('_').expect("group_plural.yaml");
    ApiKind {
        group: group.into(),
        version: "v1beta1".into(),
        plural: plural.into(),
        singular: kind.to_lowercase(),
        kind: kind.into(),
        namespaced: group.contains(".m."),
        short_names: Vec::new(),
        categories: vec!["managed".into()],
    }
}

/// `guard lock` (twice) and `guard` through the release binary against `n` MRs: wall seconds and
/// the line each printed.
fn lock_fleet(n: usize) {
    let files: Vec<&str> = FLEET_KINDS.iter().map(|(f, _)| *f).collect();
    let c = cluster::Cluster::builder()
        .crd_files("provider-upjet-aws", &files)
        .guard_lock()
        .version("1", "36", "v1.36.0")
        .start();
    for ns in seed::Fleet::namespaces() {
        c.add(json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}}));
    }
    let kinds: Vec<ApiKind> = FLEET_KINDS.into_iter().map(fleet_kind).collect();
    let fleet = seed::Fleet::with_kinds(&kinds, kinds.len());
    for i in 0..n as u64 {
        c.add(fleet.object(i));
    }
    let run = |args: &[&str]| {
        let start = Instant::now();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kubectl-upjet"))
            .args(args)
            .env("KUBECONFIG", c.kubeconfig())
            .env("HOME", c.dir())
            .output()
            .expect("the binary runs");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let said = String::from_utf8_lossy(&out.stdout).lines().next().unwrap_or_default().to_string();
        (start.elapsed().as_secs_f64(), said, out.stdout.len())
    };
    let (first, said, _) = run(&["guard", "lock"]);
    println!("| `guard lock`, {n} MRs into an empty lock (target < 10 s) | {first:.2} s: {said} |");
    let (again, said, _) = run(&["guard", "lock"]);
    println!("| `guard lock` again, nothing changed | {again:.2} s: {said} |");
    let (printed, _, bytes) = run(&["guard"]);
    println!(
        "| `guard` printed from the cluster, its {n} MRs scanned for formats | {printed:.2} s, {} KiB |",
        bytes.div_ceil(1024)
    );
}

fn main() {
    let (n_kinds, n_ids) = (env("UPJET_BENCH_GUARD_KINDS", 2000), env("UPJET_BENCH_GUARD_IDS", 22000));
    let ks = kinds(n_kinds);
    let mut settings = GuardSettings { mutate: true, ..GuardSettings::default() };
    settings.exempt_service_account("crossplane-system", "provider-aws-ec2-1a2b3c");
    let change = lock(n_ids, &ks);
    println!("| measurement | value |");
    println!("|---|---|");

    let start = Instant::now();
    let writes = merge(&[], &change).writes;
    let merged = start.elapsed();
    let shards: Vec<Shard> = writes.iter().map(ShardWrite::shard).cloned().collect();
    println!(
        "| lock merge, {n_ids} IDs into empty shards | {:.0} ms, {} shards |",
        merged.as_secs_f64() * 1e3,
        shards.len()
    );
    let start = Instant::now();
    let again = merge(&shards, &change).writes.len();
    println!(
        "| lock merge, the same {n_ids} IDs over the written shards | {:.0} ms, {again} writes |",
        start.elapsed().as_secs_f64() * 1e3
    );

    let start = Instant::now();
    let set = build(&ks, &settings, &shards);
    let mut out = Vec::new();
    write(&mut out, &set, GuardFormat::Yaml).expect("prints");
    let printed = start.elapsed();
    println!(
        "| guard printed, {n_kinds} kinds and {n_ids} IDs (YAML, target < 2 s) | {:.2} s, {:.1} MiB, {} objects |",
        printed.as_secs_f64(),
        out.len() as f64 / (1 << 20) as f64,
        set.objects().len()
    );
    for p in &set.validating {
        let size = serde_json::to_string(&p.policy).map(|s| s.len()).unwrap_or(0);
        println!(
            "| {} policy | {} KiB, worst `{}` {}, total {} |",
            p.rule,
            size.div_ceil(1024),
            p.cost.worst,
            p.cost.worst_cost,
            p.cost.total
        );
    }
    let worst = set.worst().expect("a policy");
    println!(
        "| worst rule's estimated cost (limit 1,000,000 per expression) | {} ({}, `{}`) |",
        worst.worst_cost, worst.rule, worst.worst
    );

    let objects: Vec<Value> = shards.iter().map(|s| shard_object(s, false)).collect();
    let n = env("UPJET_BENCH_GUARD_WRITES", 200);
    let (update, create) = time_writes(&set, &objects, &ks[0], n);
    println!("| admission CEL per MR update, every matching policy (aim < 1 ms) | {update:.3} ms |");
    println!(
        "| admission CEL per MR create, every policy over {} shards (aim < 1 ms) | {create:.3} ms |",
        objects.len()
    );
    let mrs = env("UPJET_BENCH_GUARD_MRS", 22000);
    if mrs > 0 {
        lock_fleet(mrs);
    }
}
