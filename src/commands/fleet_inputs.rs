//! The fleet-wide inputs of a run (`--inventory`, `--cloud-audit`), read before any MR: what they
//! say about an MR is known only once every MR is (`evidence::fleet`).

use super::cloud_audit::CloudAuditFiles;
use super::evidence::open_input;
use super::inputs::explain;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use upjet_cluster::connect::Connection;
use upjet_cluster::kinds::ApiKind;
use upjet_core::inventory::{InventoryObject, ScanCoverage, ServedKind};
use upjet_core::managed::ManagedResource;
use upjet_evidence::fleet::{FleetFacts, FleetInputs, InventoryInput};
use upjet_evidence::format::Reader;
use upjet_evidence::inventory;

/// The fleet-wide inputs a command reads (`--inventory`, `--cloud-audit`, `--cloud-principal`),
/// resolved once from its flags (`commands::resolve`).
#[derive(Clone, Debug, Default)]
pub struct FleetFiles {
    /// `--inventory`.
    pub inventory: Vec<PathBuf>,
    /// The cloud's record.
    pub cloud: CloudAuditFiles,
}

impl FleetFiles {
    /// Reads the fleet-wide inputs (`--inventory`, then `--cloud-audit`), before any MR. Returns
    /// them and the inventory's notes.
    pub async fn read(&self) -> anyhow::Result<(FleetInputs, Vec<String>)> {
        let Inventories { objects, notes, truncated } = read_inventories(&self.inventory).await?;
        let inventory = (!self.inventory.is_empty()).then_some(InventoryInput { objects, truncated });
        let record = super::cloud_audit::read(&self.cloud).await?.map(|r| (r, self.cloud.principals.clone()));
        Ok((FleetInputs::new(inventory, record), notes))
    }

    /// The fleet-wide inputs tied to one MR (`history`): read, then tied over the MR and its
    /// peers — the snapshot's MRs with `--from`, else every MR of its kind listed over the
    /// command's connection (`live`) — since healthy peers teach each kind's ID form and the
    /// provider's cloud identity. Returns the facts and the notes on what was read and learned;
    /// nothing is read without files.
    pub async fn for_one(
        &self,
        mr: &ManagedResource,
        from: Option<&Path>,
        live: Option<(&Connection, &ApiKind)>,
    ) -> anyhow::Result<(FleetFacts, Vec<String>)> {
        if self.inventory.is_empty() && self.cloud.files.is_empty() {
            return Ok((FleetFacts::default(), Vec::new()));
        }
        let (inputs, mut notes) = self.read().await?;
        let (peers, listed, complete) = match (from, live) {
            (Some(path), _) => (super::cloud_audit::snapshot_mrs(path)?, Vec::new(), true),
            (None, Some((conn, kind))) => {
                let (mrs, listed) = super::cloud_audit::live_kind(conn, kind).await;
                let complete = listed.is_empty();
                (mrs, listed, complete)
            }
            (None, None) => (Vec::new(), Vec::new(), false),
        };
        let same = |p: &ManagedResource| {
            p.name == mr.name && p.namespace == mr.namespace && p.kind == mr.kind && p.group() == mr.group()
        };
        let mut mrs: Vec<&ManagedResource> = peers.iter().filter(|p| !same(p)).collect();
        mrs.push(mr);
        // A snapshot is a whole fleet (every kind it holds); a live run listed the MR's kind only.
        let scope = ScanCoverage {
            kinds: ScanCoverage::of_kinds(mrs.iter().map(|m| ServedKind::of(m))),
            all_kinds: from.is_some(),
            complete,
            truncated: Vec::new(),
        };
        let facts = inputs.tie(&mrs, &scope);
        notes.extend(listed.into_iter().map(|n| n.replacen("cloud audit: ", "", 1)));
        notes.extend(facts.cloud_notes().iter().cloned());
        Ok((facts, notes))
    }
}

/// Every `--inventory` file read: their objects, a note per file, and the files cut short.
#[derive(Default)]
pub struct Inventories {
    /// Every object of every file, in order.
    pub objects: Vec<InventoryObject>,
    /// One note per file.
    pub notes: Vec<String>,
    /// The files that end with a paging token: the report is partial, and no object of theirs
    /// proves another missing.
    pub truncated: Vec<Arc<str>>,
}

/// Reads every `--inventory` file (`-` is stdin), off the async runtime. An unreadable or
/// unknown file is a usage error naming it: a cross-check over part of the inventory would
/// report objects as lost that are merely in the file that failed. A file cut short (its last
/// page names a next one) is read, said on stderr, and makes the report partial.
pub async fn read_inventories(files: &[PathBuf]) -> anyhow::Result<Inventories> {
    let files = files.to_vec();
    tokio::task::spawn_blocking(move || {
        let mut out = Inventories::default();
        for path in &files {
            let (reader, name) = open_input(path, "inventory")?;
            let inv = inventory::read(reader, &name)
                .map_err(|e| explain(path, Reader::Inventory, upjet_core::error::Error::usage(e.to_string())))?;
            if let Some(token) = inv.truncated {
                eprintln!(
                    "{}",
                    upjet_output::style::sanitize(&format!(
                        "warning: inventory {name} ends with {token}: the export was cut short, so objects on its missing pages are unknown and the report is partial ({})",
                        inventory::truncation_hint(token)
                    ))
                );
                out.truncated.push(Arc::from(name.as_str()));
            }
            out.notes.push(format!(
                "read inventory {name} ({}): {} records, {} tagged for a crossplane MR{}",
                inv.formats.join(", "),
                inv.records,
                inv.tagged(),
                if inv.without_id > 0 {
                    format!(", {} without a cloud ID (skipped)", inv.without_id)
                } else {
                    String::new()
                }
            ));
            out.objects.extend(inv.objects);
        }
        Ok(out)
    })
    .await
    .map_err(|e| upjet_core::error::Error::failed(format!("inventory reader stopped: {e}")))?
}
