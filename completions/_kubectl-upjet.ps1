
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
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'List managed resources whose creation or identity tracking is broken')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Show the create history of one MR as a timeline, with the last provider-logged external ID')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('adopt', 'adopt', [CompletionResultType]::ParameterValue, 'Make a managed resource track an existing cloud object (safely: backup, dry-run, undo)')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Put annotations and management policies back from an adopt backup')
            [CompletionResult]::new('restore-plan', 'restore-plan', [CompletionResultType]::ParameterValue, 'Stage a Velero restore so that nothing is created twice: a resource-modifiers ConfigMap (MRs at risk restored observing only) and a promote plan')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'After a staged restore: check each MR''s Observe found its object, then put its management policies back (backup first, conditional writes, resumable)')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Move legacy cluster-scoped MRs to their namespaced Crossplane v2 kinds, identity kept: plan, apply (resumable, no duplicate, no deletion), status')
            [CompletionResult]::new('rbac', 'rbac', [CompletionResultType]::ParameterValue, 'Print least-privilege ClusterRoles for the managed kinds this cluster serves (read, and patch for adopt), for `kubectl apply -f -`')
            [CompletionResult]::new('health', 'health', [CompletionResultType]::ParameterValue, 'Print the health checks Argo CD (Lua) and Flux (CEL) should run on MRs, so that a GitOps UI shows a stuck create, a lost external-name or a pause for what it is')
            [CompletionResult]::new('guard', 'guard', [CompletionResultType]::ParameterValue, 'Print admission policies the API server enforces so that one write cannot drop, change or forget an MR''s identity (Kubernetes v1.30+); `guard lock` records every MR''s ID for them')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Watch every managed resource: a line when a finding appears or clears, Prometheus metrics, and a journal of every ID seen')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-upjet;doctor' {
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only these kinds: kind, plural or kind.group (repeatable)')
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'Only this provider: a group suffix (aws.upbound.io) or a provider name (provider-aws-ec2)')
            [CompletionResult]::new('--severity', '--severity', [CompletionResultType]::ParameterName, 'Show only findings at or above this severity')
            [CompletionResult]::new('--only', '--only', [CompletionResultType]::ParameterName, 'Show only these codes (repeatable or comma-separated)')
            [CompletionResult]::new('--ignore', '--ignore', [CompletionResultType]::ParameterName, 'Hide these codes (repeatable or comma-separated)')
            [CompletionResult]::new('--fail-on', '--fail-on', [CompletionResultType]::ParameterName, 'Exit 1 when a finding at or above this severity is shown')
            [CompletionResult]::new('--create-timeout', '--create-timeout', [CompletionResultType]::ParameterName, 'The providers'' reconcile timeout: a create pending for less may still be running')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Analyse a snapshot instead of a cluster: `kubectl get managed -A -o json` output (a List, or one object), a directory of such files (JSON or YAML; other inputs in it, such as inventories, are skipped and said), or a Velero backup (the `.tar.gz` `velero backup download` writes, or that archive unpacked), which adds what a restore would do to each MR. GitOps manifests (YAML files without status, or `-` for kustomize or helm output on stdin) are linted before merge instead, each finding at its file and line (docs/lint.md). Repeatable, one snapshot per cluster: the cluster is named after the file stem (`prod.json` → prod) or the folder (`staging/`); several paths of manifests are one lint')
            [CompletionResult]::new('--log-file', '--log-file', [CompletionResultType]::ParameterName, 'Read a provider log file for evidence (repeatable; `-` for stdin; gzip accepted; zap console/JSON, `kubectl logs --timestamps`, Cloud Logging and Loki exports)')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only log lines newer than this (e.g. 30m, 24h; 0 = all the API server kept)')
            [CompletionResult]::new('--limit-bytes', '--limit-bytes', [CompletionResultType]::ParameterName, 'At most this many bytes of each container''s log (the newest ones)')
            [CompletionResult]::new('--provider-namespace', '--provider-namespace', [CompletionResultType]::ParameterName, 'Where the provider pods run (default: found from their labels in any namespace)')
            [CompletionResult]::new('--inventory', '--inventory', [CompletionResultType]::ParameterName, 'Cross-check a cloud inventory export (repeatable; `-` for stdin; gzip accepted): AWS `resourcegroupstaggingapi get-resources`, GCP `gcloud asset search-all-resources --format=json`, Azure `az resource list` or `az graph query` JSON')
            [CompletionResult]::new('--audit-log', '--audit-log', [CompletionResultType]::ParameterName, 'Read a Kubernetes audit log for identities the MRs no longer show (repeatable; `-` for stdin; gzip accepted; audit.k8s.io/v1 JSON lines, GKE Cloud Logging or EKS CloudWatch exports)')
            [CompletionResult]::new('--id-template', '--id-template', [CompletionResultType]::ParameterName, 'A kind''s cloud ID format, for predicting the IDs of MRs that lost theirs (repeatable): KIND=TEMPLATE with placeholders {name}, {namespace}, {forProvider.KEY} ({parameters.key_name} accepted) and {providerConfig.name}; wins over the format learned from healthy peers. See docs/id-templates.md')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'Read the ID journal `kubectl upjet watch` keeps in DIR (default: the folder watch writes for this context, ~/.kube/upjet/journal/<context>/, when it exists): an ID recorded for the MR (its uid) is suggested to the findings that want one and ranked first')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: table; on a terminal, the summary first when the table would not fit on the screen]; kubectl''s name, jsonpath and custom-columns forms too')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: table; on a terminal, the summary first when the table would not fit on the screen]; kubectl''s name, jsonpath and custom-columns forms too')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'Write an adoption plan for `kubectl upjet adopt -f` from the findings that suggest an ID')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'How many requests may be in flight at once, across every cluster scanned')
            [CompletionResult]::new('--retry-budget', '--retry-budget', [CompletionResultType]::ParameterName, 'How long doctor may wait, per kind, between retries of failed reads (backoff and Retry-After) before it skips the kind and says so; 0 turns retries off')
            [CompletionResult]::new('--discovery-cache-ttl', '--discovery-cache-ttl', [CompletionResultType]::ParameterName, 'How long discovered kinds are reused from the cache in ~/.kube/cache/upjet (0 turns it off)')
            [CompletionResult]::new('--discovery-cache-dir', '--discovery-cache-dir', [CompletionResultType]::ParameterName, 'Where the discovery cache lives (default ~/.kube/cache/upjet/discovery)')
            [CompletionResult]::new('--cloud-audit', '--cloud-audit', [CompletionResultType]::ParameterName, 'Read the cloud''s own audit record: which objects the provider created for each MR, and who deleted them (repeatable; `-` for stdin; gzip accepted): AWS CloudTrail (`aws cloudtrail lookup-events` JSON, log files from S3, Lake or Athena JSON lines), GCP audit logs (`gcloud logging read --format=json`, sink JSON lines), the Azure activity log (`az monitor activity-log list -o json`, `{"records": …}` exports). See docs/cloud-audit.md')
            [CompletionResult]::new('--cloud-principal', '--cloud-principal', [CompletionResultType]::ParameterName, 'The provider''s cloud identity, for provider configs whose healthy MRs'' creates are not in the record (repeatable): an AWS role ARN or name, a GCP service-account email, an Azure caller')
            [CompletionResult]::new('--source-context', '--source-context', [CompletionResultType]::ParameterName, 'With --from BACKUP: the live cluster the backup was taken from. Its MRs that still manage a cloud object the backup''s MRs track are reported (RestoreIntoFight)')
            [CompletionResult]::new('--target-context', '--target-context', [CompletionResultType]::ParameterName, 'With --from BACKUP: the live cluster the backup will be restored into. MRs of kinds whose ManagedResourceDefinition is inactive there are not restored at all (RestoreKindInactive)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--fail-on-incomplete', '--fail-on-incomplete', [CompletionResultType]::ParameterName, 'Exit 4 whenever the scan was incomplete (kinds skipped, objects unreadable), even when findings reached --fail-on: for CI that must not pass on a partial scan')
            [CompletionResult]::new('--logs', '--logs', [CompletionResultType]::ParameterName, 'Read the live provider pods'' logs (current and previous container) for evidence')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Do not print the table header')
            [CompletionResult]::new('--refresh-discovery', '--refresh-discovery', [CompletionResultType]::ParameterName, 'Ask the API server which kinds exist instead of reusing the discovery cache (and refresh it)')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;history' {
            [CompletionResult]::new('--create-timeout', '--create-timeout', [CompletionResultType]::ParameterName, 'The providers'' reconcile timeout: a create pending for less may still be running')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Read the MR from a snapshot instead of the cluster (see doctor --from)')
            [CompletionResult]::new('--cloud-audit', '--cloud-audit', [CompletionResultType]::ParameterName, 'Read the cloud''s own audit record: which objects the provider created for each MR, and who deleted them (repeatable; `-` for stdin; gzip accepted): AWS CloudTrail (`aws cloudtrail lookup-events` JSON, log files from S3, Lake or Athena JSON lines), GCP audit logs (`gcloud logging read --format=json`, sink JSON lines), the Azure activity log (`az monitor activity-log list -o json`, `{"records": …}` exports). See docs/cloud-audit.md')
            [CompletionResult]::new('--cloud-principal', '--cloud-principal', [CompletionResultType]::ParameterName, 'The provider''s cloud identity, for provider configs whose healthy MRs'' creates are not in the record (repeatable): an AWS role ARN or name, a GCP service-account email, an Azure caller')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only log lines newer than this (e.g. 30m, 24h; 0 = all the API server kept)')
            [CompletionResult]::new('--limit-bytes', '--limit-bytes', [CompletionResultType]::ParameterName, 'At most this many bytes of each container''s log (the newest ones)')
            [CompletionResult]::new('--provider-namespace', '--provider-namespace', [CompletionResultType]::ParameterName, 'Where the provider pods run (default: found from their labels in any namespace)')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'Read the ID journal `kubectl upjet watch` keeps in DIR (default: the folder watch writes for this context, ~/.kube/upjet/journal/<context>/, when it exists): an ID recorded for the MR (its uid) is suggested to the findings that want one and ranked first')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format [default: text]; kubectl''s name, jsonpath and custom-columns forms too')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format [default: text]; kubectl''s name, jsonpath and custom-columns forms too')
            [CompletionResult]::new('--log-file', '--log-file', [CompletionResultType]::ParameterName, 'Also read a provider log file (repeatable; `-` for stdin; gzip accepted)')
            [CompletionResult]::new('--inventory', '--inventory', [CompletionResultType]::ParameterName, 'A cloud inventory export (repeatable; `-` for stdin; gzip accepted; see doctor --inventory): the objects tagged for the MR, tied to it as its kind''s peers teach, name what its creates made')
            [CompletionResult]::new('--audit-log', '--audit-log', [CompletionResultType]::ParameterName, 'Read a Kubernetes audit log: who wrote the MR and what changed (repeatable; `-` for stdin; gzip accepted; audit.k8s.io/v1 JSON lines, GKE Cloud Logging or EKS CloudWatch exports)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--no-logs', '--no-logs', [CompletionResultType]::ParameterName, 'Do not read the live provider pods'' logs')
            [CompletionResult]::new('--workspace', '--workspace', [CompletionResultType]::ParameterName, 'Read the live Terraform workspace (/tmp/<uid>/terraform.tfstate) from the provider pod via exec')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;completion' {
            [CompletionResult]::new('--install-dir', '--install-dir', [CompletionResultType]::ParameterName, 'With kubectl-plugin: the directory on PATH to write `kubectl_complete-upjet` into')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;adopt' {
            [CompletionResult]::new('--id', '--id', [CompletionResultType]::ParameterName, 'The cloud object''s ID, in the provider''s external-name format (usually the Terraform ID). Without it, on a terminal, adopt shows the candidate IDs it found and asks')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Apply a plan file (`doctor --plan` writes one): a JSON list of {"resource", "namespace"?, "id"}. Items already adopted are skipped, so an interrupted run can simply be repeated')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'Apply a plan file (`doctor --plan` writes one): a JSON list of {"resource", "namespace"?, "id"}. Items already adopted are skipped, so an interrupted run can simply be repeated')
            [CompletionResult]::new('--create-timeout', '--create-timeout', [CompletionResultType]::ParameterName, 'The providers'' reconcile timeout: a create pending for less may still be running')
            [CompletionResult]::new('--backup-dir', '--backup-dir', [CompletionResultType]::ParameterName, 'Where to write the backup taken before any change (default: ~/.kube/upjet/backups)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long to wait for the provider at each wait step: `5m`, `90s`; a bare number is seconds')
            [CompletionResult]::new('--concurrency', '--concurrency', [CompletionResultType]::ParameterName, 'With -f: how many MRs are being changed at the same time (1-64), each under its own backup, conditional writes and verification; an MR whose adoption is written is verified without holding a slot')
            [CompletionResult]::new('--parallel', '--parallel', [CompletionResultType]::ParameterName, 'With -f: how many MRs are being changed at the same time (1-64), each under its own backup, conditional writes and verification; an MR whose adoption is written is verified without holding a slot')
            [CompletionResult]::new('--cloud-audit', '--cloud-audit', [CompletionResultType]::ParameterName, 'Read the cloud''s own audit record: which objects the provider created for each MR, and who deleted them (repeatable; `-` for stdin; gzip accepted): AWS CloudTrail (`aws cloudtrail lookup-events` JSON, log files from S3, Lake or Athena JSON lines), GCP audit logs (`gcloud logging read --format=json`, sink JSON lines), the Azure activity log (`az monitor activity-log list -o json`, `{"records": …}` exports). See docs/cloud-audit.md')
            [CompletionResult]::new('--cloud-principal', '--cloud-principal', [CompletionResultType]::ParameterName, 'The provider''s cloud identity, for provider configs whose healthy MRs'' creates are not in the record (repeatable): an AWS role ARN or name, a GCP service-account email, an Azure caller')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'Read the ID journal `kubectl upjet watch` keeps in DIR (default: the folder watch writes for this context, ~/.kube/upjet/journal/<context>/, when it exists): an ID recorded for the MR (its uid) is suggested to the findings that want one and ranked first')
            [CompletionResult]::new('--id-template', '--id-template', [CompletionResultType]::ParameterName, 'The kind''s cloud ID format (repeatable, KIND=TEMPLATE, see docs/id-templates.md): without --id, the ID it gives for the MR is offered among the candidates on a terminal, and used otherwise (add --import to have the provider confirm it first)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--import', '--import', [CompletionResultType]::ParameterName, 'Verify first: observe the ID with managementPolicies ["Observe"] (no create, update or delete possible), and only restore the original policies once the provider found it. If it does not exist, the MR is put back exactly as it was. Recommended for orphans')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Adopt even while an operation may still be running (an asynchronous one, or a create within the reconcile timeout), or over an unfinished adoption of another ID')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when there is no terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when there is no terminal)')
            [CompletionResult]::new('--add-late-initialize', '--add-late-initialize', [CompletionResultType]::ParameterName, 'Add LateInitialize to spec.managementPolicies when it is missing, so upjet persists an external-name it learns later')
            [CompletionResult]::new('--pause-composite', '--pause-composite', [CompletionResultType]::ParameterName, 'When the MR''s composition sets its external-name (or policies), pause its XR (crossplane.io/paused) for the adoption, backed up first, and put its pause back after; says what the composition must carry so that the next compose keeps the ID')
            [CompletionResult]::new('--probe', '--probe', [CompletionResultType]::ParameterName, 'With -f and --import: try each item''s candidate IDs in rank order (its "id", then its "candidates") and keep the first the provider finds; after each miss the MR is put back exactly as it was before the next candidate is tried. Without it only the first is used')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the plan and every patch, and send the patches with server-side dryRun=All: nothing is changed and no backup is written')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;restore' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when there is no terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when there is no terminal)')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print the patch and send it with server-side dryRun=All; nothing is changed')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;restore-plan' {
            [CompletionResult]::new('--modifiers', '--modifiers', [CompletionResultType]::ParameterName, 'Where to write the resource modifiers (the YAML `kubectl create cm --from-file` puts into the ConfigMap Velero reads): every MR at risk is restored with managementPolicies ["Observe"] and its best known external-name, paused too when no ID is known; the others get no rule')
            [CompletionResult]::new('--plan', '--plan', [CompletionResultType]::ParameterName, 'Where to write the promote plan (`kubectl upjet promote -f FILE` after the restore)')
            [CompletionResult]::new('--backup-name', '--backup-name', [CompletionResultType]::ParameterName, 'The backup''s name for `velero restore create --from-backup` (default: the file name without -data.tar.gz, or the folder''s name)')
            [CompletionResult]::new('--config-map', '--config-map', [CompletionResultType]::ParameterName, 'The ConfigMap''s name (default: upjet-restore-BACKUP_NAME)')
            [CompletionResult]::new('--cloud-audit', '--cloud-audit', [CompletionResultType]::ParameterName, 'Read the cloud''s own audit record: which objects the provider created for each MR, and who deleted them (repeatable; `-` for stdin; gzip accepted): AWS CloudTrail (`aws cloudtrail lookup-events` JSON, log files from S3, Lake or Athena JSON lines), GCP audit logs (`gcloud logging read --format=json`, sink JSON lines), the Azure activity log (`az monitor activity-log list -o json`, `{"records": …}` exports). See docs/cloud-audit.md')
            [CompletionResult]::new('--cloud-principal', '--cloud-principal', [CompletionResultType]::ParameterName, 'The provider''s cloud identity, for provider configs whose healthy MRs'' creates are not in the record (repeatable): an AWS role ARN or name, a GCP service-account email, an Azure caller')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'Read the ID journal `kubectl upjet watch` keeps in DIR (default: the folder watch writes for this context, ~/.kube/upjet/journal/<context>/, when it exists): an ID recorded for the MR (its uid) is suggested to the findings that want one and ranked first')
            [CompletionResult]::new('--source-context', '--source-context', [CompletionResultType]::ParameterName, 'The live cluster the backup was taken from: MRs whose cloud object it still manages are restored observing only (RestoreIntoFight)')
            [CompletionResult]::new('--target-context', '--target-context', [CompletionResultType]::ParameterName, 'The live cluster the backup will be restored into: MRs of kinds whose ManagedResourceDefinition is inactive there are not restored at all; the command that activates each kind is printed')
            [CompletionResult]::new('--id-template', '--id-template', [CompletionResultType]::ParameterName, 'A kind''s cloud ID format for MRs restored without one (repeatable; see doctor --id-template)')
            [CompletionResult]::new('--inventory', '--inventory', [CompletionResultType]::ParameterName, 'A cloud inventory export to find IDs in (repeatable; see doctor --inventory)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite --modifiers and --plan when they exist')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;promote' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The promote plan `restore-plan` wrote')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'The promote plan `restore-plan` wrote')
            [CompletionResult]::new('--parallel', '--parallel', [CompletionResultType]::ParameterName, 'How many MRs are verified and promoted at the same time (1-64)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long to wait for the provider at each wait: `5m`, `90s`; a bare number is seconds')
            [CompletionResult]::new('--backup-dir', '--backup-dir', [CompletionResultType]::ParameterName, 'Where to write the backup taken before each MR''s first change (default: ~/.kube/upjet/backups)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print every patch and send it with server-side dryRun=All: nothing is changed and no backup is written')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when there is no terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when there is no terminal)')
            [CompletionResult]::new('--source-released', '--source-released', [CompletionResultType]::ParameterName, 'The source cluster no longer manages the objects of RestoreIntoFight items (you paused or removed those MRs there): promote them too')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;migrate' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Write a migration plan: each legacy MR''s namespaced twin (checked against its CRD and, with a cluster, a server-side dry run), or why it is not migrated')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Carry a plan out, MR by MR: hold the legacy MR, create its twin observing only, wait until its Observe found the object, give it its final policies, delete the legacy MR')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Where each MR of a plan stands')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-upjet;migrate;plan' {
            [CompletionResult]::new('--to-namespace', '--to-namespace', [CompletionResultType]::ParameterName, 'The namespace every migrated MR goes to')
            [CompletionResult]::new('--namespace-from', '--namespace-from', [CompletionResultType]::ParameterName, 'Each MR''s namespace from its own label or annotation: label=KEY or annotation=KEY')
            [CompletionResult]::new('--drop-field', '--drop-field', [CompletionResultType]::ParameterName, 'Leave a forProvider/initProvider field out when the namespaced kind lacks it (repeatable; spec.forProvider.a.b)')
            [CompletionResult]::new('--provider-config-kind', '--provider-config-kind', [CompletionResultType]::ParameterName, 'The kind of every providerConfigRef (default: the CRD''s default, ClusterProviderConfig)')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Offline: snapshots of the legacy MRs (kubectl get managed -o json) and, beside them, the CRDs of the namespaced kinds (repeatable; files or folders)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Where to write the plan')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Where to write the plan')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every legacy MR of every provider')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Overwrite the plan file when it exists')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;migrate;apply' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The plan `migrate plan` wrote')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'The plan `migrate plan` wrote')
            [CompletionResult]::new('--parallel', '--parallel', [CompletionResultType]::ParameterName, 'How many MRs are migrated at the same time (1-64)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'How long to wait for the provider at each wait: `5m`, `90s`; a bare number is seconds')
            [CompletionResult]::new('--backup-dir', '--backup-dir', [CompletionResultType]::ParameterName, 'Where to write the backup of each legacy MR before its first change (default: ~/.kube/upjet/backups)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Send every write with server-side dryRun=All: nothing is changed and no backup is written')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when there is no terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when there is no terminal)')
            [CompletionResult]::new('--keep-legacy', '--keep-legacy', [CompletionResultType]::ParameterName, 'Leave each legacy MR in place, paused and unable to delete, instead of deleting it')
            [CompletionResult]::new('--observe-only', '--observe-only', [CompletionResultType]::ParameterName, 'Stop once each namespaced MR''s Observe found its object: it stays observing only, the legacy MR stays paused. A later apply without this flag finishes')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;migrate;status' {
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'The plan `migrate plan` wrote')
            [CompletionResult]::new('--filename', '--filename', [CompletionResultType]::ParameterName, 'The plan `migrate plan` wrote')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;migrate;help' {
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Write a migration plan: each legacy MR''s namespaced twin (checked against its CRD and, with a cluster, a server-side dry run), or why it is not migrated')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Carry a plan out, MR by MR: hold the legacy MR, create its twin observing only, wait until its Observe found the object, give it its final policies, delete the legacy MR')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Where each MR of a plan stands')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-upjet;migrate;help;plan' {
            break
        }
        'kubectl-upjet;migrate;help;apply' {
            break
        }
        'kubectl-upjet;migrate;help;status' {
            break
        }
        'kubectl-upjet;migrate;help;help' {
            break
        }
        'kubectl-upjet;rbac' {
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only these kinds: kind, plural or kind.group (repeatable)')
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'Only this provider: a group suffix (aws.upbound.io) or a provider name (provider-aws-ec2)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;health' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('argocd', 'argocd', [CompletionResultType]::ParameterValue, 'Print the argocd-cm entry that installs a Lua health check for the upjet groups: Argo CD''s built-in verdicts, plus lost identity and stuck creates as Degraded, paused as Suspended')
            [CompletionResult]::new('flux', 'flux', [CompletionResultType]::ParameterValue, 'Print a Flux Kustomization''s healthCheckExprs (CEL) for the managed kinds this cluster serves')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-upjet;health;argocd' {
            [CompletionResult]::new('--group', '--group', [CompletionResultType]::ParameterName, 'API groups the check covers, as globs: every kind of each (repeatable)')
            [CompletionResult]::new('--argocd-namespace', '--argocd-namespace', [CompletionResultType]::ParameterName, 'The namespace of argocd-cm, for -o yaml and -o json')
            [CompletionResult]::new('--create-timeout', '--create-timeout', [CompletionResultType]::ParameterName, 'The providers'' reconcile timeout: a create pending for less may still be running')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;health;flux' {
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only these kinds: kind, plural or kind.group (repeatable)')
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'Only this provider: a group suffix (aws.upbound.io) or a provider name (provider-aws-ec2)')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;health;help' {
            [CompletionResult]::new('argocd', 'argocd', [CompletionResultType]::ParameterValue, 'Print the argocd-cm entry that installs a Lua health check for the upjet groups: Argo CD''s built-in verdicts, plus lost identity and stuck creates as Degraded, paused as Suspended')
            [CompletionResult]::new('flux', 'flux', [CompletionResultType]::ParameterValue, 'Print a Flux Kustomization''s healthCheckExprs (CEL) for the managed kinds this cluster serves')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-upjet;health;help;argocd' {
            break
        }
        'kubectl-upjet;health;help;flux' {
            break
        }
        'kubectl-upjet;health;help;help' {
            break
        }
        'kubectl-upjet;guard' {
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only these kinds: kind, plural or kind.group (repeatable)')
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'Only this provider: a group suffix (aws.upbound.io) or a provider name (provider-aws-ec2)')
            [CompletionResult]::new('--warn', '--warn', [CompletionResultType]::ParameterName, 'Only warn when this rule is broken (repeatable)')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Refuse the writes that break this rule (repeatable)')
            [CompletionResult]::new('--allow-user', '--allow-user', [CompletionResultType]::ParameterName, 'Never judge this user''s writes (repeatable); the providers'' own service accounts are exempt already')
            [CompletionResult]::new('--allow-group', '--allow-group', [CompletionResultType]::ParameterName, 'Never judge the writes of this group''s members (repeatable), e.g. a break-glass group')
            [CompletionResult]::new('--from', '--from', [CompletionResultType]::ParameterName, 'Read the managed kinds from CRD files (a file or a folder, YAML or JSON) instead of a cluster: for a GitOps repository; no cluster is asked anything')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--id-template', '--id-template', [CompletionResultType]::ParameterName, 'A kind''s cloud ID format for the external-name-format rule (repeatable): KIND=TEMPLATE, as doctor takes it; wins over the format learned from healthy peers. See docs/id-templates.md')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--audit', '--audit', [CompletionResultType]::ParameterName, 'Put every rule in Audit, whatever --warn and --deny say: nothing is refused or warned about, each write that breaks a rule is recorded in the API server''s audit log')
            [CompletionResult]::new('--mutate', '--mutate', [CompletionResultType]::ParameterName, 'Also print a MutatingAdmissionPolicy that puts the locked ID back on a create that lacks it (Kubernetes v1.36+)')
            [CompletionResult]::new('--authorize-declarations', '--authorize-declarations', [CompletionResultType]::ParameterName, 'A repair''s declaration of an identity change (kubectl-upjet.io/identity-change) counts only for a user the API server''s authorizer allows `declare` on identitychanges.guard.kubectl-upjet.io (the ClusterRole kubectl-upjet-guard-declare); without it, anyone who may update an MR may declare')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('lock', 'lock', [CompletionResultType]::ParameterValue, 'Write the lock: every MR''s current ID (and the IDs the ID journal holds for MRs gone since), so that an MR created again without its ID is refused')
            [CompletionResult]::new('unlock', 'unlock', [CompletionResultType]::ParameterValue, 'Remove one MR''s entry from the lock, once its cloud object is really gone')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-upjet;guard;lock' {
            [CompletionResult]::new('--kind', '--kind', [CompletionResultType]::ParameterName, 'Only these kinds: kind, plural or kind.group (repeatable)')
            [CompletionResult]::new('--provider', '--provider', [CompletionResultType]::ParameterName, 'Only this provider: a group suffix (aws.upbound.io) or a provider name (provider-aws-ec2)')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'Read the ID journal `kubectl upjet watch` keeps in DIR (default: the folder watch writes for this context, ~/.kube/upjet/journal/<context>/, when it exists): for each MR it recorded that no live MR answers for, the newest external-name is locked too')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;guard;unlock' {
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;guard;help' {
            [CompletionResult]::new('lock', 'lock', [CompletionResultType]::ParameterValue, 'Write the lock: every MR''s current ID (and the IDs the ID journal holds for MRs gone since), so that an MR created again without its ID is refused')
            [CompletionResult]::new('unlock', 'unlock', [CompletionResultType]::ParameterValue, 'Remove one MR''s entry from the lock, once its cloud object is really gone')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-upjet;guard;help;lock' {
            break
        }
        'kubectl-upjet;guard;help;unlock' {
            break
        }
        'kubectl-upjet;guard;help;help' {
            break
        }
        'kubectl-upjet;watch' {
            [CompletionResult]::new('--metrics-addr', '--metrics-addr', [CompletionResultType]::ParameterName, 'Serve /metrics (Prometheus text format), /healthz and /readyz on HOST:PORT (`:9090`: every interface)')
            [CompletionResult]::new('--resync', '--resync', [CompletionResultType]::ParameterName, 'How often every MR is judged again without an event (findings that depend on time: an async operation''s deadline passing, a create pending for too long), and the provider pods (and, with --logs, their logs) are looked at')
            [CompletionResult]::new('--create-timeout', '--create-timeout', [CompletionResultType]::ParameterName, 'The providers'' reconcile timeout: a create pending for less may still be running')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'Output format')
            [CompletionResult]::new('--journal', '--journal', [CompletionResultType]::ParameterName, 'The ID journal''s folder (default: ~/.kube/upjet/journal/<context>/; with several contexts, one folder per context inside DIR)')
            [CompletionResult]::new('--provider-namespace', '--provider-namespace', [CompletionResultType]::ParameterName, 'Where the provider pods run (default: found from their labels in any namespace)')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins')
            [CompletionResult]::new('--kubeconfig', '--kubeconfig', [CompletionResultType]::ParameterName, 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'The name of the kubeconfig context to use; doctor and watch take several')
            [CompletionResult]::new('--cluster', '--cluster', [CompletionResultType]::ParameterName, 'The name of the kubeconfig cluster to use')
            [CompletionResult]::new('--user', '--user', [CompletionResultType]::ParameterName, 'The name of the kubeconfig user to use')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
            [CompletionResult]::new('--namespace', '--namespace', [CompletionResultType]::ParameterName, 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)')
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
            [CompletionResult]::new('--no-journal', '--no-journal', [CompletionResultType]::ParameterName, 'Keep no ID journal')
            [CompletionResult]::new('--events', '--events', [CompletionResultType]::ParameterName, 'Record a Kubernetes Event (type Warning, reason = the code) on the MR each time an error finding appears, deduplicated as client-go''s recorder does (a repeat raises the Event''s count); needs deploy/clusterrole-watch-events.yaml')
            [CompletionResult]::new('--guard-lock', '--guard-lock', [CompletionResultType]::ParameterName, 'Keep the guard''s lock current (`kubectl upjet guard lock`, docs/guard.md): each MR''s ID recorded as it is seen, an MR''s entry removed when its deletion deleted its cloud object')
            [CompletionResult]::new('--logs', '--logs', [CompletionResultType]::ParameterName, 'Follow the provider pods'' logs (current container, and the previous one after each restart) and journal every ID a provider logs as created (source `log`)')
            [CompletionResult]::new('--no-headers', '--no-headers', [CompletionResultType]::ParameterName, 'Do not print the header line')
            [CompletionResult]::new('--all-contexts', '--all-contexts', [CompletionResultType]::ParameterName, 'Every context of the merged kubeconfig, for doctor and watch')
            [CompletionResult]::new('-A', '-A ', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--all-namespaces', '--all-namespaces', [CompletionResultType]::ParameterName, 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)')
            [CompletionResult]::new('--insecure-skip-tls-verify', '--insecure-skip-tls-verify', [CompletionResultType]::ParameterName, 'Do not verify the API server''s certificate (insecure)')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
        'kubectl-upjet;help' {
            [CompletionResult]::new('doctor', 'doctor', [CompletionResultType]::ParameterValue, 'List managed resources whose creation or identity tracking is broken')
            [CompletionResult]::new('history', 'history', [CompletionResultType]::ParameterValue, 'Show the create history of one MR as a timeline, with the last provider-logged external ID')
            [CompletionResult]::new('completion', 'completion', [CompletionResultType]::ParameterValue, 'Print a shell completion script')
            [CompletionResult]::new('adopt', 'adopt', [CompletionResultType]::ParameterValue, 'Make a managed resource track an existing cloud object (safely: backup, dry-run, undo)')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Put annotations and management policies back from an adopt backup')
            [CompletionResult]::new('restore-plan', 'restore-plan', [CompletionResultType]::ParameterValue, 'Stage a Velero restore so that nothing is created twice: a resource-modifiers ConfigMap (MRs at risk restored observing only) and a promote plan')
            [CompletionResult]::new('promote', 'promote', [CompletionResultType]::ParameterValue, 'After a staged restore: check each MR''s Observe found its object, then put its management policies back (backup first, conditional writes, resumable)')
            [CompletionResult]::new('migrate', 'migrate', [CompletionResultType]::ParameterValue, 'Move legacy cluster-scoped MRs to their namespaced Crossplane v2 kinds, identity kept: plan, apply (resumable, no duplicate, no deletion), status')
            [CompletionResult]::new('rbac', 'rbac', [CompletionResultType]::ParameterValue, 'Print least-privilege ClusterRoles for the managed kinds this cluster serves (read, and patch for adopt), for `kubectl apply -f -`')
            [CompletionResult]::new('health', 'health', [CompletionResultType]::ParameterValue, 'Print the health checks Argo CD (Lua) and Flux (CEL) should run on MRs, so that a GitOps UI shows a stuck create, a lost external-name or a pause for what it is')
            [CompletionResult]::new('guard', 'guard', [CompletionResultType]::ParameterValue, 'Print admission policies the API server enforces so that one write cannot drop, change or forget an MR''s identity (Kubernetes v1.30+); `guard lock` records every MR''s ID for them')
            [CompletionResult]::new('watch', 'watch', [CompletionResultType]::ParameterValue, 'Watch every managed resource: a line when a finding appears or clears, Prometheus metrics, and a journal of every ID seen')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'kubectl-upjet;help;doctor' {
            break
        }
        'kubectl-upjet;help;history' {
            break
        }
        'kubectl-upjet;help;completion' {
            break
        }
        'kubectl-upjet;help;adopt' {
            break
        }
        'kubectl-upjet;help;restore' {
            break
        }
        'kubectl-upjet;help;restore-plan' {
            break
        }
        'kubectl-upjet;help;promote' {
            break
        }
        'kubectl-upjet;help;migrate' {
            [CompletionResult]::new('plan', 'plan', [CompletionResultType]::ParameterValue, 'Write a migration plan: each legacy MR''s namespaced twin (checked against its CRD and, with a cluster, a server-side dry run), or why it is not migrated')
            [CompletionResult]::new('apply', 'apply', [CompletionResultType]::ParameterValue, 'Carry a plan out, MR by MR: hold the legacy MR, create its twin observing only, wait until its Observe found the object, give it its final policies, delete the legacy MR')
            [CompletionResult]::new('status', 'status', [CompletionResultType]::ParameterValue, 'Where each MR of a plan stands')
            break
        }
        'kubectl-upjet;help;migrate;plan' {
            break
        }
        'kubectl-upjet;help;migrate;apply' {
            break
        }
        'kubectl-upjet;help;migrate;status' {
            break
        }
        'kubectl-upjet;help;rbac' {
            break
        }
        'kubectl-upjet;help;health' {
            [CompletionResult]::new('argocd', 'argocd', [CompletionResultType]::ParameterValue, 'Print the argocd-cm entry that installs a Lua health check for the upjet groups: Argo CD''s built-in verdicts, plus lost identity and stuck creates as Degraded, paused as Suspended')
            [CompletionResult]::new('flux', 'flux', [CompletionResultType]::ParameterValue, 'Print a Flux Kustomization''s healthCheckExprs (CEL) for the managed kinds this cluster serves')
            break
        }
        'kubectl-upjet;help;health;argocd' {
            break
        }
        'kubectl-upjet;help;health;flux' {
            break
        }
        'kubectl-upjet;help;guard' {
            [CompletionResult]::new('lock', 'lock', [CompletionResultType]::ParameterValue, 'Write the lock: every MR''s current ID (and the IDs the ID journal holds for MRs gone since), so that an MR created again without its ID is refused')
            [CompletionResult]::new('unlock', 'unlock', [CompletionResultType]::ParameterValue, 'Remove one MR''s entry from the lock, once its cloud object is really gone')
            break
        }
        'kubectl-upjet;help;guard;lock' {
            break
        }
        'kubectl-upjet;help;guard;unlock' {
            break
        }
        'kubectl-upjet;help;watch' {
            break
        }
        'kubectl-upjet;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
