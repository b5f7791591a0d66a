//! What a file is, from its first bytes: every input the plugin reads, named as a user knows it
//! and tied to the flag that reads it.
//!
//! A file handed to the wrong flag fails in that flag's terms ("not valid JSON: trailing
//! characters" for two AWS pages given to `--from`), which says nothing about the mistake. When
//! a reader cannot use a file, the shell asks [`sniff`] and, if the file is another input, says
//! which flag takes it. Only a bounded prefix is read ([`PREFIX_BYTES`]; gzip is inflated up to a
//! bound too), so asking costs the same for a 10 GB log as for a small file.
//!
//! Adding an input is one entry in [`FORMATS`]: what it is, which readers take it, and a test
//! over the [`Head`]. The entries are tried in order, the most specific first.

mod head;
#[cfg(test)]
mod tests;

pub use head::Head;
use std::io::Read;

/// How many bytes of a file the sniffer reads.
pub const PREFIX_BYTES: u64 = 16 * 1024;

/// A flag (or a command's file argument) that reads files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// `--from`: snapshots of MRs.
    From,
    /// `--log-file`: provider logs.
    LogFile,
    /// `--inventory`: cloud inventory exports.
    Inventory,
    /// `--audit-log`: Kubernetes audit logs.
    AuditLog,
    /// `--cloud-audit`: the cloud's own audit record (CloudTrail, GCP audit logs, Azure activity log).
    CloudAudit,
    /// `adopt -f`: adoption plans.
    Plan,
    /// `restore BACKUP_FILE`: adopt backups.
    Backup,
    /// `migrate apply -f` and `migrate status -f`: migration plans.
    MigrationPlan,
}

impl Reader {
    /// How a file gets to this reader, completing "pass it …".
    pub fn how(self) -> &'static str {
        match self {
            Reader::From => "with --from",
            Reader::LogFile => "with --log-file",
            Reader::Inventory => "with --inventory",
            Reader::AuditLog => "with --audit-log",
            Reader::CloudAudit => "with --cloud-audit",
            Reader::Plan => "to `kubectl upjet adopt -f`",
            Reader::Backup => "to `kubectl upjet restore`",
            Reader::MigrationPlan => "to `kubectl upjet migrate apply -f`",
        }
    }
}

/// One input format.
pub struct Format {
    /// What the file is, completing "X looks like …".
    pub what: &'static str,
    /// The readers that take it, the one to suggest first; empty for a format this version
    /// recognises but reads nowhere.
    pub readers: &'static [Reader],
    /// Said instead of a flag when `readers` is empty.
    pub unread: &'static str,
    /// Whether the first bytes are this format.
    pub test: fn(&Head) -> bool,
}

/// Every format known, most specific first: a CloudWatch export whose messages are audit
/// events before any JSON object, an audit `EventList` before any List, inventories before
/// provider logs (whose decoder accepts most JSON lines with a message).
pub static FORMATS: &[Format] = &[
    Format {
        what: "a Velero backup (velero backup download)",
        readers: &[Reader::From],
        unread: "",
        test: |h| crate::evidence::velero::is_tar(&h.bytes),
    },
    Format {
        what: "a Kubernetes audit log (audit.k8s.io events)",
        readers: &[Reader::AuditLog],
        unread: "",
        test: |h| k8s_audit_event(h) || h.after_first_token().is_some_and(|t| k8s_audit_event(&t)),
    },
    Format {
        what: "a GKE audit log export (Cloud Logging entries of k8s.io)",
        readers: &[Reader::AuditLog],
        unread: "",
        test: |h| cloud_audit_entry(h) && gke_service(h),
    },
    Format {
        what: "an EKS audit log export (CloudWatch Logs events)",
        readers: &[Reader::AuditLog],
        unread: "",
        test: |h| {
            let message = h.str("events[].message").or_else(|| h.str("message").filter(|_| h.has("logStreamName")));
            message.is_some_and(|m| m.contains("audit.k8s.io") || m.contains("\"auditID\""))
        },
    },
    Format {
        what: "a Google Cloud audit log (Cloud Logging AuditLog entries)",
        readers: &[Reader::CloudAudit],
        unread: "",
        test: |h| cloud_audit_entry(h) && !gke_service(h),
    },
    Format {
        what: "an AWS CloudTrail log",
        readers: &[Reader::CloudAudit],
        unread: "",
        test: |h| {
            h.is_object()
                && (h.has("Records[].eventSource")
                    || h.has("Events[].CloudTrailEvent")
                    || h.has("Events[].EventSource"))
        },
    },
    Format {
        what: "an Azure activity log (az monitor activity-log list)",
        readers: &[Reader::CloudAudit],
        unread: "",
        test: |h| h.is_array() && h.has("eventTimestamp") && h.has("operationName"),
    },
    Format {
        what: "an AWS tagging export (resourcegroupstaggingapi get-resources)",
        readers: &[Reader::Inventory],
        unread: "",
        test: |h| (h.is_object() && h.has("ResourceTagMappingList")) || (h.is_array() && h.has("ResourceARN")),
    },
    Format {
        what: "a GCP asset export (gcloud asset search-all-resources)",
        readers: &[Reader::Inventory],
        unread: "",
        test: |h| {
            h.is_array()
                && (h.str("name").is_some_and(|n| n.starts_with("//"))
                    || h.str("assetType").is_some_and(|t| t.contains(".googleapis.com/")))
        },
    },
    Format {
        what: "an Azure resource list (az resource list)",
        readers: &[Reader::Inventory],
        unread: "",
        test: |h| h.is_array() && h.str("id").is_some_and(|id| id.to_ascii_lowercase().starts_with("/subscriptions/")),
    },
    Format {
        what: "an Azure Resource Graph result (az graph query)",
        readers: &[Reader::Inventory],
        unread: "",
        test: |h| h.is_object() && h.has("data") && (h.has("count") || h.has("total_records") || h.has("skip_token")),
    },
    Format {
        what: "an adoption plan (doctor --plan)",
        readers: &[Reader::Plan],
        unread: "",
        test: |h| h.is_array() && h.has("resource") && (h.has("id") || h.has("candidates")),
    },
    Format {
        what: "a migration plan (migrate plan)",
        readers: &[Reader::MigrationPlan],
        unread: "",
        test: |h| h.is_object() && h.str("kind") == Some("MigrationPlan"),
    },
    Format {
        what: "a Terraform state",
        readers: &[],
        unread: "no flag reads one from a file (history --workspace reads the provider's own)",
        test: |h| h.is_object() && (h.has("terraform_version") || (h.has("lineage") && h.has("serial"))),
    },
    Format {
        what: "a snapshot of Kubernetes objects (a List from kubectl get -o json or -o yaml)",
        readers: &[Reader::From],
        unread: "",
        test: |h| {
            h.is_object()
                && (h.str("kind").is_some_and(|k| k.ends_with("List")) || (h.has("items") && h.has("apiVersion")))
        },
    },
    Format {
        what: "one Kubernetes object (kubectl get KIND NAME -o json, or an adopt backup)",
        readers: &[Reader::From, Reader::Backup],
        unread: "",
        test: |h| h.is_object() && h.has("apiVersion") && h.has("kind") && h.has("metadata"),
    },
    Format { what: "a provider log", readers: &[Reader::LogFile], unread: "", test: provider_log },
];

/// An `audit.k8s.io` event, bare or in a list.
fn k8s_audit_event(h: &Head) -> bool {
    let audit_api = |p: &str| h.str(p).is_some_and(|v| v.starts_with("audit.k8s.io/"));
    audit_api("apiVersion") || (h.has("auditID") && h.has("stage")) || h.has("items[].auditID")
}

/// A Cloud Logging entry whose payload is a Cloud Audit Log.
fn cloud_audit_entry(h: &Head) -> bool {
    h.str("protoPayload.@type").is_some_and(|t| t.ends_with("google.cloud.audit.AuditLog"))
}

/// The Kubernetes API of GKE wrote it (not another Google Cloud service).
fn gke_service(h: &Head) -> bool {
    h.str("protoPayload.serviceName") == Some("k8s.io") || h.str("resource.type") == Some("k8s_cluster")
}

/// Provider log lines (zap console or JSON, with kubectl/CRI/Loki prefixes), or Cloud Logging
/// and Loki exports of container logs: the log decoder itself recognises the lines.
fn provider_log(h: &Head) -> bool {
    if h.has("textPayload") || h.has("jsonPayload") || (h.has("line") && h.has("timestamp")) {
        return true;
    }
    let (mut lines, mut records) = (0usize, 0usize);
    for line in h.lines() {
        lines += 1;
        records += usize::from(crate::evidence::logs::decode_line(line).is_some());
    }
    records > 0 && records * 3 >= lines
}

/// The format of a file whose first bytes are `prefix`, if it is one this plugin knows.
pub fn sniff(prefix: &[u8]) -> Option<&'static Format> {
    let head = Head::of(prefix);
    FORMATS.iter().find(|f| (f.test)(&head))
}

/// [`sniff`] over the first [`PREFIX_BYTES`] of `reader`.
pub fn sniff_reader(reader: impl Read) -> std::io::Result<Option<&'static Format>> {
    let mut prefix = Vec::with_capacity(PREFIX_BYTES as usize);
    reader.take(PREFIX_BYTES).read_to_end(&mut prefix)?;
    Ok(sniff(&prefix))
}

/// What to tell a user who gave a file sniffed as `found` to `reader` ("looks like …; pass it
/// with --inventory"), to follow the file's name: `None` when `reader` takes that format (then
/// the reader's own error is the better one).
pub fn looks_like(found: &Format, reader: Reader) -> Option<String> {
    if found.readers.contains(&reader) {
        return None;
    }
    Some(match found.readers.first() {
        Some(r) => format!("looks like {}; pass it {}", found.what, r.how()),
        None => format!("looks like {}: {}", found.what, found.unread),
    })
}
