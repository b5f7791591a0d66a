//! One MR in depth (`doctor KIND/NAME`), and finding one MR for `history`.

use super::*;
use crate::commands::resolve::OneMr;
use upjet_core::composition::{Composition, Member};

/// Finds one MR (snapshot or cluster), with the connection and kind it was resolved to when live.
pub async fn locate(
    settings: &Settings,
    from: Option<&std::path::Path>,
    target: &str,
) -> anyhow::Result<(ManagedResource, Option<(Connection, ApiKind)>)> {
    let spec = TargetSpec::parse(target)?;
    match from {
        Some(path) => Ok((find_in_snapshot(path, &spec, settings.namespace_flag.as_deref())?, None)),
        None => {
            let conn = connect::connect(&settings.connect).await?;
            let target = target::resolve_target(&conn, &spec, settings.namespace_flag.as_deref()).await?;
            let obj = target::get(&conn, &target).await?;
            let mr = ManagedResource::from_value(&obj).map_err(|e| {
                Error::failed(format!("{} is not a readable managed resource", target.display())).because(e)
            })?;
            Ok((mr, Some((conn, target.kind))))
        }
    }
}

/// `doctor KIND/NAME`: one MR in depth, judged with the same evidence and rule book as a fleet,
/// its peers (the snapshot, or its kind in the cluster) standing in for the fleet.
pub(super) async fn one(
    settings: &Settings,
    doctor: &Doctor,
    printer: &Printer,
    asked: &OneMr,
    out: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let from = asked.from.as_deref();
    let (mr, live) = locate(settings, from, &asked.target).await?;
    let (evidence, _) = match &live {
        Some((conn, kind)) => {
            let mut acks = HashMap::new();
            if let Some(acks_requests) = acknowledges_requests(conn, kind, &mr).await {
                acks.insert((mr.group().to_string(), mr.kind.clone()), acks_requests);
            }
            doctor.evidence.read_live(settings, conn, std::slice::from_ref(kind), acks).await?
        }
        None => {
            let groups = Groups::of([mr.group().to_string()]);
            doctor.evidence.request(settings, None, groups).read().await?.into_index()
        }
    };
    let fleet = match cloud_audit::for_one(&doctor.fleet.cloud, &mr, from, live.as_ref().map(|(c, k)| (c, k))).await? {
        Some((check, notes)) => {
            for n in notes {
                eprintln!("{}", upjet_output::style::sanitize(&n));
            }
            FleetFacts::of_cloud_audit(check)
        }
        None => FleetFacts::default(),
    };
    let snapshot = match from {
        Some(path) if live.is_none() && !backup::is_backup(path) => Some(crate::commands::inputs::read_snapshot(path)?),
        _ => None,
    };
    let removals = match (&live, &snapshot) {
        (Some((conn, kind)), _) => crate::commands::kind_removal::for_one(conn, kind, &mr).await,
        (None, Some(snap)) => snap.removals.clone(),
        (None, None) => Default::default(),
    };
    let tree = one_tree(&mr, &evidence, live.as_ref().map(|(c, _)| c), snapshot).await;
    let fleet = fleet.with_removals(removals).with_composition(Arc::new(tree));
    let mut findings = evidence.findings(&mr, &fleet, doctor.at);
    one_identity(&mut findings, &mr, from, &doctor.id_templates)?;
    print::one_mr(settings, doctor, printer, &mr, findings, &evidence, out)
}

/// The composition tree one composed MR is judged with: the XRs and claims (listed live, or the
/// snapshot's) and the ID journal, with the snapshot's composed MRs beside it. Live, it stands
/// alone: a duplicate or an earlier MR elsewhere in the fleet is seen by a scan, not here.
async fn one_tree(
    mr: &ManagedResource,
    evidence: &EvidenceIndex,
    conn: Option<&Connection>,
    snapshot: Option<crate::commands::inputs::Snapshot>,
) -> Composition {
    if mr.composed.is_none() {
        return Composition::default();
    }
    let journal: Vec<_> = evidence.journal().into_iter().flat_map(|j| j.records()).cloned().collect();
    let (index, members) = match (conn, snapshot) {
        (Some(conn), _) => {
            let (index, notes) = crate::commands::composition::read_live(conn).await;
            for n in notes {
                eprintln!("{}", upjet_output::style::sanitize(&n));
            }
            (index, Member::of(mr).into_iter().collect())
        }
        (None, Some(snap)) => {
            let mrs = snap.items.iter().filter_map(|i| ManagedResource::from_json(&i.json).ok());
            (snap.tree, mrs.filter(|m| m.composed.is_some()).filter_map(|m| Member::of(&m)).collect())
        }
        (None, None) => return Composition::default(),
    };
    Composition::of_run(index, members, &journal, Vec::new())
}

/// One MR of a Velero backup (`doctor KIND/NAME --from BACKUP`): judged with the whole backup
/// (its peers teach the kind's identity) as a restore would leave it, so the restore verdict is
/// among its findings.
pub(super) async fn in_backup(
    settings: &Settings,
    doctor: &Doctor,
    printer: &Printer,
    asked: &OneMr,
    path: &std::path::Path,
    out: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let (mr, _) = locate(settings, Some(path), &asked.target).await?;
    let inputs = super::offline::backup_inputs(doctor, asked.source_context.as_deref()).await?;
    let judged = backup::judge(settings, path, inputs, |_| true).await?;
    for n in &judged.notes {
        eprintln!("{}", upjet_output::style::sanitize(n));
    }
    let same = |m: &ManagedResource| m.uid == mr.uid && m.name == mr.name && m.kind == mr.kind;
    let findings = judged.judged.into_iter().find(|j| same(&j.item.mr)).map(|j| j.findings).unwrap_or_default();
    print::one_mr(settings, doctor, printer, &mr, findings, &judged.evidence, out)
}

/// One MR's predicted ID: from its peers in the snapshot `from`, else only from a user template
/// (a live one-MR run does not list the whole kind).
pub(super) fn one_identity(
    findings: &mut [Finding],
    mr: &ManagedResource,
    from: Option<&std::path::Path>,
    templates: &[UserTemplate],
) -> anyhow::Result<()> {
    let mut peers = Peers::default();
    match from {
        Some(path) => {
            // locate() already said which files of the folder were skipped.
            for peer in backup::managed_resources(path)?.0 {
                if peer.kind == mr.kind && peer.group() == mr.group() {
                    peers.observe(&peer);
                }
            }
        }
        None if !templates.iter().any(|u| u.matches(&mr.kind, mr.group())) => return Ok(()),
        None => {}
    }
    peers.learn();
    identity::fill(findings, mr, &peers, templates);
    Ok(())
}
