//! Synthetic provider logs for the log benchmark and the scanner's volume tests.
//!
//! Exists so a bench target (and the `#[ignore]`d throughput and memory tests) can measure the
//! scanner on a realistic debug-level zap JSON stream without shipping a large fixture.
//! The mix follows what a no-fork provider logs at `--debug`: most lines are reconcile
//! chatter; about a quarter carry `external-name` and therefore take the slow path.
//!
//! Lives under `benches/` so the shipped library does not contain it; `benches/logs.rs`,
//! `tests/it/log_fixtures.rs` and the library's unit tests include it with `#[path]`. It uses
//! only `std` and `chrono`, so it compiles inside and outside the crate alike.

use std::fmt::Write as _;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn uid(i: u64) -> String {
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        i.wrapping_mul(2_654_435_761) & 0xffff_ffff,
        i & 0xffff,
        i & 0xfff,
        (i >> 3) & 0xfff,
        i * 7919
    )
}

fn ts(ms: u64) -> String {
    let secs = 1_704_067_200 + ms / 1000; // 2024-01-01T00:00:00Z
    let t = chrono::DateTime::from_timestamp(secs as i64, ((ms % 1000) * 1_000_000) as u32).unwrap_or_default();
    t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// Generates about `target_bytes` of debug-level zap JSON provider log (one record per
/// line), deterministic for a given size.
pub fn synthetic_zap_json(target_bytes: usize) -> Vec<u8> {
    let mut out = String::with_capacity(target_bytes + 4096);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mrs = 2000u64;
    let mut ms = 0u64;
    let diff = "*terraform.InstanceDiff{mu:sync.Mutex{state:0, sema:0x0}, Attributes:map[string]*terraform.ResourceAttrDiff{\\\"tags_all.crossplane-name\\\":*terraform.ResourceAttrDiff{Old:\\\"\\\", New:\\\"x\\\", NewComputed:false, NewRemoved:false, NewExtra:interface {}(nil), RequiresNew:false, Sensitive:false, Type:0x0}}, Destroy:false, DestroyDeposed:false, DestroyTainted:false, RawConfig:cty.NilVal, RawState:cty.NilVal, RawPlan:cty.NilVal, Meta:map[string]interface {}(nil)}".repeat(4);
    while out.len() < target_bytes {
        ms += rng.below(40);
        let i = rng.below(mrs);
        let name = format!("vpc-{i:05}");
        let u = uid(i);
        let t = ts(ms);
        let ctrl = "managed/ec2.aws.upbound.io/v1beta1, kind=vpc";
        let gvk = "ec2.aws.upbound.io/v1beta1, Kind=VPC";
        let ext = format!("vpc-0{:016x}", i * 0x9e37_79b9);
        let r = rng.below(1000);
        let _ = match r {
            0..250 => writeln!(
                out,
                r#"{{"level":"debug","ts":"{t}","logger":"provider-aws","msg":"Reconciling","controller":"{ctrl}","request":{{"name":"{name}"}}}}"#
            ),
            250..350 => writeln!(
                out,
                r#"{{"level":"debug","ts":"{t}","logger":"provider-aws","msg":"Connecting to the service provider","uid":"{u}","name":"{name}","gvk":"{gvk}"}}"#
            ),
            350..450 => writeln!(
                out,
                r#"{{"level":"debug","ts":"{t}","logger":"provider-aws","msg":"Observing the external resource","uid":"{u}","name":"{name}","gvk":"{gvk}"}}"#
            ),
            450..700 => writeln!(
                out,
                r#"{{"level":"debug","ts":"{t}","logger":"provider-aws","msg":"External resource is up to date","controller":"{ctrl}","request":{{"name":"{name}"}},"uid":"{u}","version":"{v}","external-name":"{ext}","requeue-after":"{t}"}}"#,
                v = 100_000 + i
            ),
            700..820 => writeln!(
                out,
                r#"{{"level":"debug","ts":"{t}","logger":"provider-aws","msg":"Reconcile request has been requeued.","gvk":"{gvk}","name":"{name}","rateLimiterName":"scheduler","when":"5ms"}}"#
            ),
            820..900 => writeln!(
                out,
                r#"{{"level":"debug","ts":"{t}","logger":"provider-aws","msg":"Calling the inner handler for Update event.","gvk":"{gvk}","name":"{name}","queueLength":{q}}}"#,
                q = rng.below(300)
            ),
            900..930 => writeln!(
                out,
                r#"{{"level":"debug","ts":"{t}","logger":"provider-aws","msg":"Diff detected","uid":"{u}","name":"{name}","gvk":"{gvk}","instanceDiff":"{diff}"}}"#
            ),
            930..940 => writeln!(
                out,
                r#"{{"level":"debug","ts":"{t}","logger":"provider-aws","msg":"Async create starting...","trackerUID":"{u}","resourceName":"{name}","gvk":"{gvk}","tfID":""}}"#
            ),
            940..950 => writeln!(
                out,
                r#"{{"level":"debug","ts":"{t}","logger":"provider-aws","msg":"Async create ended.","trackerUID":"{u}","resourceName":"{name}","gvk":"{gvk}","error":null,"tfID":"{ext}"}}"#
            ),
            950..960 => writeln!(
                out,
                r#"{{"level":"debug","ts":"{t}","logger":"provider-aws","msg":"Instance state not found in cache, reconstructing...","uid":"{u}","name":"{name}","gvk":"{gvk}"}}"#
            ),
            960..980 => writeln!(
                out,
                r#"{{"level":"debug","ts":"{t}","logger":"events","msg":"Successfully requested update of external resource","type":"Normal","object":{{"kind":"VPC","name":"{name}","uid":"{u}","apiVersion":"ec2.aws.upbound.io/v1beta1","resourceVersion":"1"}},"reason":"UpdatedExternalResource"}}"#
            ),
            _ => writeln!(
                out,
                r#"{{"level":"info","ts":"{t}","logger":"provider-aws","msg":"Beta feature enabled","flag":"EnableBetaManagementPolicies"}}"#
            ),
        };
    }
    out.into_bytes()
}
