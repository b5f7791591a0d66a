//! The sniffer over small inputs written here (one or more per format), over the real samples
//! in `../shared/fixtures/{inventory,logs}` read in place, and over prefixes cut short.

use super::*;
use std::io::Write;

/// The start of [`Format::what`] each input must be sniffed as (`None`: not recognised).
const CASES: &[(&str, &str, Option<&str>)] = &[
    (
        "change-log entries of the changelogs sidecar",
        r#"{"timestamp":"2025-04-25T08:23:34Z","provider":"provider-kubernetes:v0.18.0","apiVersion":"kubernetes.crossplane.io/v1alpha2","kind":"Object","name":"cm","externalName":"cm","operation":"OPERATION_TYPE_CREATE","snapshot":{"metadata":{"name":"cm"}}}
"#,
        Some("a Crossplane change log"),
    ),
    (
        "audit.k8s.io event lines",
        r#"{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"a1","stage":"ResponseComplete","verb":"get"}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"a2","stage":"ResponseComplete","verb":"get"}
"#,
        Some("a Kubernetes audit log"),
    ),
    (
        "audit EventList",
        r#"{"kind":"EventList","apiVersion":"audit.k8s.io/v1","items":[{"auditID":"a1","stage":"ResponseComplete"}]}"#,
        Some("a Kubernetes audit log"),
    ),
    (
        "S3 export of audit events, a timestamp before each",
        "2024-11-28T07:59:58.412Z {\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\",\"auditID\":\"a\"}\n",
        Some("a Kubernetes audit log"),
    ),
    (
        "GKE audit entries as a JSON array",
        r#"[{"protoPayload":{"@type":"type.googleapis.com/google.cloud.audit.AuditLog","serviceName":"k8s.io","methodName":"io.k8s.core.v1.pods.get"},"resource":{"type":"k8s_cluster"}}]"#,
        Some("a GKE audit log export"),
    ),
    (
        "EKS CloudWatch filter-log-events",
        r#"{"events":[{"logStreamName":"kube-apiserver-audit-0a1b","timestamp":1,"message":"{\"kind\":\"Event\",\"apiVersion\":\"audit.k8s.io/v1\",\"auditID\":\"x\"}"}],"searchedLogStreams":[]}"#,
        Some("an EKS audit log export"),
    ),
    (
        "GCP cloud audit entry of another service",
        r#"{"protoPayload":{"@type":"type.googleapis.com/google.cloud.audit.AuditLog","serviceName":"compute.googleapis.com"},"resource":{"type":"gce_instance"}}"#,
        Some("a Google Cloud audit log"),
    ),
    (
        "CloudTrail log file",
        r#"{"Records":[{"eventVersion":"1.08","eventSource":"ec2.amazonaws.com","eventName":"CreateVpc"}]}"#,
        Some("an AWS CloudTrail log"),
    ),
    (
        "CloudTrail lookup-events",
        r#"{"Events":[{"EventId":"e","EventName":"CreateVpc","CloudTrailEvent":"{}"}]}"#,
        Some("an AWS CloudTrail log"),
    ),
    (
        "CloudTrail Lake get-query-results, as the AWS CLI prints it",
        "{\n    \"QueryStatus\": \"FINISHED\",\n    \"QueryStatistics\": {\n        \"ResultsCount\": 1\n    },\n    \"QueryResultRows\": [\n        [\n            {\n                \"eventName\": \"CreateVpc\"\n",
        Some("a CloudTrail Lake query result"),
    ),
    (
        "CloudTrail Lake describe-query (no rows: not an export of records)",
        r#"{"QueryId":"q","QueryString":"SELECT","QueryStatus":"FINISHED","QueryStatistics":{"EventsMatched":1,"EventsScanned":9}}"#,
        None,
    ),
    (
        "Athena CSV of a CloudTrail table",
        "\"eventversion\",\"useridentity\",\"eventtime\",\"eventsource\",\"eventname\"\n\"1.08\",\"{type=Root, arn=arn:aws:iam::1:root}\",\"2024-11-30T10:00:00Z\",\"ec2.amazonaws.com\",\"CreateVpc\"\n",
        Some("a CSV of CloudTrail records"),
    ),
    ("a CSV of something else", "name,namespace,kind\nvpc-1,team-a,VPC\n", None),
    (
        "Azure activity log",
        r#"[{"caller":"a@b","eventTimestamp":"2024-11-30T10:00:00Z","id":"/subscriptions/s/resourceGroups/r/providers/Microsoft.Network/virtualNetworks/v/events/1","operationName":{"value":"Microsoft.Network/virtualNetworks/write"}}]"#,
        Some("an Azure activity log"),
    ),
    (
        "AWS get-resources page",
        r#"{"PaginationToken":"","ResourceTagMappingList":[{"ResourceARN":"arn:aws:ec2:eu-west-1:1:vpc/vpc-1","Tags":[]}]}"#,
        Some("an AWS tagging export"),
    ),
    (
        "AWS get-resources, the mapping list alone",
        r#"[{"ResourceARN":"arn:aws:sqs:us-east-1:1:q","Tags":[]}]"#,
        Some("an AWS tagging export"),
    ),
    (
        "GCP asset search",
        r#"[{"assetType":"dns.googleapis.com/ManagedZone","name":"//dns.googleapis.com/projects/p/managedZones/z"}]"#,
        Some("a GCP asset export"),
    ),
    (
        "Azure resource list",
        r#"[{"id":"/subscriptions/s/resourceGroups/r/providers/Microsoft.Network/virtualNetworks/v","name":"v"}]"#,
        Some("an Azure resource list"),
    ),
    (
        "Azure Resource Graph",
        r#"{"count":1,"data":[{"id":"/subscriptions/s/resourceGroups/r"}],"skip_token":null,"total_records":1}"#,
        Some("an Azure Resource Graph result"),
    ),
    (
        "adoption plan",
        r#"[{"cluster":"prod","resource":"vpc.ec2.aws.upbound.io/main","id":"vpc-1","reason":"OrphanCandidate"}]"#,
        Some("an adoption plan"),
    ),
    (
        "adoption plan with candidates only",
        r#"[{"resource":"vpc.ec2.aws.upbound.io/main","candidates":["vpc-1","vpc-2"]}]"#,
        Some("an adoption plan"),
    ),
    (
        "migration plan",
        "{\n  \"apiVersion\": \"upjet.doctor/v1\",\n  \"kind\": \"MigrationPlan\",\n  \"items\": []\n}",
        Some("a migration plan"),
    ),
    (
        "Terraform state",
        r#"{"version":4,"terraform_version":"1.5.7","serial":3,"lineage":"l","outputs":{},"resources":[]}"#,
        Some("a Terraform state"),
    ),
    (
        "kubectl get -o json List",
        r#"{"apiVersion":"v1","items":[{"apiVersion":"ec2.aws.upbound.io/v1beta1","kind":"VPC","metadata":{"name":"a"}}],"kind":"List","metadata":{"resourceVersion":""}}"#,
        Some("a snapshot of Kubernetes objects"),
    ),
    (
        "kubectl get -o yaml List",
        "apiVersion: v1\nitems:\n- apiVersion: ec2.aws.upbound.io/v1beta1\n  kind: VPC\n  metadata:\n    name: a\nkind: List\nmetadata:\n  resourceVersion: \"\"\n",
        Some("a snapshot of Kubernetes objects"),
    ),
    (
        "one object, as an adopt backup holds it",
        "{\n  \"apiVersion\": \"dns.gcp.upbound.io/v1beta2\",\n  \"kind\": \"RecordSet\",\n  \"metadata\": {\n    \"name\": \"www\"\n  },\n  \"spec\": {}\n}\n",
        Some("one Kubernetes object"),
    ),
    (
        "one object in YAML",
        "# saved by hand\n---\napiVersion: ec2.aws.upbound.io/v1beta1\nkind: VPC\nmetadata:\n  name: main\nspec: {}\n",
        Some("one Kubernetes object"),
    ),
    (
        "zap console lines",
        "2024-11-30T10:53:06.123Z\tDEBUG\tprovider-aws\tReconciling\t{\"controller\": \"managed/ec2.aws.upbound.io/v1beta1, kind=vpc\", \"request\": {\"name\":\"main\"}}\n2024-11-30T10:53:07.001Z\tINFO\tprovider-aws\tStarting\n",
        Some("a provider log"),
    ),
    (
        "zap JSON lines",
        "{\"level\":\"debug\",\"ts\":\"2024-11-30T10:53:06Z\",\"logger\":\"provider-azure\",\"msg\":\"Reconciling\"}\n",
        Some("a provider log"),
    ),
    (
        "Cloud Logging export of a container",
        r#"[{"textPayload":"2024-11-30T10:53:06Z\tDEBUG\tprovider-gcp\tReconciling","resource":{"type":"k8s_container"}}]"#,
        Some("a provider log"),
    ),
    (
        "Loki JSON export",
        r#"[{"line":"2024-11-30T10:53:06Z\tDEBUG\tprovider-gcp\tReconciling","timestamp":"1701920269558146862"}]"#,
        Some("a provider log"),
    ),
    ("an EC2 describe-vpcs answer", r#"{"Vpcs":[{"VpcId":"vpc-1","CidrBlock":"10.0.0.0/24"}]}"#, None),
    ("prose", "Meeting notes\nwe decided nothing\n", None),
    ("an empty file", "", None),
    ("an empty array", "[]", None),
    ("binary", "\u{0}\u{1}\u{2}\u{3}PK", None),
];

fn what(bytes: &[u8]) -> Option<&'static str> {
    sniff(bytes).map(|f| f.what)
}

#[test]
fn every_format_is_told_apart() {
    for (name, input, want) in CASES {
        let got = what(input.as_bytes());
        match want {
            Some(w) => assert!(got.is_some_and(|g| g.starts_with(w)), "{name}: got {got:?}, want {w:?}"),
            None => assert_eq!(got, None, "{name}"),
        }
    }
}

#[test]
fn gzip_is_looked_into_even_when_the_prefix_ends_mid_stream() {
    let list = format!(
        r#"{{"apiVersion":"v1","items":[{}],"kind":"List"}}"#,
        vec![r#"{"apiVersion":"ec2.aws.upbound.io/v1beta1","kind":"VPC","metadata":{"name":"a"}}"#; 2000].join(",")
    );
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(list.as_bytes()).unwrap();
    let gz = gz.finish().unwrap();
    assert!(gz.len() > 200, "the test needs a stream to cut");
    let head = Head::of(&gz[..gz.len() / 2]);
    assert!(head.bytes.starts_with(br#"{"apiVersion":"v1","items":["#), "inflated");
    let got = what(&gz[..gz.len() / 2]);
    assert!(got.is_some_and(|w| w.starts_with("a snapshot of Kubernetes objects")), "{got:?}");
}

#[test]
fn a_document_cut_by_the_prefix_still_shows_its_leading_fields() {
    let big = format!(
        r#"{{"PaginationToken":"t","ResourceTagMappingList":[{{"ResourceARN":"arn:aws:s3:::b","Tags":[{}]}}]}}"#,
        vec![r#"{"Key":"k","Value":"v"}"#; 5000].join(",")
    );
    let found = sniff_reader(big.as_bytes()).unwrap().map(|f| f.what);
    assert!(found.is_some_and(|w| w.starts_with("an AWS tagging export")), "{found:?}");
    // Only the prefix is read: the same answer from a reader that would fail past it.
    let reader = big.as_bytes()[..PREFIX_BYTES as usize].chain(FailingReader);
    assert_eq!(sniff_reader(reader).unwrap().map(|f| f.what), found);
}

/// A reader that fails if it is ever read: proves the sniffer stops at its prefix.
struct FailingReader;

impl Read for FailingReader {
    fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
        Err(std::io::Error::other("read past the prefix"))
    }
}

#[test]
fn advice_names_the_flag_or_says_why_none_reads_it() {
    let format = |w: &str| formats().iter().copied().find(|f| f.what.starts_with(w)).unwrap();
    let aws = format("an AWS tagging export");
    assert_eq!(
        looks_like(aws, Reader::From).as_deref(),
        Some("looks like an AWS tagging export (resourcegroupstaggingapi get-resources); pass it with --inventory")
    );
    assert_eq!(looks_like(aws, Reader::Inventory), None, "the right flag keeps its own error");
    let object = format("one Kubernetes object");
    assert_eq!(looks_like(object, Reader::Backup), None);
    assert_eq!(looks_like(object, Reader::From), None);
    assert!(looks_like(object, Reader::AuditLog).unwrap().ends_with("pass it with --from"));
    let plan = format("an adoption plan");
    assert!(looks_like(plan, Reader::Backup).unwrap().ends_with("pass it to `kubectl upjet adopt -f`"));
    let state = format("a Terraform state");
    assert!(looks_like(state, Reader::From).unwrap().contains("no flag reads one from a file"));
    let trail = format("an AWS CloudTrail log");
    assert!(looks_like(trail, Reader::AuditLog).unwrap().ends_with("pass it with --cloud-audit"));
    assert_eq!(looks_like(trail, Reader::CloudAudit), None);
}

fn fixtures(dir: &str) -> Vec<(String, Vec<u8>)> {
    let dir = format!("{}/../../../shared/fixtures/{dir}", env!("CARGO_MANIFEST_DIR"));
    // The shared fixtures sit beside the project on every machine and in CI: a missing folder is a
    // broken checkout, not a reason to check nothing.
    let listing = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{dir}: {e}"));
    let mut files: Vec<_> = listing
        .flatten()
        .filter(|e| e.path().is_file() && e.path().extension().is_none_or(|x| x != "md"))
        .map(|e| (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap()))
        .collect();
    files.sort();
    files
}

/// The real inventory samples: the exports `--inventory` reads are named as such, the other AWS
/// answers kept there (describe-*) are not mistaken for one.
#[test]
fn real_inventory_samples() {
    for (file, bytes) in fixtures("inventory") {
        let want = match file.split('-').take(2).collect::<Vec<_>>()[..] {
            ["aws", "get"] => Some("an AWS tagging export"),
            ["azure", "graph"] => Some("an Azure Resource Graph result"),
            ["azure", _] => Some("an Azure resource list"),
            ["gcp", _] => Some("a GCP asset export"),
            _ => None,
        };
        let got = what(&bytes);
        match want {
            Some(w) => assert!(got.is_some_and(|g| g.starts_with(w)), "{file}: got {got:?}"),
            None => assert_eq!(got, None, "{file}"),
        }
    }
}

/// The real provider logs, as `--log-file` reads them, and the raw exports they came from.
#[test]
fn real_provider_logs() {
    for (file, bytes) in fixtures("logs").into_iter().chain(fixtures("logs/raw")) {
        let want = if file.starts_with("gcp-logs-explorer") {
            // Its first entries are the API server's audit records of the provider's reads.
            "a GKE audit log export"
        } else {
            "a provider log"
        };
        let got = what(&bytes);
        assert!(got.is_some_and(|g| g.starts_with(want)), "{file}: got {got:?}");
    }
}

/// The archive `velero backup download` writes: gzip around a tar whose first header sits at the
/// start (`ustar` at offset 257 of the inflated bytes).
#[test]
fn a_velero_backup_is_told_apart_and_sent_to_from() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/velero/nightly-data.tar.gz");
    let found = sniff_reader(std::fs::File::open(path).unwrap()).unwrap().expect("recognised");
    assert!(found.what.starts_with("a Velero backup"), "{}", found.what);
    assert_eq!(looks_like(found, Reader::From), None, "--from reads it");
    assert_eq!(
        looks_like(found, Reader::Inventory).as_deref(),
        Some("looks like a Velero backup (velero backup download); pass it with --from")
    );
}
