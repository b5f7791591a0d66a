//! What a sniffed format is and which flag reads it: the two types every entry of the
//! sniffer's table is made of, and the head of a file they are told from (`head`), apart from
//! the table, so that a reader declaring its own entry (each cloud's audit format, beside its
//! decoder) needs nothing of the sniffer, which walks the readers' entries.

pub mod head;

use head::Head;

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
