//! The synthetic fleet: realistic upjet MRs (3–8 KB each) spread over a few popular kinds with a
//! Zipf skew, most kinds left empty, a few percent broken in ways doctor reports.
//!
//! Everything is a pure function of the MR's index, so the fleet of N MRs is the first N MRs of
//! the fleet of M > N, and every run of the benchmark seeds the same objects.

use serde_json::{Value, json};
use upjet_cluster::kinds::ApiKind;

/// How many kinds hold objects (of about 2,000): the rest stay empty, as on a real cluster.
pub const POPULATED_KINDS: usize = 120;
/// Zipf exponent of the kind popularity: the top kind holds about a fifth of the fleet.
const ZIPF_S: f64 = 1.1;
/// Percent of MRs that are broken (each in one of four ways doctor reports).
pub const BROKEN_PERCENT: u64 = 3;
/// Namespaces that namespaced MRs are spread over.
const NAMESPACES: u64 = 20;

/// Kinds real AWS fleets hold most of, most popular first (those missing from the CRDs are skipped).
const POPULAR: &[&str] = &[
    "records.route53.aws.upbound.io",
    "rolepolicyattachments.iam.aws.upbound.io",
    "securitygrouprules.ec2.aws.upbound.io",
    "roles.iam.aws.upbound.io",
    "policies.iam.aws.upbound.io",
    "records.route53.aws.m.upbound.io",
    "subnets.ec2.aws.upbound.io",
    "routes.ec2.aws.upbound.io",
    "buckets.s3.aws.upbound.io",
    "securitygroupingressrules.ec2.aws.m.upbound.io",
    "instances.ec2.aws.upbound.io",
    "securitygroups.ec2.aws.upbound.io",
    "keys.kms.aws.upbound.io",
    "roles.iam.aws.m.upbound.io",
    "routetableassociations.ec2.aws.upbound.io",
    "bucketpolicies.s3.aws.upbound.io",
    "parameters.ssm.aws.upbound.io",
    "secrets.secretsmanager.aws.upbound.io",
    "queues.sqs.aws.upbound.io",
    "topics.sns.aws.upbound.io",
];

/// splitmix64: a fast, well-mixed deterministic hash of the MR index.
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The fleet's shape: which kinds are populated, with their cumulative Zipf weights.
pub struct Fleet {
    kinds: Vec<ApiKind>,
    cdf: Vec<f64>,
}

impl Fleet {
    /// Picks the populated kinds among `managed`: the popular ones first, then a deterministic
    /// pseudo-random sample of the rest.
    pub fn new(managed: &[ApiKind]) -> Fleet {
        Fleet::with_kinds(managed, POPULATED_KINDS)
    }

    /// [`Fleet::new`] with `populated` kinds holding objects instead of [`POPULATED_KINDS`].
    pub fn with_kinds(managed: &[ApiKind], populated: usize) -> Fleet {
        let mut kinds: Vec<ApiKind> =
            POPULAR.iter().filter_map(|name| managed.iter().find(|k| k.resource_name() == *name).cloned()).collect();
        let mut rest: Vec<&ApiKind> =
            managed.iter().filter(|k| !POPULAR.contains(&k.resource_name().as_str())).collect();
        rest.sort_by_key(|k| {
            mix(k.resource_name().bytes().fold(7u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b))))
        });
        kinds.truncate(populated);
        kinds.extend(rest.into_iter().take(populated.saturating_sub(kinds.len())).cloned());
        let weights: Vec<f64> = (1..=kinds.len()).map(|r| 1.0 / (r as f64).powf(ZIPF_S)).collect();
        let total: f64 = weights.iter().sum();
        let mut acc = 0.0;
        let cdf = weights.iter().map(|w| {
            acc += w / total;
            acc
        });
        Fleet { cdf: cdf.collect(), kinds }
    }

    /// The kind of MR number `i`.
    pub fn kind_of(&self, i: u64) -> &ApiKind {
        let u = (mix(i ^ 0xA5A5) >> 11) as f64 / (1u64 << 53) as f64;
        let idx = self.cdf.partition_point(|c| *c < u).min(self.kinds.len() - 1);
        &self.kinds[idx]
    }

    /// Namespaces the fleet uses (to create before seeding).
    pub fn namespaces() -> impl Iterator<Item = String> {
        (0..NAMESPACES).map(|n| format!("team-{n:02}"))
    }

    /// MR number `i`, as the provider would have left it.
    pub fn object(&self, i: u64) -> Value {
        let k = self.kind_of(i);
        let h = mix(i);
        let name = format!("{}-{i:06}", k.singular);
        let id = format!("{}-{:012x}", &k.singular[..k.singular.len().min(8)], h & 0xFFFF_FFFF_FFFF);
        let api_version = format!("{}/{}", k.group, k.version);
        let region = ["eu-west-1", "us-east-1", "us-west-2", "ap-southeast-2"][(h % 4) as usize];
        let arn =
            format!("arn:aws:{}:{region}:123456789012:{}/{id}", k.group.split('.').next().unwrap_or("svc"), k.singular);
        let composite = format!("xnetwork-{:05x}", (h >> 20) & 0xFFFFF);
        let ntags = 6 + (h >> 8) % 14;
        let tags: serde_json::Map<String, Value> = (0..ntags)
            .map(|t| {
                (
                    format!("tag-{t:02}-{}", ["team", "env", "cost-center", "owner", "app"][(t % 5) as usize]),
                    json!(format!("value-{:08x}", mix(h ^ t) & 0xFFFF_FFFF)),
                )
            })
            .collect();
        let mut tags_all = tags.clone();
        tags_all.insert("crossplane-kind".into(), json!(format!("{}.{}", k.kind.to_lowercase(), k.group)));
        tags_all.insert("crossplane-name".into(), json!(name));
        tags_all.insert("crossplane-providerconfig".into(), json!("default"));
        let mut for_provider =
            json!({"region": region, "tags": tags, "description": format!("managed by crossplane for {composite}")});
        let mut at_provider = json!({"arn": arn, "id": id, "region": region, "tags": tags, "tagsAll": tags_all, "ownerId": "123456789012"});
        let mut annotations = json!({
            "crossplane.io/composition-resource-name": format!("{}-{}", k.singular, h % 3),
            "crossplane.io/external-name": id,
            "crossplane.io/external-create-pending": "2024-11-30T10:00:00Z",
            "crossplane.io/external-create-succeeded": "2024-11-30T10:00:02Z",
            "upjet.crossplane.io/provider-meta": "{\"e2bfb730-ecaa-11e6-8f88-34363bc7c4c0\":{\"create\":600000000000,\"delete\":600000000000,\"update\":600000000000},\"schema_version\":\"1\"}",
        });
        let mut conditions = json!([
            {"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2024-11-30T10:00:30Z", "observedGeneration": 1},
            {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": "2024-11-30T10:00:02Z", "observedGeneration": 1},
            {"type": "LastAsyncOperation", "status": "True", "reason": "Success", "lastTransitionTime": "2024-11-30T10:00:30Z", "observedGeneration": 1},
        ]);
        // A few percent broken, in the ways doctor is for.
        if h % 100 < BROKEN_PERCENT {
            match (h >> 40) % 4 {
                0 => {
                    annotations["crossplane.io/external-create-pending"] = json!("2024-11-30T11:00:05Z");
                    annotations["crossplane.io/external-create-succeeded"] = json!("2024-11-30T11:00:00Z");
                    conditions = json!([
                        {"type": "Ready", "status": "False", "reason": "Creating", "lastTransitionTime": "2024-11-30T11:00:05Z"},
                        {"type": "Synced", "status": "False", "reason": "ReconcileError", "lastTransitionTime": "2024-11-30T11:00:05Z",
                         "message": "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed"}]);
                }
                1 => {
                    annotations.as_object_mut().map(|a| a.remove("crossplane.io/external-name"));
                    conditions = json!([
                        {"type": "Ready", "status": "False", "reason": "Creating", "lastTransitionTime": "2024-11-30T11:00:05Z"},
                        {"type": "Synced", "status": "False", "reason": "ReconcileError", "lastTransitionTime": "2024-11-30T11:00:05Z",
                         "message": format!("create failed: async create failed: failed to create the resource: [{{0 creating {}: operation error: api error EntityAlreadyExists: {} already exists  []}}]", k.kind, name)}]);
                }
                2 => at_provider["id"] = json!(format!("{id}-drifted")),
                _ => annotations["crossplane.io/paused"] = json!("true"),
            }
        }
        let mut spec = json!({
            "forProvider": for_provider.take(),
            "initProvider": {},
            "managementPolicies": ["*"],
            "providerConfigRef": {"name": "default"},
        });
        let mut meta = json!({
            "name": name,
            "generation": 1 + h % 3,
            "labels": {"crossplane.io/composite": composite, "crossplane.io/claim-name": format!("net-{}", h % 500),
                       "crossplane.io/claim-namespace": format!("team-{:02}", h % NAMESPACES)},
            "annotations": annotations,
            "finalizers": ["finalizer.managedresource.crossplane.io"],
            "ownerReferences": [{"apiVersion": "aws.platform.example.org/v1alpha1", "kind": "XNetwork", "name": composite,
                                 "uid": format!("{:08x}-0000-4000-8000-{:012x}", h >> 32, h & 0xFFFF_FFFF_FFFF),
                                 "controller": true, "blockOwnerDeletion": true}],
            "managedFields": [
                {"manager": "crossplane", "operation": "Apply", "apiVersion": api_version, "time": "2024-11-30T10:00:00Z", "fieldsType": "FieldsV1",
                 "fieldsV1": {"f:metadata": {"f:labels": {"f:crossplane.io/composite": {}}, "f:ownerReferences": {}}, "f:spec": {"f:forProvider": {"f:region": {}, "f:tags": {}}}}},
                {"manager": format!("provider-aws-{}", k.group.split('.').next().unwrap_or("svc")), "operation": "Update", "apiVersion": api_version,
                 "time": "2024-11-30T10:00:30Z", "fieldsType": "FieldsV1", "subresource": "status",
                 "fieldsV1": {"f:status": {"f:atProvider": {"f:arn": {}, "f:id": {}, "f:tagsAll": {}}, "f:conditions": {}}}},
            ],
        });
        if k.namespaced {
            meta["namespace"] = json!(format!("team-{:02}", h % NAMESPACES));
        } else {
            spec["deletionPolicy"] = json!("Delete");
        }
        let mut obj = json!({
            "apiVersion": api_version,
            "kind": k.kind,
            "metadata": meta,
            "spec": spec,
            "status": {"atProvider": at_provider.take(), "conditions": conditions, "observedGeneration": 1},
        });
        // Pad to a size drawn from 3–8 KB with a policy document, as IAM and bucket policies carry.
        let target = 3_000 + (mix(h) % 5_000) as usize;
        let size = serde_json::to_vec(&obj).map(|v| v.len()).unwrap_or(0);
        if size + 40 < target {
            let statement =
                r#"{"Effect":"Allow","Action":["s3:GetObject","s3:PutObject"],"Resource":"arn:aws:s3:::bucket/*"},"#;
            let body: String = statement.repeat((target - size - 40) / statement.len() + 1);
            let policy = format!("{{\"Version\":\"2012-10-17\",\"Statement\":[{}]}}", body.trim_end_matches(','));
            obj["spec"]["forProvider"]["policy"] = json!(policy);
        }
        obj
    }
}
