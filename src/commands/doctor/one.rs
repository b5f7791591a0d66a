//! One MR in depth (`doctor KIND/NAME`), and finding one MR for `history`.

use super::*;
use crate::commands::resolve::OneMr;

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
    let removals = match (&live, from) {
        (Some((conn, kind)), _) => crate::commands::kind_removal::for_one(conn, kind, &mr).await,
        (None, Some(path)) if !backup::is_backup(path) => crate::commands::inputs::read_snapshot(path)?.removals,
        (None, _) => Default::default(),
    };
    let fleet = fleet.with_removals(removals);
    let mut findings = evidence.findings(&mr, &fleet, doctor.at);
    one_identity(&mut findings, &mr, from, &doctor.id_templates)?;
    print::one_mr(settings, doctor, printer, &mr, findings, &evidence, out)
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
