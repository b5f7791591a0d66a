//! One MR in depth (`doctor KIND/NAME`), and finding one MR for `history`.

use super::*;

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

pub(super) async fn one(
    settings: &Settings,
    args: &DoctorArgs,
    target: &str,
    out: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let (mr, live) = locate(settings, args.from.first().map(std::path::PathBuf::as_path), target).await?;
    if let Some(path) = args.from.first().filter(|p| backup::is_backup(p)) {
        return in_backup(settings, args, path, mr, out).await;
    }
    let analyzer = match &live {
        Some((conn, kind)) => {
            let mut analyzer = analyzer_for(conn, args, std::slice::from_ref(kind)).await?.0;
            if let Some(acks) = acknowledges_requests(conn, kind, &mr).await {
                analyzer.acknowledges_requests.insert((mr.group().to_string(), mr.kind.clone()), acks);
            }
            analyzer
        }
        None => {
            let gathered = gather(None, false, &args.log_files, &args.log_opts, Retention::Compact).await?;
            let mut analyzer = index(gathered, &[], &Default::default());
            analyzer.audit = read_audit_logs(&args.audit_logs, Groups::of([mr.group().to_string()])).await?;
            analyzer
        }
    };
    let from = args.from.first().map(std::path::PathBuf::as_path);
    if let Some((check, notes)) =
        cloud_audit::for_one(settings, &args.cloud, &mr, from, live.as_ref().map(|(_, k)| k)).await?
    {
        let _ = analyzer.cloud_audit.set(check);
        for n in notes {
            eprintln!("{}", crate::output::style::sanitize(&n));
        }
    }
    let mut findings = analyzer.findings(&mr, settings.now);
    one_identity(&mut findings, &mr, args)?;
    show(settings, args, &mr, findings, &analyzer, out)
}

/// One MR of a Velero backup: judged with the whole backup (its peers teach the kind's identity)
/// as a restore would leave it, so the restore verdict is among its findings.
async fn in_backup(
    settings: &Settings,
    args: &DoctorArgs,
    path: &std::path::Path,
    mr: ManagedResource,
    out: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let judged = backup::judge(settings, path, super::offline::backup_inputs(args).await?, |_| true).await?;
    for n in &judged.notes {
        eprintln!("{}", crate::output::style::sanitize(n));
    }
    let same = |m: &ManagedResource| m.uid == mr.uid && m.name == mr.name && m.kind == mr.kind;
    let findings = judged.judged.into_iter().find(|j| same(&j.item.mr)).map(|j| j.findings).unwrap_or_default();
    show(settings, args, &mr, findings, &judged.analyzer, out)
}

/// Prints one MR's findings (those the filter keeps) and returns the exit code they make.
fn show(
    settings: &Settings,
    args: &DoctorArgs,
    mr: &ManagedResource,
    findings: Vec<Finding>,
    analyzer: &EvidenceIndex,
    out: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let findings: Vec<Finding> = findings.into_iter().filter(|f| filter(args).keeps(f)).collect();
    match args.format() {
        OutputFormat::Json | OutputFormat::Yaml => {
            let mut b = ReportBuilder::new(filter(args));
            b.scanned(1);
            b.kind_scanned();
            b.add(mr, findings.clone(), || analyzer.state(mr));
            let report = b.finish();
            if args.format() == OutputFormat::Json {
                structured::write_json(out, &report)?;
            } else {
                structured::write_yaml(out, &report)?;
            }
        }
        _ => detail::write_detail(out, mr, &findings, settings.now)?,
    }
    Ok(exit_code(args.fail_on, findings.iter().map(|f| f.severity).max(), false, args.fail_on_incomplete))
}

/// One MR's predicted ID: from its peers in the snapshot with --from, else only from a user
/// template (a live one-MR run does not list the whole kind).
pub(super) fn one_identity(findings: &mut [Finding], mr: &ManagedResource, args: &DoctorArgs) -> anyhow::Result<()> {
    let mut peers = Peers::default();
    match args.from.first() {
        Some(path) => {
            // locate() already said which files of the folder were skipped.
            for peer in backup::managed_resources(path)?.0 {
                if peer.kind == mr.kind && peer.group() == mr.group() {
                    peers.observe(&peer);
                }
            }
        }
        None if !args.id_templates.iter().any(|u| u.matches(&mr.kind, mr.group())) => return Ok(()),
        None => {}
    }
    peers.learn();
    identity::fill(findings, mr, &peers, &args.id_templates);
    Ok(())
}
