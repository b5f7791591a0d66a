//! Velero backups as input: recognising one among `--from` paths, feeding its entries to
//! `evidence::velero` (from the archive, or from the unpacked folder), and judging every MR in it
//! with the restore rules, which doctor and restore-plan share.

use super::evidence::EvidenceSources;
use crate::settings::Settings;
use std::collections::BTreeSet;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use upjet_cluster::connect;
use upjet_cluster::discover;
use upjet_cluster::scan::{self, ScanOptions};
use upjet_core::error::Error;
use upjet_core::finding::Finding;
use upjet_core::identity::{self, Peers, UserTemplate};
use upjet_core::inventory::{ScanCoverage, ServedKind};
use upjet_core::managed::ManagedResource;
use upjet_core::reconcile_timeout::JudgedAt;
use upjet_core::restore::{RestoreModel, can_change_cloud};
use upjet_evidence::audit::Groups;
use upjet_evidence::fleet::{FleetFacts, FleetInputs};
use upjet_evidence::index::EvidenceIndex;
use upjet_evidence::velero::{self, Backup, BackupItem, Reader};

/// Whether `path` is a Velero backup: a file that starts as gzip or tar (what `velero backup
/// download` writes), or a folder with `resources/` and `metadata/version` (that file unpacked).
/// Snapshots (`kubectl get -o json|yaml` files) are text, so the two never meet.
pub(crate) fn is_backup(path: &Path) -> bool {
    if path.is_dir() {
        return path.join("resources").is_dir() && path.join("metadata").join("version").is_file();
    }
    let mut head = Vec::with_capacity(512);
    match std::fs::File::open(path) {
        Ok(f) => {
            let _ = f.take(512).read_to_end(&mut head);
            upjet_evidence::input::is_gzip(&head) || velero::is_tar(&head)
        }
        Err(_) => false,
    }
}

/// The backup's name, as `velero restore create --from-backup` wants it: the folder's name, or
/// the file's without `-data.tar.gz` (`velero backup download`'s default) or `.tar.gz`.
pub(crate) fn backup_name(path: &Path) -> String {
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let name = ["-data.tar.gz", ".tar.gz", ".tgz", ".tar"].iter().find_map(|s| file.strip_suffix(s)).unwrap_or(&file);
    if name.is_empty() { "BACKUP".into() } else { name.to_string() }
}

/// Reads a backup (blocking: call it off the async runtime). A broken archive is a usage error
/// naming where it broke.
pub fn read(path: &Path) -> Result<Backup, Error> {
    let shown = path.display();
    let result = if path.is_dir() {
        read_folder(path)?
    } else {
        let file = std::fs::File::open(path).map_err(|e| Error::usage(format!("cannot read {shown}: {e}")))?;
        velero::read_archive(file)
    };
    result.map_err(|e| Error::usage(format!("{shown}: {e}")))
}

/// An unpacked backup, its files handed to the reader under their names relative to the folder.
/// Symbolic links are not followed: an unpacked archive has none.
fn read_folder(root: &Path) -> Result<Result<Backup, velero::BackupError>, Error> {
    let mut reader = Reader::new();
    let mut files = Vec::new();
    collect(&root.join("resources"), &mut files, &mut reader)?;
    files.push(root.join("metadata").join("version"));
    for file in files {
        let rel = file.strip_prefix(root).unwrap_or(&file);
        let name = rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
        let mut f =
            std::fs::File::open(&file).map_err(|e| Error::usage(format!("cannot read {}: {e}", file.display())))?;
        reader.entry(&name, &mut f).map_err(|e| Error::usage(format!("cannot read {}: {e}", file.display())))?;
    }
    Ok(reader.finish())
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>, reader: &mut Reader) -> Result<(), Error> {
    for p in upjet_cluster::snapshot::sorted_entries(dir)? {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                reader.skip(format!("{}: a symbolic link; not followed", p.display()))
            }
            Ok(m) if m.is_dir() => collect(&p, out, reader)?,
            Ok(_) => out.push(p),
            Err(e) => reader.skip(format!("{}: {e}", p.display())),
        }
    }
    Ok(())
}

/// The MRs of a snapshot or a backup, for the commands that look one up (`doctor KIND/NAME`,
/// `history --from`), and the lines saying which files of a snapshot folder were skipped as
/// another input: objects that cannot be decoded are left out.
pub fn managed_resources(path: &Path) -> Result<(Vec<ManagedResource>, Vec<String>), Error> {
    if is_backup(path) {
        return Ok((read(path)?.items.into_iter().map(|i| i.mr).collect(), Vec::new()));
    }
    let snap = super::inputs::read_snapshot(path)?;
    Ok((snap.items.into_iter().filter_map(|i| ManagedResource::from_json(&i.json).ok()).collect(), snap.skipped))
}

/// What else a backup is judged with: the evidence flags doctor and restore-plan share, resolved.
pub struct Inputs<'a> {
    /// The evidence files (`--log-file`, `--audit-log`) and the ID journal (`--journal`, else
    /// the source cluster's default folder).
    pub evidence: &'a EvidenceSources,
    /// `--id-template`.
    pub id_templates: &'a [UserTemplate],
    /// `--source-context`: the live cluster the backup was taken from.
    pub source_context: Option<&'a str>,
    /// `--target-context`: the live cluster the backup will be restored into.
    pub target_context: Option<&'a str>,
    /// What every MR is judged against (the command's resolved `--create-timeout`, if it takes one).
    pub at: JudgedAt,
    /// The inventory (`--inventory`) and the cloud's record of what the provider created
    /// (`--cloud-audit`, `--cloud-principal`), read by the caller, with the inventory's notes.
    pub fleet: (FleetInputs, Vec<String>),
}

/// One MR of the backup with every finding about it (restore verdict included), suggestions
/// completed from the one ranked candidate list.
pub struct Judged {
    /// The MR as backed up, and where.
    pub item: BackupItem,
    /// Its findings, unfiltered.
    pub findings: Vec<Finding>,
}

/// A backup, judged.
pub struct JudgedBackup {
    /// Every MR kept by `keep`, in the backup's order.
    pub judged: Vec<Judged>,
    /// What the reader could not use (entries skipped, conflicting copies, kinds of the source
    /// cluster not read): the judgement is a lower bound while this is not empty.
    pub skipped: Vec<String>,
    /// Notes from the reader and the evidence.
    pub notes: Vec<String>,
    /// What was read about each MR (logs, audit writes, the restore model), for the report's
    /// closing findings.
    pub evidence: EvidenceIndex,
    /// The inventory and the cloud record tied to the backup's MRs.
    pub fleet: FleetFacts,
    /// What the backup's healthy MRs teach about their kinds' identity formats.
    pub peers: Peers,
}

/// Reads the backup at `path` and judges each MR that `keep` selects, as the reconciler would
/// meet it after a restore.
pub async fn judge(
    settings: &Settings,
    path: &Path,
    inputs: Inputs<'_>,
    keep: impl Fn(&ManagedResource) -> bool,
) -> anyhow::Result<JudgedBackup> {
    let owned = path.to_path_buf();
    let backup = tokio::task::spawn_blocking(move || read(&owned)).await??;
    let items: Vec<BackupItem> = backup.items.into_iter().filter(|i| keep(&i.mr)).collect();
    let (fleet_inputs, inventory_notes) = inputs.fleet;
    let mut peers = Peers::default();
    for i in &items {
        peers.observe(&i.mr);
    }
    peers.learn();
    let kinds: BTreeSet<(String, String)> =
        items.iter().map(|i| (i.mr.group().to_string(), i.mr.kind.clone())).collect();
    let mut model = RestoreModel::new(&peers, kinds.iter().cloned());
    let mut skipped = backup.skipped;
    let mut source_note = None;
    if let Some(context) = inputs.source_context {
        let (read, unread) = source_trackers(settings, context, &kinds, &mut model).await?;
        source_note = Some(format!(
            "source cluster {context}: {read} managed resources that can still change their cloud object"
        ));
        skipped.extend(unread);
    }
    let groups = Groups::of(items.iter().map(|i| i.mr.group().to_string()));
    let mut request = inputs.evidence.request(settings, inputs.source_context, groups);
    request.acknowledges_requests =
        backup.crds.iter().map(|c| ((c.group.clone(), c.kind.clone()), c.acknowledges_requests)).collect();
    let mut target_note = None;
    if let Some(context) = inputs.target_context {
        let (states, note) = super::mrd::target(settings, context).await?;
        target_note = note;
        model.target = states;
    }
    request.restore = Some(model);
    let (evidence, log_notes) = request.read().await?.into_index();
    let mut notes = [log_notes, inventory_notes, backup.notes].concat();
    if let Some(v) = &backup.format_version {
        notes.insert(0, format!("Velero backup {} (format {v}): {} managed resources", backup_name(path), items.len()));
    }
    notes.extend(source_note);
    notes.extend(target_note);
    // The cloud's record names the object a restore would create again, where it holds the create.
    let mrs: Vec<&ManagedResource> = items.iter().map(|i| &i.mr).collect();
    // The backup's MRs name their kinds at the version they were read, its CRDs the others.
    let crds = backup.crds.iter().filter_map(|c| {
        let version = c.versions.first()?.clone();
        Some(ServedKind { kind: c.kind.clone(), group: c.group.clone(), version })
    });
    let scope = ScanCoverage {
        kinds: ScanCoverage::of_kinds(mrs.iter().map(|mr| ServedKind::of(mr)).chain(crds)),
        all_kinds: true,
        complete: true,
        truncated: Vec::new(),
    };
    let fleet = fleet_inputs.tie(&mrs, &scope);
    let judged = items
        .into_iter()
        .map(|item| {
            let mut findings = evidence.findings(&item.mr, &fleet, inputs.at);
            upjet_core::candidate::share_observed(&mut findings);
            identity::fill(&mut findings, &item.mr, &peers, inputs.id_templates);
            Judged { item, findings }
        })
        .collect();
    Ok(JudgedBackup { judged, skipped, notes, evidence, fleet, peers })
}

/// Lists the backup's kinds in the source cluster and records every MR there that can still
/// change the cloud object it tracks. Returns how many, and the kinds that could not be read
/// (the fight verdict is then a lower bound).
async fn source_trackers(
    settings: &Settings,
    context: &str,
    kinds: &BTreeSet<(String, String)>,
    model: &mut RestoreModel,
) -> anyhow::Result<(usize, Vec<String>)> {
    let conn = Arc::new(connect::connect(&settings.connect_to(context)).await?);
    let (served, _) = discover::discover_managed(&conn, 16).await?;
    let wanted: Vec<_> = served.into_iter().filter(|k| kinds.contains(&(k.group.clone(), k.kind.clone()))).collect();
    let opts = ScanOptions { namespace: None, label_selector: None, page_size: 500, concurrency: 16 };
    let keep = |mr: ManagedResource| (mr.external_name().is_some() && can_change_cloud(&mr)).then_some(mr);
    let results = scan::scan(conn, wanted, opts, keep, |_| {}).await;
    let (mut count, mut unread) = (0, Vec::new());
    for r in results {
        if let Some(e) = r.error {
            unread.push(format!(
                "source cluster {context}: {} not read ({e}); a fight with it cannot be ruled out",
                r.kind.resource_name()
            ));
        }
        for mr in r.kept {
            count += 1;
            model.track(&mr, context);
        }
    }
    Ok((count, unread))
}
