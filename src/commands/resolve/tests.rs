//! The refusals and resolutions of every command but doctor's flows (`doctor_tests.rs`), row by
//! row: the flags as typed, and what resolution must decide. Resolution never touches the disk:
//! what a path is on disk is said by the row.

use super::*;
use crate::cli::Cli;
use clap::Parser;
use std::time::Duration;
use upjet_cluster::kinds::KindSelection;

fn command(words: &[&str]) -> Command {
    Cli::try_parse_from(["kubectl-upjet"].iter().chain(words)).expect("the row's flags parse").command
}

#[test]
fn refusals_read_as_usage_errors_naming_what_to_do() {
    let e: upjet_core::error::Error = Refusal::SourceContextNotABackup("fleet.json".into()).into();
    assert_eq!(crate::commands::exit::exit_for(&e.into()), upjet_core::error::Exit::Usage);
    assert_eq!(
        Refusal::SourceContextNotABackup("fleet.json".into()).to_string(),
        "--source-context compares a Velero backup with its source cluster; fleet.json is not a backup"
    );
    assert_eq!(
        Refusal::SeveralClusters("history").to_string(),
        "history acts on one cluster: give at most one --context (several clusters and --all-contexts are for doctor)"
    );
}

#[test]
fn only_doctor_and_watch_take_several_clusters() {
    for (words, refused) in [
        (&["history", "vpc/main"][..], Some("history")),
        (&["rbac"][..], Some("rbac")),
        (&["doctor"][..], None),
        (&["watch"][..], None),
        (&["restore-plan", "b.tar.gz", "--modifiers", "m.yaml", "--plan", "p.json"][..], Some("restore-plan")),
        (&["completion", "bash"][..], Some("completion")),
    ] {
        assert_eq!(one_cluster_only(&command(words), true).err(), refused.map(Refusal::SeveralClusters), "{words:?}");
        assert_eq!(one_cluster_only(&command(words), false), Ok(()), "{words:?} with one context");
    }
}

fn settings(words: &[&str]) -> crate::settings::Settings {
    let cli = Cli::try_parse_from(["kubectl-upjet"].iter().chain(words)).expect("the row's flags parse");
    let env = crate::settings::Environment::default();
    crate::settings::Settings::resolve(&cli, &env, std::time::UNIX_EPOCH, Default::default())
}

#[test]
fn adopt_refuses_a_plan_with_the_cloud_record() {
    let adopt = |words: &[&str]| match command(&[&["adopt"], words].concat()) {
        Command::Adopt(args) => {
            Adopt::resolve(&args, &settings(&["adopt", "vpc/main"])).map(|a| (a.what, a.id, a.parallel.slots))
        }
        other => panic!("not adopt: {other:?}"),
    };
    let one = |t: &str| AdoptWhat::One(t.into());
    assert_eq!(adopt(&["vpc/main", "--id", "vpc-1"]), Ok((one("vpc/main"), Some("vpc-1".into()), 4)));
    assert_eq!(adopt(&["vpc/main", "--cloud-audit", "trail.json"]), Ok((one("vpc/main"), None, 4)));
    assert_eq!(adopt(&["-f", "plan.json", "--parallel", "8"]), Ok((AdoptWhat::Plan("plan.json".into()), None, 8)));
    assert_eq!(adopt(&["-f", "plan.json", "--cloud-audit", "trail.json"]), Err(Refusal::CloudAuditWithPlan));
    let Command::Adopt(mut args) = command(&["adopt", "vpc/main"]) else { unreachable!("adopt") };
    args.target = None;
    let refused = Adopt::resolve(&args, &settings(&["adopt", "vpc/main"])).err();
    assert_eq!(refused, Some(Refusal::NothingToAdopt), "clap requires one; resolution says so too");
}

/// `migrate plan`'s refusals, each alone and two at once (the first in the fixed order wins).
#[test]
fn migrate_plan_refuses_what_it_cannot_plan_before_anything_is_read() {
    use upjet_core::migrate::NamespaceRule;
    let plan = |words: &[&str], exists: bool| {
        let words = [&["migrate", "plan", "-o", "plan.json"], words].concat();
        let Command::Migrate(m) = command(&words) else { unreachable!("migrate") };
        let crate::cli::migrate::MigrateCommand::Plan(args) = m.command else { unreachable!("plan") };
        MigratePlan::resolve(&args, &settings(&words), |p| exists && p == std::path::Path::new("plan.json"))
    };
    let ok = plan(&["--all", "--namespace-from", "label=team", "-l", "env=prod, tier = db"], false).expect("planned");
    assert_eq!(ok.namespace, NamespaceRule::Label("team".into()));
    assert_eq!(ok.labels, [("env".into(), "prod".into()), ("tier".into(), "db".into())]);
    assert_eq!(ok.selector.as_deref(), Some("env=prod, tier = db"));
    let named = plan(&["vpc/main", "--to-namespace", "infra", "--force"], true).expect("--force overwrites");
    assert_eq!((named.targets, named.namespace), (vec!["vpc/main".to_string()], NamespaceRule::To("infra".into())));
    for (words, exists, want) in [
        (&["--all"][..], false, Refusal::NoTargetNamespace),
        (&["--to-namespace", "infra"][..], false, Refusal::NoLegacyMrs),
        (&["--all", "--to-namespace", "infra"][..], true, Refusal::PlanFileExists("plan.json".into())),
        (
            &["-l", "env in (prod)", "--to-namespace", "infra"][..],
            false,
            Refusal::SelectorNotEquality("env in (prod)".into()),
        ),
        (&[][..], true, Refusal::NoTargetNamespace),
        (&["--to-namespace", "infra"][..], true, Refusal::NoLegacyMrs),
        (&["-l", "env!=prod", "--to-namespace", "infra"][..], true, Refusal::PlanFileExists("plan.json".into())),
    ] {
        assert_eq!(plan(words, exists).err(), Some(want), "{words:?} plan file exists: {exists}");
    }
    assert_eq!(
        Refusal::SelectorNotEquality("env in (prod)".into()).to_string(),
        "-l \"env in (prod)\": migrate plan reads key=value selectors only"
    );
}

/// restore-plan's refusals of its outputs and its backup, in their fixed order; only an output
/// that exists says nothing changed.
#[test]
fn restore_plan_refuses_its_outputs_and_a_backup_that_is_none() {
    let staged = |words: &[&str], exists: &[&str], backup: bool| {
        let words = [&["restore-plan"], words].concat();
        let Command::RestorePlan(args) = command(&words) else { unreachable!("restore-plan") };
        let exists = |p: &std::path::Path| exists.iter().any(|e| p == std::path::Path::new(e));
        RestorePlan::resolve(&args, &settings(&words), exists, |_| backup)
    };
    let out = ["b.tar.gz", "--modifiers", "m.yaml", "--plan", "p.json"];
    let ok = staged(&[&out[..], &["--journal", "j/", "--inventory", "inv.json"]].concat(), &[], true).expect("staged");
    assert_eq!((ok.evidence.journal, ok.fleet.inventory), (Some("j/".into()), vec!["inv.json".into()]));
    assert!(ok.evidence.log_files.is_empty() && !ok.evidence.provider_logs, "a backup is read without logs");
    assert!(staged(&[&out[..], &["--force"]].concat(), &["m.yaml", "p.json"], true).is_ok(), "--force overwrites");
    for (words, exists, backup, want) in [
        (&["b", "--modifiers", "x", "--plan", "x"][..], &[][..], true, Refusal::SameOutputs),
        (&["b", "--modifiers", "b", "--plan", "p"][..], &[][..], true, Refusal::OutputIsBackup("b".into())),
        (&out[..], &["p.json"][..], true, Refusal::OutputExists("p.json".into())),
        (&out[..], &[][..], false, Refusal::NotABackup("b.tar.gz".into())),
        (&["b", "--modifiers", "m", "--plan", "b"][..], &["m"][..], false, Refusal::OutputExists("m".into())),
    ] {
        assert_eq!(staged(words, exists, backup).err(), Some(want), "{words:?} exists: {exists:?}");
    }
    let said = |r: Refusal| crate::commands::exit::one_line(&upjet_core::error::Error::from(r).into());
    assert_eq!(
        said(Refusal::OutputExists("p.json".into())),
        "p.json exists; pass --force to overwrite it; nothing changed"
    );
    assert_eq!(said(Refusal::PlanFileExists("p.json".into())), "p.json exists; pass --force to overwrite it");
}

#[test]
fn history_resolves_its_evidence_and_its_output() {
    let history = |words: &[&str]| {
        let words = [&["history", "vpc/main"], words].concat();
        let Command::History(args) = command(&words) else { unreachable!("history") };
        History::resolve(&args, &settings(&words))
    };
    let plain = history(&[]);
    assert_eq!(plain.output, HistoryOutput::Text);
    assert!(plain.evidence.provider_logs, "a live history reads the provider pods' logs");
    let offline =
        history(&["--no-logs", "--from", "fleet.json", "--log-file", "p.log", "-o", "json", "--since", "90s"]);
    assert!(!offline.evidence.provider_logs);
    assert_eq!((offline.from, offline.evidence.log_files), (Some("fleet.json".into()), vec!["p.log".into()]));
    assert_eq!(offline.evidence.logs.limits.since_seconds, Some(90));
    assert_eq!(offline.output, HistoryOutput::Json);
    let form = history(&["-o", "jsonpath={.timeline}"]).output;
    assert_eq!(form, HistoryOutput::Form(crate::cli::output::FormSpec::JsonPath("{.timeline}".into())));
    assert_eq!(history(&["-o", "html"]).output, HistoryOutput::Html);
    let fleet = history(&["--inventory", "inv.json", "--cloud-audit", "trail.json"]).fleet;
    assert_eq!((fleet.inventory, fleet.cloud.files), (vec!["inv.json".into()], vec!["trail.json".into()]));
}

/// promote and migrate apply resolve the flags they share the same way.
#[test]
fn the_apply_flags_resolve_alike_for_promote_and_migrate_apply() {
    let flags = ["-f", "p.json", "--dry-run", "--parallel", "16", "--timeout", "90s", "--backup-dir", "b/"];
    let want = Apply {
        plan: "p.json".into(),
        dry_run: true,
        yes: false,
        parallel: 16,
        timeout: Duration::from_secs(90),
        backup_dir: Some("b/".into()),
    };
    let Command::Promote(p) = command(&[&["promote", "--source-released"], &flags[..]].concat()) else {
        unreachable!("promote")
    };
    assert_eq!(Promote::resolve(&p), Promote { apply: want.clone(), source_released: true });
    let Command::Migrate(m) = command(&[&["migrate", "apply", "--keep-legacy"], &flags[..]].concat()) else {
        unreachable!("migrate")
    };
    let crate::cli::migrate::MigrateCommand::Apply(a) = m.command else { unreachable!("apply") };
    assert_eq!(MigrateApply::resolve(&a), MigrateApply { apply: want, keep_legacy: true, observe_only: false });
}

#[test]
fn rbac_and_health_resolve_the_kinds_and_the_format() {
    let Command::Rbac(r) = command(&["rbac", "--provider", "aws.upbound.io", "-o", "json"]) else { unreachable!() };
    let kinds = KindSelection { kinds: vec![], providers: vec!["aws.upbound.io".into()] };
    assert_eq!(Rbac::resolve(&r), Rbac { kinds: kinds.clone(), format: crate::cli::rbac::RbacFormat::Json });
    let words = ["health", "argocd", "--group", "*.ovh.edixos.io", "--create-timeout", "5m"];
    let Command::Health(h) = command(&words) else { unreachable!() };
    let Health::Argocd { groups, timeout, .. } = Health::resolve(&h) else { panic!("argocd") };
    assert_eq!((groups, timeout.secs()), (vec!["*.ovh.edixos.io".to_string()], 300));
    let words = ["health", "flux", "--provider", "aws.upbound.io"];
    let Command::Health(h) = command(&words) else { unreachable!() };
    let Health::Flux { kinds: got, .. } = Health::resolve(&h) else { panic!("flux") };
    assert_eq!(got, kinds);
}

/// `guard`: each rule's action, who is never refused, where the kinds come from, the lock and
/// the one entry unlock names; its refusals.
#[test]
fn guard_resolves_what_it_prints_writes_or_removes() {
    use upjet_core::guard::rule::{Action, GuardRule};
    let guard = |words: &[&str]| {
        let words = [&["guard"], words].concat();
        let Command::Guard(args) = command(&words) else { unreachable!("guard") };
        Guard::resolve(&args, &settings(&words))
    };
    let words = ["--warn", "identity-kept", "--deny", "placeholder", "--allow-group", "ops:break-glass", "--mutate"];
    let Ok(Guard::Print(p)) = guard(&[&words[..], &["-o", "json", "--kind", "vpc", "-n", "team-a"]].concat()) else {
        panic!("printed")
    };
    let s = &p.settings;
    assert_eq!((s.action(GuardRule::IdentityKept), s.action(GuardRule::Placeholder)), (Action::Warn, Action::Deny));
    assert_eq!(s.action(GuardRule::IdentityLocked), Action::Deny, "a rule not named keeps its default");
    assert!(s.mutate && !s.audit && s.groups.contains("ops:break-glass") && s.users.is_empty());
    assert!(!s.authorize_declarations, "anyone who may write may declare unless asked");
    let Ok(Guard::Print(authorized)) = guard(&["--authorize-declarations"]) else { panic!("printed") };
    assert_eq!(authorized.settings.declarers(), upjet_core::guard::vars::Declarers::Authorized);
    assert_eq!((p.format, p.kinds.kinds.clone()), (upjet_output::guard::GuardFormat::Json, vec!["vpc".to_string()]));
    let KindSource::Cluster(lists) = &p.source else { panic!("a cluster") };
    assert_eq!((lists.namespace.as_deref(), lists.page_size), (Some("team-a"), 500));
    let Ok(Guard::Print(offline)) = guard(&["--from", "crds/", "--audit", "--id-template", "vpc=vpc-{name}"]) else {
        panic!("offline")
    };
    assert_eq!(offline.source, KindSource::Files("crds/".into()));
    assert!(GuardRule::ALL.iter().all(|r| offline.settings.action(*r) == Action::Audit));
    assert_eq!(offline.id_templates.len(), 1);
    let Ok(Guard::Lock(lock)) = guard(&["lock", "--provider", "aws.upbound.io", "--journal", "j/", "-A"]) else {
        panic!("lock")
    };
    assert_eq!((lock.kinds.providers.clone(), lock.journal), (vec!["aws.upbound.io".to_string()], Some("j/".into())));
    let Ok(Guard::Unlock(u)) = guard(&["unlock", "vpc.ec2.aws.m.upbound.io/web", "-n", "team-a"]) else {
        panic!("unlock")
    };
    assert_eq!(
        (u.kind.as_str(), u.name.as_str(), u.namespace.as_deref()),
        ("vpc.ec2.aws.m.upbound.io", "web", Some("team-a"))
    );
    for (words, want) in [
        (
            &["--warn", "placeholder", "--deny", "identity-kept", "--deny", "placeholder"][..],
            Refusal::RuleWarnAndDeny(GuardRule::Placeholder),
        ),
        (&["unlock", "vpc"][..], Refusal::NotKindName("vpc".into())),
        (&["unlock", "/main"][..], Refusal::NotKindName("/main".into())),
    ] {
        assert_eq!(guard(words).err(), Some(want), "{words:?}");
    }
    assert_eq!(
        Refusal::RuleWarnAndDeny(GuardRule::Placeholder).to_string(),
        "--warn placeholder and --deny placeholder: a rule has one action; give one of them"
    );
    assert!(Cli::try_parse_from(["kubectl-upjet", "guard", "--warn", "identity"]).is_err(), "an unknown rule");
    assert!(Cli::try_parse_from(["kubectl-upjet", "guard", "--audit", "lock"]).is_err(), "lock takes no print flag");
    assert_eq!(one_cluster_only(&command(&["guard", "lock"]), true).err(), Some(Refusal::SeveralClusters("guard")));
}
