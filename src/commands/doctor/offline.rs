//! doctor over a snapshot (`--from`): no cluster, no discovery.

use super::*;

/// The MRs a snapshot holds decide what its inventory is checked against: every kind when the
/// whole snapshot was read, only the `--kind`s asked for otherwise.
pub(super) fn snapshot_scope(args: &DoctorArgs, mrs: &[ManagedResource]) -> Scope {
    let kinds = mrs.iter().map(|m| normalize_kind(&format!("{}.{}", m.kind, m.group()))).collect();
    Scope { kinds, all_kinds: args.kinds.is_empty(), complete: true }
}

pub(super) async fn from_snapshot(path: &std::path::Path, args: &DoctorArgs, now: GoTime) -> anyhow::Result<Report> {
    let items = snapshot::read(path)?;
    let (objects, inventory_notes) = read_inventories(&args.inventory).await?;
    let gathered = gather(None, false, &args.log_files, &args.log_opts, Retention::Compact).await?;
    let notes = [gathered.notes.clone(), inventory_notes].concat();
    let analyzer = index(gathered, &[], &Default::default());
    let mut builder = ReportBuilder::new(filter(args));
    let mut kinds = std::collections::BTreeSet::new();
    let mut mrs = Vec::new();
    for item in items {
        match ManagedResource::from_json(&item.json) {
            Ok(mr) if args.kinds.is_empty() || args.kinds.iter().any(|k| snapshot_kind_matches(&mr, k)) => mrs.push(mr),
            Ok(_) => {}
            Err(e) => builder.unreadable(format!("{}: {e}", item.source.display())),
        }
    }
    if !args.inventory.is_empty() {
        cross_check(&analyzer, &objects, &mrs.iter().collect::<Vec<_>>(), &snapshot_scope(args, &mrs));
    }
    let (mut peers, mut kept) = (Peers::default(), Vec::new());
    for mr in mrs {
        kinds.insert((mr.group().to_string(), mr.kind.clone()));
        builder.scanned(1);
        peers.observe(&mr);
        let findings = analyzer.findings(&mr, now);
        if !findings.is_empty() {
            kept.push((mr, findings));
        }
    }
    // Second pass: the identity formats are learned across the whole fleet before any is applied.
    peers.learn();
    for (mr, mut findings) in kept {
        identity::fill(&mut findings, &mr, &peers, &args.id_templates);
        builder.add(&mr, findings, || analyzer.state(&mr));
    }
    for _ in &kinds {
        builder.kind_scanned();
    }
    Ok(finish(builder, &analyzer, notes))
}

/// Offline there is no discovery: a kind matches by `Kind`, `kind.group`, or a plural that is the
/// kind with an `s`/`es` suffix.
pub(super) fn snapshot_kind_matches(mr: &ManagedResource, spec: &str) -> bool {
    let (name, group) = spec.split_once('.').map(|(n, g)| (n, Some(g))).unwrap_or((spec, None));
    let kind = mr.kind.to_lowercase();
    let name = name.to_lowercase();
    let name_ok = name == kind || name == format!("{kind}s") || name == format!("{kind}es");
    name_ok && group.is_none_or(|g| g.eq_ignore_ascii_case(mr.group()))
}

pub(super) fn find_in_snapshot(
    path: &std::path::Path,
    spec: &TargetSpec,
    ns: Option<&str>,
) -> anyhow::Result<ManagedResource> {
    let (kind_spec, name) = (spec.kind.as_str(), spec.name.as_str());
    let found: Vec<ManagedResource> = snapshot::read(path)?
        .into_iter()
        .filter_map(|i| ManagedResource::from_json(&i.json).ok())
        .filter(|mr| mr.name == name && snapshot_kind_matches(mr, kind_spec))
        .filter(|mr| ns.is_none_or(|n| mr.namespace.as_deref() == Some(n)))
        .collect();
    match found.len() {
        0 => Err(Error::usage(format!("{kind_spec}/{name} is not in {}", path.display())).into()),
        1 => Ok(found.into_iter().next().expect("one")),
        _ => Err(Error::usage(format!(
            "{kind_spec}/{name} matches {} objects in {}: add the group (kind.group/name) or -n",
            found.len(),
            path.display()
        ))
        .into()),
    }
}
