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

/// `doctor KIND/NAME`: one MR in depth, judged with the same evidence and rule book as a fleet,
/// its peers (the snapshot, or its kind in the cluster) standing in for the fleet.
pub(super) async fn one(
    settings: &Settings,
    args: &DoctorArgs,
    target: &str,
    from: Option<&std::path::Path>,
    out: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let (mr, live) = locate(settings, from, target).await?;
    if let Some(path) = from.filter(|p| backup::is_backup(p)) {
        return in_backup(settings, args, path, mr, out).await;
    }
    let (evidence, _) = match &live {
        Some((conn, kind)) => {
            let mut acks = HashMap::new();
            if let Some(acks_requests) = acknowledges_requests(conn, kind, &mr).await {
                acks.insert((mr.group().to_string(), mr.kind.clone()), acks_requests);
            }
            let journal =
                crate::commands::journal::locate(settings, args.journal.journal.as_deref(), conn.context.as_deref());
            live_evidence(conn, args, std::slice::from_ref(kind), acks, journal).await?
        }
        None => {
            let groups = Groups::of([mr.group().to_string()]);
            let mut request = EvidenceRequest::files(&args.log_files, &args.log_opts, &args.audit_logs, groups);
            request.journal = crate::commands::journal::locate(settings, args.journal.journal.as_deref(), None);
            request.read().await?
        }
    };
    let fleet = match cloud_audit::for_one(&args.cloud, &mr, from, live.as_ref().map(|(c, k)| (c, k))).await? {
        Some((check, notes)) => {
            for n in notes {
                eprintln!("{}", crate::output::style::sanitize(&n));
            }
            FleetFacts::of_cloud_audit(check)
        }
        None => FleetFacts::default(),
    };
    let mut findings = evidence.findings(&mr, &fleet, settings.judged_at());
    one_identity(&mut findings, &mr, args)?;
    show(settings, args, &mr, findings, &evidence, out)
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
    let judged = backup::judge(
        settings,
        path,
        super::offline::backup_inputs(settings, args, args.source_context.as_deref()).await?,
        |_| true,
    )
    .await?;
    for n in &judged.notes {
        eprintln!("{}", crate::output::style::sanitize(n));
    }
    let same = |m: &ManagedResource| m.uid == mr.uid && m.name == mr.name && m.kind == mr.kind;
    let findings = judged.judged.into_iter().find(|j| same(&j.item.mr)).map(|j| j.findings).unwrap_or_default();
    show(settings, args, &mr, findings, &judged.evidence, out)
}

/// Prints one MR's findings (those the filter keeps) and returns the exit code they make.
fn show(
    settings: &Settings,
    args: &DoctorArgs,
    mr: &ManagedResource,
    findings: Vec<Finding>,
    evidence: &EvidenceIndex,
    out: &mut dyn Write,
) -> anyhow::Result<Exit> {
    let findings: Vec<Finding> = findings.into_iter().filter(|f| filter(args).keeps(f)).collect();
    match args.format() {
        OutputFormat::Json
        | OutputFormat::Yaml
        | OutputFormat::Form
        | OutputFormat::Sarif
        | OutputFormat::Junit
        | OutputFormat::Html => {
            let mut b = ReportBuilder::new(filter(args));
            b.scanned(1);
            b.kind_scanned();
            b.add(mr, findings.clone(), || evidence.state(mr));
            let report = b.finish();
            if let Some(spec) = args.form() {
                crate::commands::forms::print_report(out, spec, &report, args.no_headers)?;
            } else if args.format() == OutputFormat::Sarif {
                crate::output::sarif::write_sarif(out, &report)?;
            } else if args.format() == OutputFormat::Junit {
                crate::output::junit::write_junit(out, &report)?;
            } else if args.format() == OutputFormat::Html {
                crate::output::html::doctor::write_doctor(out, &report)?;
            } else if args.format() == OutputFormat::Json {
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
