//! The reader on the public samples (byte for byte as published, three of them broken) and on
//! its own data: every layout, gzip, truncation, other clouds' and other tools' records, time
//! zones, the entries of one operation merged, and hostile input.

use super::*;
use proptest::prelude::*;
use std::io::Write;
use upjet_core::cloud_audit::{Cloud, Outcome, Verb};
use upjet_core::gotime::GoTime;

const PUBLIC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/data/cloud-audit/public");

fn public(name: &str) -> (CloudAuditRead, Vec<CloudCall>) {
    let bytes = std::fs::read(format!("{PUBLIC}/{name}")).unwrap();
    read_slice(&bytes, name)
}

fn t(s: &str) -> Option<GoTime> {
    GoTime::parse_rfc3339(s)
}

fn value<'a>(params: &'a [upjet_core::cloud_audit::Param], path: &str) -> Option<&'a str> {
    params.iter().find(|p| &*p.path == path).map(|p| &*p.value)
}

#[test]
fn public_cloudtrail_records() {
    let (read, calls) = public("aws-cloudtrail-createsecuritygroup-terraform-ua-panther.json");
    assert_eq!((read.records, read.creates, read.malformed), (1, 1, 0), "{}", read.note());
    let c = &calls[0];
    assert_eq!(
        (c.cloud, c.verb, &*c.action, &*c.service),
        (Cloud::Aws, Verb::Create, "CreateSecurityGroup", "ec2.amazonaws.com")
    );
    assert_eq!(c.principal.as_deref(), Some("arn:aws:iam::112233445566:role/Operator"), "the role, not the session");
    assert_eq!(c.session.as_deref(), Some("arn:aws:sts::112233445566:assumed-role/Operator/ryan@example.com"));
    assert_eq!(c.account.as_deref(), Some("112233445566"));
    assert_eq!(value(&c.response, "groupId"), Some("sg-04d018d184a18f647"));
    assert_eq!(value(&c.request, "groupName"), Some("prod-webapp-webserver-security"));
    assert_eq!(c.at, t("2020-04-30T23:51:06Z"));
    assert!(c.user_agent.as_deref().unwrap().contains("Terraform/0.12.24"));
    assert_eq!(c.source(), "aws-cloudtrail-createsecuritygroup-terraform-ua-panther.json:1");

    let (read, calls) = public("aws-cloudtrail-createsecret-awsdocs-secretsmanager.json");
    assert_eq!((read.creates, calls[0].response.len()), (1, 0), "responseElements: null");
    assert_eq!(calls[0].principal.as_deref(), Some("arn:aws:iam::123456789012:root"));
    assert_eq!(value(&calls[0].request, "name"), Some("MyDatabaseSecret"));

    let (read, calls) = public("aws-cloudtrail-route53-records-awsdocs-route53.json");
    let names: Vec<(&str, Verb)> = calls.iter().map(|c| (&*c.action, c.verb)).collect();
    assert_eq!(
        names,
        [
            ("CreateHealthCheck", Verb::Create),
            ("DeleteHostedZone", Verb::Delete),
            ("CreateResolverEndpoint", Verb::Create)
        ]
    );
    assert_eq!(
        (read.records, read.prefiltered),
        (6, 3),
        "List, Change and update calls are skipped unread: {}",
        read.note()
    );
    assert_eq!(value(&calls[1].request, "id"), Some("Z1PA6795UKMFR9"));

    let (read, calls) = public("aws-cloudtrail-error-updatetrail-awsdocs-userguide.json");
    assert_eq!((read.records, read.prefiltered, calls.len()), (1, 1, 0), "an update is not kept");
}

#[test]
fn public_lookup_events_and_irsa() {
    let (read, calls) = public("aws-cloudtrail-lookup-events-awscli-example.json");
    assert_eq!((read.records, read.prefiltered, calls.len()), (1, 1, 0), "a console login is no create");
    assert!(!read.note().contains("none of its first"), "it is an audit record: {}", read.note());

    let text = std::fs::read_to_string(format!(
        "{PUBLIC}/aws-cloudtrail-irsa-assumedrole-meterusage-awsdocs-marketplace.json"
    ))
    .unwrap();
    let (_, calls) = read_slice(text.replace("MeterUsage", "CreateMeter").as_bytes(), "irsa");
    let c = &calls[0];
    assert!(
        c.principal.as_deref().unwrap().contains(":role/"),
        "IRSA: the role behind the web-identity session: {:?}",
        c.principal
    );
    assert!(c.session.as_deref().unwrap().contains(":assumed-role/"));
}

#[test]
fn public_samples_that_are_not_valid_json_are_reported_not_fixed() {
    let (read, calls) = public("aws-cloudtrail-lookup-events-createsecret-epoch-awsdocs-secretsmanager.json");
    assert!(calls.is_empty());
    assert!(read.broken >= 1, "{}", read.note());
    assert!(read.note().contains("broken off by a raw newline inside a string"), "{}", read.note());
    assert!(read.note().contains("(line 3)"), "the broken record's line is named: {}", read.note());
    assert!(
        !read.note().contains("none of its first"),
        "a broken record is no evidence of another file: {}",
        read.note()
    );

    let (read, calls) = public("aws-cloudtrail-createrole-awsdocs-userguide.json");
    assert!(calls.is_empty() && read.broken >= 1, "{}", read.note());

    let (read, calls) = public("aws-cloudtrail-kms-createkey-awsdocs-kms.json");
    assert!(calls.is_empty(), "{calls:?}");
    assert!(read.ended_early.as_deref().unwrap_or_default().contains("ends inside the record"), "{}", read.note());
}

#[test]
fn public_gcp_and_azure_records() {
    let (read, calls) = public("gcp-audit-storage-buckets-create-iris3.json");
    assert_eq!((read.decoded(Cloud::Gcp), read.creates), (1, 1), "{}", read.note());
    let c = &calls[0];
    assert_eq!((c.cloud, &*c.action, c.outcome.clone()), (Cloud::Gcp, "storage.buckets.create", Outcome::Succeeded));
    assert_eq!(c.resource.as_deref(), Some("projects/_/buckets/${name}"));

    let (_, calls) = public("gcp-audit-compute-instances-insert-first-iris3.json");
    let c = &calls[0];
    assert_eq!(c.outcome, Outcome::Accepted, "a long-running operation's first entry");
    assert_eq!(c.principal.as_deref(), Some("example@example.com"));
    assert_eq!(c.account.as_deref(), Some("${project}"));
    assert_eq!(value(&c.response, "targetId"), Some("7979750713159037957"));
    assert_eq!(&*c.action_key, "compute.instances.insert", "the API version is not part of the operation");

    let (_, calls) = public("azure-activitylog-nsg-write-succeeded-msdocs-schema.json");
    let c = &calls[0];
    assert_eq!((c.cloud, c.verb, c.outcome.clone()), (Cloud::Azure, Verb::Create, Outcome::Succeeded));
    assert_eq!(c.principal.as_deref(), Some("rob@contoso.com"));
    assert_eq!(c.account.as_deref(), Some("<subscription ID>"));
    assert_eq!(c.at, t("2018-01-29T20:42:31.3810679Z"));

    let (read, calls) = public("azure-activitylog-storage-eventhub-records-msdocs-schema.json");
    assert_eq!(read.decoded(Cloud::Azure), 1, "{}", read.note());
    assert_eq!(calls[0].principal.as_deref(), Some("admin@contoso.com"), "the caller from the claims");
    assert_eq!(calls[0].account.as_deref(), Some("s1"), "the subscription from the resource ID");
}

/// One CloudTrail record of our own.
fn record(name: &str, time: &str, extra: &str) -> String {
    format!(
        r#"{{"eventVersion":"1.08","userIdentity":{{"type":"AssumedRole","arn":"arn:aws:sts::111122223333:assumed-role/provider-aws/1732960800","accountId":"111122223333","sessionContext":{{"sessionIssuer":{{"type":"Role","arn":"arn:aws:iam::111122223333:role/provider-aws"}}}}}},"eventTime":"{time}","eventSource":"ec2.amazonaws.com","eventName":"{name}","awsRegion":"eu-west-1","requestParameters":{{"cidrBlock":"10.1.0.0/16"}},"responseElements":{{"vpc":{{"vpcId":"vpc-0123"}}}},"requestID":"r-1","eventID":"e-1","readOnly":false,"managementEvent":true,"recipientAccountId":"111122223333"{extra}}}"#
    )
}

#[test]
fn every_aws_layout_reads_the_same_call() {
    let r = record("CreateVpc", "2024-11-30T10:00:01Z", "");
    let lookup = serde_json::json!({"Events": [{"EventName": "CreateVpc", "EventTime": 1732960801.0, "CloudTrailEvent": r}], "NextToken": "x"});
    let athena = r.replace("\"eventTime\"", "\"eventtime\"").replace(
        "\"requestParameters\":{\"cidrBlock\":\"10.1.0.0/16\"}",
        "\"requestparameters\":\"{\\\"cidrBlock\\\":\\\"10.1.0.0/16\\\"}\"",
    );
    let layouts = [
        ("S3 log file", format!("{{\"Records\":[{r},{}]}}", record("DescribeVpcs", "2024-11-30T10:00:02Z", ""))),
        ("Lake JSON lines", format!("{r}\n{}\n", record("DescribeVpcs", "2024-11-30T10:00:02Z", ""))),
        ("Athena lower-case columns, bodies as strings", athena),
        ("lookup-events", lookup.to_string()),
        ("lookup-events pretty-printed", serde_json::to_string_pretty(&lookup).unwrap()),
        (
            "EventBridge",
            format!("{{\"version\":\"0\",\"detail-type\":\"AWS API Call via CloudTrail\",\"detail\":{r}}}"),
        ),
        ("a query of CloudTrailEvent strings", serde_json::to_string(&vec![r.clone()]).unwrap()),
    ];
    for (name, text) in layouts {
        let (read, calls) = read_slice(text.as_bytes(), "f");
        assert_eq!(calls.len(), 1, "{name}: {}", read.note());
        let c = &calls[0];
        assert_eq!((c.at, &*c.action), (t("2024-11-30T10:00:01Z"), "CreateVpc"), "{name}");
        assert_eq!(value(&c.request, "cidrBlock"), Some("10.1.0.0/16"), "{name}");
        assert_eq!(value(&c.response, "vpc.vpcId"), Some("vpc-0123"), "{name}");
        assert_eq!(c.principal.as_deref(), Some("arn:aws:iam::111122223333:role/provider-aws"), "{name}");
    }
}

#[test]
fn times_in_other_zones_are_the_instant_they_name() {
    let r = record("CreateVpc", "2024-11-30T11:00:01+01:00", "");
    let (_, calls) = read_slice(r.as_bytes(), "f");
    assert_eq!(calls[0].at, t("2024-11-30T10:00:01Z"));
}

#[test]
fn failed_creates_say_whether_the_object_exists() {
    for (code, message, exists) in [
        ("EntityAlreadyExists", "Role with name x already exists.", true),
        ("InvalidGroup.Duplicate", "The security group 'web' already exists for VPC 'vpc-1'", true),
        ("ResourceExistsException", "", true),
        ("AccessDenied", "not authorized", false),
    ] {
        let r = record(
            "CreateRole",
            "2024-11-30T10:00:01Z",
            &format!(",\"errorCode\":\"{code}\",\"errorMessage\":\"{message}\""),
        );
        let (_, calls) = read_slice(r.as_bytes(), "f");
        assert!(matches!(&calls[0].outcome, Outcome::Failed { exists: e, .. } if *e == exists), "{code}");
    }
}

#[test]
fn gcp_operations_and_azure_events_merge_into_one_call() {
    let entry = |first: bool, status: &str, ts: &str| {
        let op = if first { r#""first":true"# } else { r#""last":true"# };
        format!(
            r#"{{"insertId":"i","logName":"projects/acme/logs/cloudaudit.googleapis.com%2Factivity","operation":{{"id":"op-1",{op}}},"protoPayload":{{"@type":"type.googleapis.com/google.cloud.audit.AuditLog","serviceName":"compute.googleapis.com","methodName":"v1.compute.networks.insert","resourceName":"projects/acme/global/networks/net-1","authenticationInfo":{{"principalEmail":"provider@acme.iam.gserviceaccount.com"}},"request":{{"name":"net-1"}},"status":{status}}},"timestamp":"{ts}"}}"#
        )
    };
    let ok = format!("{}\n{}\n", entry(true, "{}", "2024-11-30T10:00:00Z"), entry(false, "{}", "2024-11-30T10:00:20Z"));
    let (read, calls) = read_slice(ok.as_bytes(), "f");
    assert_eq!((calls.len(), read.merged), (1, 1));
    assert_eq!(
        (calls[0].outcome.clone(), calls[0].at, calls[0].line),
        (Outcome::Succeeded, t("2024-11-30T10:00:00Z"), 1)
    );
    assert_eq!(calls[0].account.as_deref(), Some("acme"), "the project from the log name");
    let failed = format!(
        "{}\n{}\n",
        entry(true, "{}", "2024-11-30T10:00:00Z"),
        entry(
            false,
            r#"{"code":6,"message":"The resource 'projects/acme/global/networks/net-1' already exists"}"#,
            "2024-11-30T10:00:20Z"
        )
    );
    let (_, calls) = read_slice(failed.as_bytes(), "f");
    assert!(matches!(&calls[0].outcome, Outcome::Failed { exists: true, code, .. } if code == "ALREADY_EXISTS (6)"));

    let event = |status: &str, ts: &str, body: &str| {
        format!(
            r#"{{"caller":"5f1c0e0a-0000-4000-8000-000000000001","correlationId":"c-1","operationId":"o-1","eventTimestamp":"{ts}","operationName":{{"value":"Microsoft.Network/virtualNetworks/write"}},"resourceId":"/subscriptions/sub-1/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/vnet-1","status":{{"value":"{status}"}},"subscriptionId":"sub-1","properties":{{"statusCode":"Created","requestbody":"{body}"}}}}"#
        )
    };
    // `az monitor activity-log list` prints the newest first.
    let list = format!(
        "[{},{}]",
        event("Succeeded", "2024-11-30T10:00:09Z", ""),
        event(
            "Started",
            "2024-11-30T10:00:00Z",
            r#"{\"location\":\"westeurope\",\"tags\":{\"crossplane-name\":\"vnet-1\"}}"#
        )
    );
    let (read, calls) = read_slice(list.as_bytes(), "f");
    assert_eq!((calls.len(), read.merged), (1, 1), "{}", read.note());
    let c = &calls[0];
    assert_eq!((c.outcome.clone(), c.at), (Outcome::Succeeded, t("2024-11-30T10:00:00Z")));
    assert_eq!(c.tags.name.as_deref(), Some("vnet-1"), "the request body of the Started event");
    assert_eq!(value(&c.request, "location"), Some("westeurope"));
}

#[test]
fn entries_of_one_operation_merge_across_files() {
    let started = r#"{"caller":"sp","operationId":"o-9","eventTimestamp":"2024-11-30T10:00:00Z","operationName":"Microsoft.Resources/resourceGroups/write","resourceId":"/subscriptions/s/resourceGroups/rg-9","status":{"value":"Accepted"}}"#;
    let done = started.replace("Accepted", "Succeeded").replace("10:00:00", "10:00:30");
    let record = CloudRecord::new(vec![read_slice(started.as_bytes(), "a"), read_slice(done.as_bytes(), "b")]);
    assert_eq!(record.calls.len(), 1);
    assert_eq!(record.calls[0].outcome, Outcome::Succeeded);
    assert!(record.notes().iter().any(|n| n.contains("merged into an operation begun in another file")));
}

#[test]
fn other_files_are_noted_not_fatal() {
    let k8s = r#"{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"a","stage":"ResponseComplete","verb":"create"}"#;
    let log = "2024-11-30T10:00:00Z\tDEBUG\tprovider-aws\tAsync create ended.\t{\"tfID\":\"vpc-1\"}\n";
    for (name, text, what) in [
        ("k8s", k8s.to_string(), "is this the cloud's audit export"),
        ("log", log.repeat(3), "lines that are not JSON"),
    ] {
        let (read, calls) = read_slice(text.as_bytes(), name);
        assert!(calls.is_empty(), "{name}");
        assert!(read.note().contains(what), "{name}: {}", read.note());
    }
    let (read, _) = read_slice(b"{\"eventName\":\"CreateVpc\",\"eventSource\":", "cut");
    assert!(read.ended_early.is_some(), "{}", read.note());
    let broken = format!(
        "{}\n{{\"eventName\":\"CreateVpc\",\"x\":\"cut\n{}\n",
        record("CreateVpc", "2024-11-30T10:00:01Z", ""),
        record("CreateVpc", "2024-11-30T10:00:02Z", "")
    );
    let (read, calls) = read_slice(broken.as_bytes(), "jsonl");
    assert_eq!((calls.len(), read.broken), (2, 1), "{}", read.note());
    assert!(read.note().contains("(line 2)"), "{}", read.note());
}

/// A `lookup-events` answer as the AWS CLI prints it (indented), its events made of [`record`]s,
/// with `tail` after `Events`.
fn lookup_page(names: &[&str], tail: &str) -> String {
    let events: Vec<serde_json::Value> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            let r = record(n, &format!("2024-11-30T10:00:0{i}Z"), "");
            serde_json::json!({"EventId": format!("e-{i}"), "EventName": n, "ReadOnly": "false", "EventTime": "2024-11-30T10:00:00+00:00", "EventSource": "ec2.amazonaws.com", "Resources": [], "CloudTrailEvent": r})
        })
        .collect();
    let text = serde_json::to_string_pretty(&serde_json::json!({ "Events": events })).unwrap();
    format!("{}{tail}\n}}\n", text.trim_end().strip_suffix('}').unwrap().trim_end())
}

#[test]
fn a_lookup_events_page_with_more_to_come_is_cut_short() {
    let page = lookup_page(
        &["CreateVpc", "DeleteVpc"],
        ",\n    \"NextToken\": \"eyJOZXh0VG9rZW4iOiBudWxsLCAiYm90b190cnVuY2F0ZV9hbW91bnQiOiAyfQ==\"",
    );
    let (read, calls) = read_slice(page.as_bytes(), "trail.json");
    assert_eq!(calls.len(), 2, "what the page holds is read: {}", read.note());
    let why = read.cut_short.clone().unwrap_or_default();
    assert!(why.starts_with("it ends with NextToken") && why.contains("--starting-token"), "{}", read.note());
    assert!(read.note().contains("cut short: it ends with NextToken"), "{}", read.note());
    let both = CloudRecord::new(vec![(read, calls)]);
    assert!(both.cut_short()[0].starts_with("cloud audit trail.json: cut short (it ends with NextToken"));

    let before = lookup_page(&["CreateVpc"], "").replacen("{", "{\"NextToken\": \"t\",", 1);
    let one_line = serde_json::to_string(&serde_json::from_str::<serde_json::Value>(&page).unwrap()).unwrap();
    let azure_rest = r#"{"value":[],"nextLink":"https://management.azure.com/subscriptions/s/providers/Microsoft.Insights/eventtypes/management/values?api-version=2015-04-01&$skiptoken=x"}"#;
    let logging_api = r#"{"entries":[],"nextPageToken":"EAA4"}"#;
    for (name, text, cut) in [
        ("the token first", before.as_str(), Some("NextToken")),
        ("one line", one_line.as_str(), Some("NextToken")),
        ("Azure's REST API", azure_rest, Some("nextLink")),
        ("the Logging API", logging_api, Some("nextPageToken")),
        ("the last page", &lookup_page(&["CreateVpc"], ""), None),
        ("a null token", &lookup_page(&["CreateVpc"], ",\"NextToken\":null"), None),
        ("an empty token", &lookup_page(&["CreateVpc"], ",\"NextToken\":\"\""), None),
        ("pages concatenated, the last without", &format!("{page}{}", lookup_page(&["CreateVpc"], "")), None),
        ("a record's own NextToken", &record("CreateVpc", "2024-11-30T10:00:01Z", ",\"NextToken\":\"t\""), None),
    ] {
        let (read, _) = read_slice(text.as_bytes(), "f");
        let got = read.cut_short.as_deref().map(|w| w.split(':').next().unwrap_or_default().to_string());
        assert_eq!(got, cut.map(|k| format!("it ends with {k}")), "{name}: {}", read.note());
    }
}

#[test]
fn gzip_whole_and_cut_short() {
    let text = format!(
        "{}\n{}\n",
        record("CreateVpc", "2024-11-30T10:00:01Z", ""),
        record("DeleteVpc", "2024-11-30T10:00:02Z", "")
    );
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.repeat(200).as_bytes()).unwrap();
    let bytes = gz.finish().unwrap();
    let (read, calls) = read_slice(&bytes, "f.json.gz");
    assert_eq!((read.creates, read.deletes, calls.len()), (200, 200, 400));
    let (read, calls) = read_slice(&bytes[..bytes.len() / 2], "cut.json.gz");
    assert!(read.ended_early.as_deref().unwrap_or_default().contains("gzip"), "{}", read.note());
    assert!(!calls.is_empty() && calls.len() < 400, "what came before was read");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Hostile bytes never panic; every byte is read and every kept call counted.
    #[test]
    fn hostile_input_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        let (read, calls) = read_slice(&bytes, "x");
        prop_assert_eq!(calls.len() as u64, read.creates + read.deletes);
        if !bytes.starts_with(&[0x1f, 0x8b]) {
            prop_assert_eq!(read.bytes, bytes.len() as u64);
        }
    }

    /// Bytes made of JSON's punctuation and record keys: nesting, strings and escapes in every
    /// order, never a panic.
    #[test]
    fn json_like_noise_never_panics(parts in prop::collection::vec(prop::sample::select(vec![
        "{", "}", "[", "]", "\"", ":", ",", "\\", "\n", " ", "\"Records\"", "\"Events\"", "\"NextToken\"", "\"eventName\"", "\"CreateVpc\"",
        "\"eventSource\"", "\"methodName\"", "\"v1.compute.networks.insert\"", "\"operationName\"", "\"x/write\"",
    ]), 0..400)) {
        let text: String = parts.concat();
        let (read, calls) = read_slice(text.as_bytes(), "x");
        prop_assert_eq!(calls.len() as u64, read.creates + read.deletes);
    }

    /// A valid export cut anywhere keeps a prefix of its calls and never panics; a
    /// `lookup-events` page with a `NextToken`, cut anywhere, is never taken for the whole
    /// answer without a word: it is cut short when whole, ended early when cut.
    #[test]
    fn truncated_exports_keep_a_prefix(cut in 0usize..6000, layout in 0usize..4) {
        let records: Vec<String> = (0..6).map(|i| record("CreateVpc", &format!("2024-11-30T10:00:0{i}Z"), "")).collect();
        let text = match layout {
            0 => records.join("\n"),
            1 => format!("{{\"Records\":[{}]}}", records.join(",")),
            2 => format!("[{}]", records.join(",\n")),
            _ => lookup_page(&["CreateVpc"; 6], ",\n    \"NextToken\": \"t0k\""),
        };
        let cut = cut.min(text.len());
        let (whole_read, whole) = read_slice(text.as_bytes(), "w");
        let (read, part) = read_slice(&text.as_bytes()[..cut], "p");
        prop_assert_eq!(whole.len(), 6);
        prop_assert!(part.len() <= 6);
        for (a, b) in part.iter().zip(&whole) {
            prop_assert_eq!(a.at, b.at);
        }
        if layout == 3 {
            prop_assert!(whole_read.cut_short.is_some());
            let said = read.cut_short.is_some() || read.ended_early.is_some() || text[..cut].trim().is_empty();
            prop_assert!(said, "cut at {}: {}", cut, read.note());
        }
    }
}

/// The record of [`record`] as CloudTrail Lake's columns (`SELECT eventTime, eventSource, …`):
/// every value a string, the identity as struct text, the bodies as JSON text.
fn lake_row(name: &str, time: &str) -> serde_json::Value {
    serde_json::json!([
        {"eventTime": time.replace('T', " ").replace('Z', ".000")},
        {"eventSource": "ec2.amazonaws.com"},
        {"eventName": name},
        {"userIdentity": "{type=AssumedRole, principalid=AROA1:1732960800, arn=arn:aws:sts::111122223333:assumed-role/provider-aws/1732960800, accountid=111122223333, accesskeyid=ASIA1, username=null, sessioncontext={attributes={creationdate=2024-11-30 10:00:00.000, mfaauthenticated=false}, sessionissuer={type=Role, principalid=AROA1, arn=arn:aws:iam::111122223333:role/provider-aws, accountid=111122223333, username=provider-aws}, webidfederationdata=null, sourceidentity=null, ec2roledelivery=null, ec2issuedinvpc=null}, invokedby=null, identityprovider=null}"},
        {"requestParameters": "{\"cidrBlock\":\"10.1.0.0/16\"}"},
        {"responseElements": "{\"vpc\":{\"vpcId\":\"vpc-0123\"}}"},
        {"errorCode": ""},
        {"recipientAccountId": "111122223333"}
    ])
}

/// A `get-query-results` answer as the AWS CLI prints it (indented, the rows after the
/// statistics), with `tail` after the rows.
fn lake_answer(rows: &[serde_json::Value], tail: &str) -> String {
    let body = serde_json::json!({
        "QueryStatus": "FINISHED",
        "QueryStatistics": {"ResultsCount": rows.len(), "TotalResultsCount": rows.len(), "BytesScanned": 1234},
        "QueryResultRows": rows,
    });
    let text = serde_json::to_string_pretty(&body).unwrap();
    format!("{}{tail}\n}}\n", text.trim_end().strip_suffix('}').unwrap().trim_end())
}

#[test]
fn cloudtrail_lake_rows_read_as_the_records_they_are() {
    let rows = [lake_row("CreateVpc", "2024-11-30T10:00:01Z"), lake_row("DescribeVpcs", "2024-11-30T10:00:02Z")];
    let event = record("CreateVpc", "2024-11-30T10:00:01Z", "");
    let event_json = serde_json::json!([[{"eventJson": event}], [{"eventJson": record("DescribeVpcs", "2024-11-30T10:00:02Z", "")}]]);
    let layouts = [
        ("columns", lake_answer(&rows, "")),
        ("SELECT eventJson", lake_answer(event_json.as_array().unwrap(), "")),
        ("one line", serde_json::json!({"QueryStatus": "FINISHED", "QueryResultRows": rows}).to_string()),
    ];
    for (name, text) in layouts {
        let (read, calls) = read_slice(text.as_bytes(), "lake.json");
        assert_eq!((read.records, calls.len(), read.prefiltered), (2, 1, 1), "{name}: {}", read.note());
        let c = &calls[0];
        assert_eq!((c.at, &*c.action, c.verb), (t("2024-11-30T10:00:01Z"), "CreateVpc", Verb::Create), "{name}");
        assert_eq!(c.outcome, Outcome::Succeeded, "{name}: an empty errorCode is a null");
        assert_eq!(value(&c.request, "cidrBlock"), Some("10.1.0.0/16"), "{name}");
        assert_eq!(value(&c.response, "vpc.vpcId"), Some("vpc-0123"), "{name}");
        assert_eq!(c.principal.as_deref(), Some("arn:aws:iam::111122223333:role/provider-aws"), "{name}");
        assert_eq!(c.account.as_deref(), Some("111122223333"), "{name}");
        assert_eq!(read.cut_short, None, "{name}");
        assert!(read.note().contains("1 CloudTrail"), "{name}: {}", read.note());
    }
    let (_, calls) = read_slice(lake_answer(&rows, "").as_bytes(), "lake.json");
    assert!(calls[0].line > 1, "a row's line is where it starts in the answer");

    // The columns a query picks by name: `SELECT eventName, eventSource, userIdentity.arn, …`.
    let picked = serde_json::json!({"QueryStatus": "FINISHED", "QueryResultRows": [[
        {"eventName": "CreateBucket"}, {"eventSource": "s3.amazonaws.com"},
        {"arn": "arn:aws:sts::1:assumed-role/provider-aws/s"}, {"arn": "arn:aws:iam::1:role/provider-aws"},
        {"requestParameters": "{bucketName=my-bucket, Host=my-bucket.s3.amazonaws.com}"}
    ]]});
    let (read, calls) = read_slice(picked.to_string().as_bytes(), "picked");
    assert_eq!(calls.len(), 1, "{}", read.note());
    assert_eq!(calls[0].principal.as_deref(), Some("arn:aws:iam::1:role/provider-aws"));
    assert_eq!(value(&calls[0].request, "bucketName"), Some("my-bucket"), "a map printed as struct text");
}

#[test]
fn a_lake_page_with_more_to_come_is_cut_short() {
    let rows = [lake_row("CreateVpc", "2024-11-30T10:00:01Z")];
    let (read, calls) = read_slice(lake_answer(&rows, ",\n    \"NextToken\": \"AAEBAQ==\"").as_bytes(), "page-1.json");
    assert_eq!(calls.len(), 1, "what the page holds is read");
    assert!(read.cut_short.as_deref().unwrap_or_default().contains("NextToken"), "{}", read.note());
    assert!(read.note().contains("cut short: it ends with NextToken"), "{}", read.note());
    let pages = format!(
        "{}{}",
        lake_answer(&rows, ",\n    \"NextToken\": \"AAEBAQ==\""),
        lake_answer(&[lake_row("DeleteVpc", "2024-11-30T10:00:09Z")], "")
    );
    let (read, calls) = read_slice(pages.as_bytes(), "pages.json");
    assert_eq!((calls.len(), read.cut_short.clone()), (2, None), "the last page has no token: {}", read.note());
    let running = r#"{"QueryStatus": "RUNNING", "QueryStatistics": {"ResultsCount": 0, "TotalResultsCount": 0}}"#;
    let (read, calls) = read_slice(running.as_bytes(), "running.json");
    assert!(calls.is_empty());
    assert!(read.cut_short.as_deref().unwrap_or_default().contains("RUNNING"), "{}", read.note());
}

/// A CSV as Athena writes a CloudTrail table's query result: every field quoted, quotes inside
/// doubled, structs as Trino prints them, nulls as empty fields.
fn athena_csv(rows: &[(&str, &str)]) -> String {
    let header = "\"eventversion\",\"useridentity\",\"eventtime\",\"eventsource\",\"eventname\",\"awsregion\",\"errorcode\",\"requestparameters\",\"responseelements\",\"requestid\",\"resources\",\"recipientaccountid\"\n";
    let line = |(name, time): &(&str, &str)| {
        format!(
            "\"1.08\",\"{{type=AssumedRole, principalid=AROA1:s, arn=arn:aws:sts::111122223333:assumed-role/provider-aws/s, accountid=111122223333, invokedby=null, accesskeyid=ASIA1, username=null, sessioncontext={{attributes={{mfaauthenticated=false, creationdate=2024-11-30T10:00:00Z}}, sessionissuer={{type=Role, principalid=AROA1, arn=arn:aws:iam::111122223333:role/provider-aws, accountid=111122223333, username=provider-aws}}, ec2roledelivery=null, webidfederationdata=null}}}}\",\"{time}\",\"ec2.amazonaws.com\",\"{name}\",\"eu-west-1\",,\"{{\"\"cidrBlock\"\":\"\"10.1.0.0/16\"\",\n\"\"description\"\":\"\"a, b\"\"}}\",\"{{\"\"vpc\"\":{{\"\"vpcId\"\":\"\"vpc-0123\"\"}}}}\",\"r-1\",\"[{{arn=arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-0123, accountid=111122223333, type=AWS::EC2::VPC}}]\",\"111122223333\"\n"
        )
    };
    header.to_string() + &rows.iter().map(line).collect::<String>()
}

#[test]
fn athena_csv_lines_read_as_the_records_they_are() {
    let text = athena_csv(&[("CreateVpc", "2024-11-30T10:00:01Z"), ("DescribeVpcs", "2024-11-30T10:00:02Z")]);
    let bom = [&b"\xef\xbb\xbf"[..], text.as_bytes()].concat();
    for (name, bytes) in
        [("plain", text.clone().into_bytes()), ("CRLF", text.replace("\"\n", "\"\r\n").into_bytes()), ("BOM", bom)]
    {
        let (read, calls) = read_slice(&bytes, "athena.csv");
        assert_eq!((read.records, calls.len(), read.prefiltered), (2, 1, 1), "{name}: {}", read.note());
        let c = &calls[0];
        assert_eq!((c.at, &*c.action), (t("2024-11-30T10:00:01Z"), "CreateVpc"), "{name}");
        assert_eq!(c.outcome, Outcome::Succeeded, "{name}: an empty errorcode is a null");
        assert_eq!(c.principal.as_deref(), Some("arn:aws:iam::111122223333:role/provider-aws"), "{name}");
        assert_eq!(value(&c.request, "description"), Some("a, b"), "{name}: a newline inside a quoted field");
        assert_eq!(value(&c.response, "vpc.vpcId"), Some("vpc-0123"), "{name}");
        assert_eq!(value(&c.response, "resources[].ARN"), Some("arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-0123"));
        assert_eq!(c.line, 2, "{name}: the line the record starts on");
        assert_eq!(read.bytes, bytes.len() as u64);
    }
    let (_, calls) =
        read_slice(athena_csv(&[("DescribeVpcs", "t"), ("DeleteVpc", "2024-11-30T10:00:03Z")]).as_bytes(), "a");
    assert_eq!((calls[0].verb, calls[0].line), (Verb::Delete, 4), "a line after a two-line record");
}

#[test]
fn an_athena_line_longer_than_the_cap_is_skipped_and_the_next_read() {
    let text = athena_csv(&[("CreateVpc", "2024-11-30T10:00:01Z")]);
    let (header, line) = text.split_once('\n').unwrap();
    let long = format!("\"{}\"\n", "x".repeat(MAX_RECORD_BYTES + 10));
    let (read, calls) = read_slice(format!("{header}\n{long}{line}").as_bytes(), "long.csv");
    assert_eq!((read.too_long, calls.len()), (1, 1), "{}", read.note());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    /// A Lake answer or an Athena CSV cut anywhere, or with bytes overwritten, never panics and
    /// keeps at most the calls of the whole.
    #[test]
    fn lake_and_athena_cut_or_mangled_never_panic(
        cut in 0usize..6000,
        csv in any::<bool>(),
        noise in prop::collection::vec((0usize..6000, any::<u8>()), 0..8),
    ) {
        let rows: Vec<(&str, &str)> = vec![("CreateVpc", "2024-11-30T10:00:01Z"), ("DeleteVpc", "2024-11-30T10:00:02Z")];
        let text = if csv {
            athena_csv(&rows)
        } else {
            lake_answer(&rows.iter().map(|(n, t)| lake_row(n, t)).collect::<Vec<_>>(), ",\"NextToken\":\"t\"")
        };
        let (_, whole) = read_slice(text.as_bytes(), "w");
        prop_assert_eq!(whole.len(), 2);
        let mut bytes = text.into_bytes();
        let cut = cut.min(bytes.len());
        let (read, part) = read_slice(&bytes[..cut], "p");
        prop_assert!(part.len() <= 2);
        prop_assert_eq!(read.bytes, cut as u64);
        for (at, b) in noise {
            let n = bytes.len();
            bytes[at % n] = b;
        }
        let (read, mangled) = read_slice(&bytes, "m");
        prop_assert_eq!(mangled.len() as u64, read.creates + read.deletes);
    }
}
