
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'kubectl-upjet' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'kubectl-upjet'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'kubectl-upjet' {
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Only this namespace (namespaced MRs); cluster-scoped MRs are always included')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Only this namespace (namespaced MRs); cluster-scoped MRs are always included')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl''s -l)')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl''s -l)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity like kubectl''s -v: 4 shows requests, 6+ shows HTTP details')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity like kubectl''s -v: 4 shows requests, 6+ shows HTTP details')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The API server address, overriding the kubeconfig')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The API server address, overriding the kubeconfig')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token, overriding the kubeconfig')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Impersonate this user')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Impersonate this group (repeatable)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces (the default for doctor, which is fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces (the default for doctor, which is fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'List managed resources whose creation or identity tracking is broken')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-upjet;doctor' {
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only these kinds: kind, plural or kind.group (repeatable)')
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'Only this provider: a group suffix (aws.upbound.io) or a provider name (provider-aws-ec2)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--severity', '--severity', [CompletionResultType]::ParameterName, 'Show only findings at or above this severity')
            [CompletionResult]::new('--only', '--only', [CompletionResultType]::ParameterName, 'Show only these codes (repeatable or comma-separated)')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Hide these codes (repeatable or comma-separated)')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Exit 1 when a finding at or above this severity is shown')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Analyse a snapshot instead of a cluster: `kubectl get managed -A -o json` output (a List), or a directory of such files (JSON or YAML)')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many list requests may be in flight at once')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Only this namespace (namespaced MRs); cluster-scoped MRs are always included')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Only this namespace (namespaced MRs); cluster-scoped MRs are always included')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl''s -l)')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl''s -l)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity like kubectl''s -v: 4 shows requests, 6+ shows HTTP details')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity like kubectl''s -v: 4 shows requests, 6+ shows HTTP details')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The API server address, overriding the kubeconfig')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The API server address, overriding the kubeconfig')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token, overriding the kubeconfig')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Impersonate this user')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Impersonate this group (repeatable)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Do not print the table header')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces (the default for doctor, which is fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces (the default for doctor, which is fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;completion' {
            [CompletionResult]::new('--install-dir', '--install-dir', [CompletionResultType]::ParameterName, 'With kubectl-plugin: the directory on PATH to write `kubectl_complete-upjet` into')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Only this namespace (namespaced MRs); cluster-scoped MRs are always included')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'Only this namespace (namespaced MRs); cluster-scoped MRs are always included')
            [CompletionResult]::new('-l', '-l', [CompletionResultType]::ParameterName, 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl''s -l)')
            [CompletionResult]::new('--selector', '--selector', [CompletionResultType]::ParameterName, 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl''s -l)')
            [CompletionResult]::new('--request-timeout', '--request-timeout', [CompletionResultType]::ParameterName, 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Log verbosity like kubectl''s -v: 4 shows requests, 6+ shows HTTP details')
            [CompletionResult]::new('--v', '--v', [CompletionResultType]::ParameterName, 'Log verbosity like kubectl''s -v: 4 shows requests, 6+ shows HTTP details')
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'The API server address, overriding the kubeconfig')
            [CompletionResult]::new('--server', '--server', [CompletionResultType]::ParameterName, 'The API server address, overriding the kubeconfig')
            [CompletionResult]::new('--token', '--token', [CompletionResultType]::ParameterName, 'Bearer token, overriding the kubeconfig')
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Impersonate this user')
            [CompletionResult]::new('--as-group', '--as-group', [CompletionResultType]::ParameterName, 'Impersonate this group (repeatable)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces (the default for doctor, which is fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces (the default for doctor, which is fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;help' {
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'List managed resources whose creation or identity tracking is broken')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-upjet;help;doctor' {
            break
        }
        'kubectl-upjet;help;completion' {
            break
        }
        'kubectl-upjet;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
