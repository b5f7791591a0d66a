//! `guard lock`: every MR's identity (doctor's scan, each MR reduced to its lock entry as it
//! arrives) and, for the MRs gone since, the newest external-name the ID journal holds, merged
//! into the lock's shards by conditional writes. `guard unlock KIND/NAME`: one entry removed.
//! Both need the lock's CRD, which `guard` prints: without it they stop before reading anything
//! else, naming the command that installs it.

use super::kinds::scan;
use super::writer::LockWriter;
use crate::commands::journal;
use crate::commands::rbac::served_kinds_on;
use crate::commands::resolve::{GuardLock, GuardUnlock};
use crate::settings::Settings;
use std::collections::BTreeMap;
use std::io::Write;
use std::sync::Arc;
use upjet_cluster::connect::{self, Connection};
use upjet_cluster::discover;
use upjet_cluster::kinds::ApiKind;
use upjet_cluster::write::{self, Target};
use upjet_core::error::{Error, Exit};
use upjet_core::guard::lock::entries;
use upjet_core::guard::lock::key::LockKey;
use upjet_core::guard::lock::merge::{Change, unlock as unlocking};
use upjet_output::style;

fn say(notes: impl IntoIterator<Item = String>) {
    for note in notes {
        eprintln!("{}", style::sanitize(&note));
    }
}

/// Writes the lock from every MR of the kinds asked for and the ID journal; exit 4 when a kind
/// could not be listed whole (what was read is locked).
pub(super) async fn lock(settings: &Settings, asked: &GuardLock, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let conn = Arc::new(connect::connect(&settings.connect).await?);
    let mut writer = LockWriter::default();
    say(writer.read(&conn).await.map_err(Error::from)?.1);
    let at = journal::locate(settings, asked.journal.as_deref(), conn.context.as_deref());
    let (records, notes) = journal::records(at.as_ref())?;
    say(notes);
    let selected = served_kinds_on(&conn, &asked.kinds).await?;
    let (results, skipped) = scan(&conn, selected, &asked.lists, |mr| entries::held(&mr)).await;
    let listed: usize = results.iter().map(|r| r.decoded).sum();
    let live: BTreeMap<LockKey, String> = results.into_iter().flat_map(|r| r.kept).collect();
    let from_mrs = live.len();
    let change = Change { add: entries::with_journal(live, &records), ..Change::default() };
    let from_journal = change.add.len() - from_mrs;
    let written = writer.apply(&conn, &change).await.map_err(Error::from)?;
    say(written.notes);
    for (key, why) in &written.rejected {
        eprintln!("not locked: {}: {}", style::sanitize(&key.to_string()), style::sanitize(why));
    }
    let (shards, held) = writer.held();
    writeln!(
        out,
        "the lock holds {held} IDs in {shards} shards: {from_mrs} of the {listed} MRs listed hold one, {from_journal} more from the ID journal; {} shards written{}",
        written.writes,
        match written.rereads {
            0 => String::new(),
            n => format!(" ({n} read again after another writer)"),
        }
    )?;
    if skipped.is_empty() {
        return Ok(Exit::Ok);
    }
    say(skipped.into_iter().map(|s| format!("not listed whole, its MRs may be missing from the lock: {s}")));
    Ok(Exit::Incomplete)
}

/// Whether a lock entry is the one `asked` names: its name, its namespace (none given: any), and
/// its kind as typed — `Kind` or `Kind.group`, or any name discovery knows the kind by
/// (`served`: plural, short names), so an entry of a kind no longer served can be removed too.
fn names(asked: &GuardUnlock, key: &LockKey, served: &[ApiKind]) -> bool {
    let spec = asked.kind.as_str();
    let namespace = match (&asked.namespace, &key.namespace) {
        (Some(asked), Some(held)) => asked == held,
        _ => true,
    };
    let kind = spec.eq_ignore_ascii_case(&key.kind)
        || spec.eq_ignore_ascii_case(&format!("{}.{}", key.kind, key.group))
        || served.iter().any(|k| k.group == key.group && k.kind == key.kind && k.matches(spec));
    key.name == asked.name && namespace && kind
}

/// Removes the one entry `asked` names. Exit 2, nothing changed, when the lock holds none (a
/// typo must not pass for done) or several (name one with KIND.GROUP and -n).
pub(super) async fn unlock(settings: &Settings, asked: &GuardUnlock, out: &mut dyn Write) -> anyhow::Result<Exit> {
    let conn = connect::connect(&settings.connect).await?;
    let mut writer = LockWriter::default();
    let (shards, notes) = writer.read(&conn).await.map_err(Error::from)?;
    say(notes);
    let served = discover::discover_managed(&conn, 8).await.map(|(k, _)| k).unwrap_or_default();
    let held: Vec<(LockKey, String)> =
        shards.iter().flat_map(|s| s.decoded()).filter_map(|(k, id)| Some((k.ok()?, id.to_string()))).collect();
    let total = held.len();
    let mut found: Vec<(LockKey, String)> = held.into_iter().filter(|(k, _)| names(asked, k, &served)).collect();
    found.sort();
    found.dedup_by(|a, b| a.0 == b.0);
    let typed = format!(
        "{}/{}{}",
        asked.kind,
        asked.name,
        asked.namespace.as_deref().map(|n| format!(" -n {n}")).unwrap_or_default()
    );
    let (key, id) = match found.as_slice() {
        [one] => one.clone(),
        [] => {
            let why = format!("{typed} is not locked (the lock holds {total} entries)");
            return Err(Error::usage(style::sanitize(&why)).nothing_changed().into());
        }
        many => {
            let list: Vec<String> = many.iter().map(|(k, _)| k.to_string()).collect();
            let why =
                format!("{typed} names {} entries ({}): name one with KIND.GROUP and -n", many.len(), list.join("; "));
            return Err(Error::usage(style::sanitize(&why)).nothing_changed().into());
        }
    };
    writer.apply(&conn, &unlocking(key.clone())).await.map_err(Error::from)?;
    writeln!(out, "unlocked {} (its ID was {})", style::sanitize(&key.to_string()), style::sanitize(&id))?;
    still_there(&conn, &served, &key).await;
    Ok(Exit::Ok)
}

/// Says so when the MR of an entry just removed still exists: `guard lock` and
/// `watch --guard-lock` record its ID again while it holds one.
async fn still_there(conn: &Connection, served: &[ApiKind], key: &LockKey) {
    let Some(kind) = served.iter().find(|k| k.group == key.group && k.kind == key.kind) else { return };
    let target = Target::new(kind.clone(), key.namespace.as_deref(), &key.name);
    if write::read(conn, &target).await.is_ok() {
        eprintln!(
            "{} still exists: while it holds an ID, `guard lock` and `watch --guard-lock` record it again",
            style::sanitize(&target.display())
        );
    }
}
