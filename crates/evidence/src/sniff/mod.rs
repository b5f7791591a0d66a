//! What a file is, from its first bytes: every input the plugin reads, named as a user knows it
//! and tied to the flag that reads it.
//!
//! A file handed to the wrong flag fails in that flag's terms ("not valid JSON: trailing
//! characters" for two AWS pages given to `--from`), which says nothing about the mistake. When
//! a reader cannot use a file, the shell asks [`sniff`] and, if the file is another input, says
//! which flag takes it. Only a bounded prefix is read ([`PREFIX_BYTES`]; gzip is inflated up to a
//! bound too), so asking costs the same for a 10 GB log as for a small file.
//!
//! Adding an input is one entry in [`BEFORE_CLOUD_AUDIT`] or [`AFTER_INVENTORIES`]: what it is,
//! which readers take it, and a test over the [`Head`]. A cloud's audit export is an entry of
//! that cloud's own file (`cloud_audit::Dialect::formats`), an inventory export one of its own
//! file (`inventory::export::Export::formats`). The entries are tried in order, the most
//! specific first ([`formats`]).

#[cfg(test)]
mod tests;

use crate::format::head::Head;
use crate::format::{Format, Reader};
use crate::{cloud_audit, inventory};
use std::io::Read;
use std::sync::OnceLock;

/// How many bytes of a file the sniffer reads.
pub(crate) const PREFIX_BYTES: u64 = 16 * 1024;

/// The formats tried before the clouds' audit exports, most specific first: an archive, then the
/// Kubernetes audit logs (a CloudWatch export whose messages are audit events before any JSON
/// object, an audit `EventList` before any List).
pub(crate) static BEFORE_CLOUD_AUDIT: &[Format] = &[
    Format {
        what: "a Velero backup (velero backup download)",
        readers: &[Reader::From],
        unread: "",
        test: |h| crate::velero::is_tar(&h.bytes),
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
        test: |h| cloud_audit::gcp::is_audit_entry(h) && cloud_audit::gcp::is_gke(h),
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
];

/// The formats tried after the inventory exports, which come after the clouds' audit exports
/// and before these (the provider log decoder accepts most JSON lines with a message).
pub(crate) static AFTER_INVENTORIES: &[Format] = &[
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
    Format {
        what: "a Crossplane change log (the changelogs sidecar's container log)",
        readers: &[Reader::LogFile],
        unread: "",
        test: |h| h.lines().next().is_some_and(crate::changelog::looks_like_entry),
    },
    Format { what: "a provider log", readers: &[Reader::LogFile], unread: "", test: provider_log },
];

/// An `audit.k8s.io` event, bare or in a list.
fn k8s_audit_event(h: &Head) -> bool {
    let audit_api = |p: &str| h.str(p).is_some_and(|v| v.starts_with("audit.k8s.io/"));
    audit_api("apiVersion") || (h.has("auditID") && h.has("stage")) || h.has("items[].auditID")
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
        records += usize::from(crate::logs::decode_line(line).is_some());
    }
    records > 0 && records * 3 >= lines
}

/// Every format known, in the order they are tried: [`BEFORE_CLOUD_AUDIT`], each cloud's audit
/// exports in the order of `cloud_audit::DIALECTS`, each inventory export's in the order of
/// `inventory::EXPORTS`, then [`AFTER_INVENTORIES`].
pub fn formats() -> &'static [&'static Format] {
    static ALL: OnceLock<Vec<&'static Format>> = OnceLock::new();
    ALL.get_or_init(|| {
        let clouds = cloud_audit::DIALECTS.iter().flat_map(|d| d.formats());
        let inventories = inventory::EXPORTS.iter().flat_map(|e| e.formats());
        BEFORE_CLOUD_AUDIT.iter().chain(clouds).chain(inventories).chain(AFTER_INVENTORIES).collect()
    })
}

/// The format of a file whose first bytes are `prefix`, if it is one this plugin knows.
pub fn sniff(prefix: &[u8]) -> Option<&'static Format> {
    let head = Head::of(prefix);
    formats().iter().copied().find(|f| (f.test)(&head))
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
