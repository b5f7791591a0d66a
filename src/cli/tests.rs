use super::*;
use clap::CommandFactory;

#[test]
fn the_kubectl_completer_is_a_parse_result() {
    let words = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
    let by_name = parse(words(&["/usr/bin/kubectl_complete-upjet", "doctor", ""]), false);
    assert!(matches!(by_name, Invocation::KubectlComplete(w) if w == words(&["doctor", ""])));
    let by_env = parse(words(&["kubectl-upjet", "adopt"]), true);
    assert!(matches!(by_env, Invocation::KubectlComplete(w) if w == words(&["adopt"])));
    assert!(matches!(parse(words(&["kubectl-upjet", "doctor"]), false), Invocation::Run(_)));
    assert!(matches!(parse(words(&["kubectl-upjet", "--nope"]), false), Invocation::Exit(_)));
}

#[test]
fn definition_is_valid() {
    Cli::command().debug_assert();
}

#[test]
fn kubectl_style_flags_parse_after_the_subcommand() {
    let cli = Cli::try_parse_from([
        "kubectl-upjet",
        "doctor",
        "-n",
        "team-a",
        "--context",
        "prod",
        "-v=6",
        "-l",
        "a=b",
        "--request-timeout",
        "30s",
        "--only",
        "CreateIncomplete,pausED",
        "-o",
        "json",
    ])
    .unwrap();
    assert_eq!(cli.kube.namespace.as_deref(), Some("team-a"));
    assert_eq!(cli.kube.contexts, vec!["prod".to_string()]);
    assert_eq!(cli.kube.verbosity, 6);
    assert_eq!(cli.kube.request_timeout, Some(std::time::Duration::from_secs(30)));
    let Command::Doctor(d) = cli.command else { panic!() };
    assert_eq!(d.only, vec![Code::CreateIncomplete, Code::Paused]);
    assert_eq!(d.output, Some(output::Output::Format(OutputFormat::Json)));
    assert!(Cli::try_parse_from(["kubectl-upjet", "doctor", "--only", "Nope"]).is_err());
}

/// `--since`, `--retry-budget` and `--discovery-cache-ttl` are durations, not timeouts: the
/// refusal of a negative one says so, naming the flag; `--request-timeout`'s names the timeout.
#[test]
fn negative_durations_are_refused_as_what_they_are() {
    for (flag, said) in [
        ("--since=-5m", "the duration must not be negative"),
        ("--retry-budget=-1s", "the duration must not be negative"),
        ("--discovery-cache-ttl=-1h", "the duration must not be negative"),
        ("--request-timeout=-3s", "the timeout must not be negative"),
    ] {
        let err = Cli::try_parse_from(["kubectl-upjet", "doctor", flag]).expect_err(flag).to_string();
        let name = flag.split('=').next().unwrap_or_default();
        assert!(err.contains(said) && err.contains(name), "{flag}: {err}");
    }
    let err = Cli::try_parse_from(["kubectl-upjet", "watch", "--resync", "0"]).expect_err("a zero resync").to_string();
    assert!(err.contains("--resync") && err.contains("the interval must be more than zero"), "{err}");
}

/// `--create-timeout`'s default is upjet's reconcile timeout, the one the rules assume without it.
#[test]
fn the_create_timeout_defaults_to_upjets_reconcile_timeout() {
    let Command::Doctor(d) = Cli::try_parse_from(["kubectl-upjet", "doctor"]).unwrap().command else { panic!() };
    let default = d.reconciler.create_timeout;
    assert_eq!(default.as_secs() as i64, upjet_core::reconcile_timeout::ReconcileTimeout::UPJET.secs());
}

/// The long flags two commands spell alike but mean differently by: each is its command's own
/// flag, defined with it. Any other long flag is defined once, in the group every command that
/// takes it flattens (`shared.rs`).
const SAME_NAME_OTHER_MEANING: &[&str] = &[
    "concurrency", // doctor: clusters and kinds read at once; adopt: a plan's MRs changed at once
    "filename",    // adopt -f: doctor's plan, or an MR; promote, migrate apply and status -f: theirs
    "force",       // adopt: while an operation may run; migrate plan, restore-plan: overwrite
    "from",        // doctor: snapshots (several); history: one; guard: CRDs; migrate plan: both
    "output",      // each command's own -o formats
    "plan",        // doctor --plan writes adopt's plan; restore-plan --plan writes its own
];

/// Every long flag the clap structs define, with the file and line of each definition: an
/// explicit `long = "NAME"`, or a bare `long` named after the field it is on.
fn long_flag_definitions() -> Vec<(String, String)> {
    let files = [
        ("adopt.rs", include_str!("adopt.rs")),
        ("apply.rs", include_str!("apply.rs")),
        ("guard.rs", include_str!("guard.rs")),
        ("health.rs", include_str!("health.rs")),
        ("migrate.rs", include_str!("migrate.rs")),
        ("mod.rs", include_str!("mod.rs")),
        ("rbac.rs", include_str!("rbac.rs")),
        ("restore.rs", include_str!("restore.rs")),
        ("shared.rs", include_str!("shared.rs")),
        ("watch.rs", include_str!("watch.rs")),
    ];
    let mut found = Vec::new();
    for (file, text) in files {
        let lines: Vec<&str> = text.lines().collect();
        for (i, line) in lines.iter().enumerate() {
            let Some(attr) = line.trim().strip_prefix("#[arg(") else { continue };
            let explicit = attr.split("long = \"").nth(1).and_then(|rest| rest.split('"').next());
            let bare = attr.split([',', ')']).any(|part| part.trim() == "long");
            let name = match explicit {
                Some(name) => name.to_string(),
                None if bare => {
                    let field = lines[i + 1..].iter().find_map(|l| l.trim().strip_prefix("pub ")?.split(':').next());
                    field.expect("a flag's field follows its attribute").replace('_', "-")
                }
                None => continue,
            };
            found.push((name, format!("{file}:{}", i + 1)));
        }
    }
    found
}

#[test]
fn a_flag_several_commands_take_is_defined_once() {
    let all = long_flag_definitions();
    assert!(all.iter().any(|(n, _)| n == "id-template"), "the scan sees the shared groups: {all:?}");
    assert!(all.iter().any(|(n, _)| n == "metrics-addr"), "and bare `long` on a field: {all:?}");
    let mut by_name: std::collections::BTreeMap<&str, Vec<&str>> = Default::default();
    for (name, at) in &all {
        by_name.entry(name).or_default().push(at);
    }
    let twice: Vec<_> =
        by_name.iter().filter(|(name, at)| at.len() > 1 && !SAME_NAME_OTHER_MEANING.contains(name)).collect();
    assert!(twice.is_empty(), "defined more than once; make each one group in cli/shared.rs: {twice:?}");
    for name in SAME_NAME_OTHER_MEANING {
        assert!(
            by_name.get(name).is_some_and(|at| at.len() > 1),
            "--{name} is defined once now: drop it from the list"
        );
    }
}
