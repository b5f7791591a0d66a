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
