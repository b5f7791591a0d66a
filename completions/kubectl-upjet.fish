# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_kubectl_upjet_global_optspecs
    string join \n color= kubeconfig= context= all-contexts cluster= user= n/namespace= A/all-namespaces l/selector= request-timeout= v/v= s/server= token= insecure-skip-tls-verify as= as-group= h/help V/version
end

function __fish_kubectl_upjet_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_kubectl_upjet_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_kubectl_upjet_using_subcommand
    set -l cmd (__fish_kubectl_upjet_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "doctor" -d 'List managed resources whose creation or identity tracking is broken'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "history" -d 'Show the create history of one MR as a timeline, with the last provider-logged external ID'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "completion" -d 'Print a shell completion script'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "adopt" -d 'Make a managed resource track an existing cloud object (safely: backup, dry-run, undo)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "restore" -d 'Put annotations and management policies back from an adopt backup'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "restore-plan" -d 'Stage a Velero restore so that nothing is created twice: a resource-modifiers ConfigMap (MRs at risk restored observing only) and a promote plan'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "promote" -d 'After a staged restore: check each MR\'s Observe found its object, then put its management policies back (backup first, conditional writes, resumable)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "migrate" -d 'Move legacy cluster-scoped MRs to their namespaced Crossplane v2 kinds, identity kept: plan, apply (resumable, no duplicate, no deletion), status'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "rbac" -d 'Print least-privilege ClusterRoles for the managed kinds this cluster serves (read, and patch for adopt), for `kubectl apply -f -`'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "health" -d 'Print the health checks Argo CD (Lua) and Flux (CEL) should run on MRs, so that a GitOps UI shows a stuck create, a lost external-name or a pause for what it is'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "guard" -d 'Print admission policies the API server enforces so that one write cannot drop, change or forget an MR\'s identity (Kubernetes v1.30+); `guard lock` records every MR\'s ID for them'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "watch" -d 'Watch every managed resource: a line when a finding appears or clears, Prometheus metrics, and a journal of every ID seen'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l kind -d 'Only these kinds: kind, plural or kind.group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l provider -d 'Only this provider: a group suffix (aws.upbound.io) or a provider name (provider-aws-ec2)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l severity -d 'Show only findings at or above this severity' -r -f -a "info\t'Context worth knowing; nothing is broken'
warning\t'Something is likely to go wrong or hides a problem'
error\t'Tracking of a cloud object is broken or about to be'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l only -d 'Show only these codes (repeatable or comma-separated)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l ignore -d 'Hide these codes (repeatable or comma-separated)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l fail-on -d 'Exit 1 when a finding at or above this severity is shown' -r -f -a "info\t'Any finding'
warning\t'Warnings and errors'
error\t'Errors only (default)'
never\t'Never exit 1 because of findings'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l create-timeout -d 'The providers\' reconcile timeout: a create pending for less may still be running' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l from -d 'Analyse a snapshot instead of a cluster: `kubectl get managed -A -o json` output (a List, or one object), a directory of such files (JSON or YAML; other inputs in it, such as inventories, are skipped and said), or a Velero backup (the `.tar.gz` `velero backup download` writes, or that archive unpacked), which adds what a restore would do to each MR. GitOps manifests (YAML files without status, or `-` for kustomize or helm output on stdin) are linted before merge instead, each finding at its file and line (docs/lint.md). Repeatable, one snapshot per cluster: the cluster is named after the file stem (`prod.json` → prod) or the folder (`staging/`); several paths of manifests are one lint' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l log-file -d 'Read a provider log file for evidence (repeatable; `-` for stdin; gzip accepted; zap console/JSON, `kubectl logs --timestamps`, Cloud Logging and Loki exports)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l since -d 'Only log lines newer than this (e.g. 30m, 24h; 0 = all the API server kept)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l limit-bytes -d 'At most this many bytes of each container\'s log (the newest ones)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l provider-namespace -d 'Where the provider pods run (default: found from their labels in any namespace)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l inventory -d 'Cross-check a cloud inventory export (repeatable; `-` for stdin; gzip accepted): AWS `resourcegroupstaggingapi get-resources`, GCP `gcloud asset search-all-resources --format=json`, Azure `az resource list` or `az graph query` JSON' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l audit-log -d 'Read a Kubernetes audit log for identities the MRs no longer show (repeatable; `-` for stdin; gzip accepted; audit.k8s.io/v1 JSON lines, GKE Cloud Logging or EKS CloudWatch exports)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l id-template -d 'A kind\'s cloud ID format, for predicting the IDs of MRs that lost theirs (repeatable): KIND=TEMPLATE with placeholders {name}, {namespace}, {forProvider.KEY} ({parameters.key_name} accepted) and {providerConfig.name}; wins over the format learned from healthy peers. See docs/id-templates.md' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l journal -d 'Read the ID journal `kubectl upjet watch` keeps in DIR (default: the folder watch writes for this context, ~/.kube/upjet/journal/<context>/, when it exists): an ID recorded for the MR (its uid) is suggested to the findings that want one and ranked first' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s o -l output -d 'Output format [default: table; on a terminal, the summary first when the table would not fit on the screen]; kubectl\'s name, jsonpath and custom-columns forms too' -r -f -a "table\t'kubectl-style table'
wide\t'Table with external-name, atProvider.id and create-mark ages'
json\t'One JSON document (`upjet.doctor/v1` Report)'
yaml\t'One YAML document (`upjet.doctor/v1` Report)'
summary\t'Counts by code × kind × provider config, worst first, each with its next command'
sarif\t'SARIF 2.1.0 for code scanning (GitHub, GitLab): one rule per finding code'
junit\t'JUnit XML: one testsuite per kind, one testcase per MR, a failure per error finding'
html\t'One self-contained HTML page: the summary, then a sortable, filterable findings table'
name\t'kind.group/name of each MR (kubectl\'s -o name)'
jsonpath=TEMPLATE\t'kubectl\'s JSONPath template over the JSON document'
jsonpath-file=FILE\t'the same, the template read from FILE'
jsonpath-as-json=TEMPLATE\t'the selected values as JSON'
custom-columns=HEADER:PATH\,...\t'one row per item (finding or timeline event)'
custom-columns-file=FILE\t'headers on the first line, paths on the second'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l plan -d 'Write an adoption plan for `kubectl upjet adopt -f` from the findings that suggest an ID' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l concurrency -d 'How many requests may be in flight at once, across every cluster scanned' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l retry-budget -d 'How long doctor may wait, per kind, between retries of failed reads (backoff and Retry-After) before it skips the kind and says so; 0 turns retries off' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l discovery-cache-ttl -d 'How long discovered kinds are reused from the cache in ~/.kube/cache/upjet (0 turns it off)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l discovery-cache-dir -d 'Where the discovery cache lives (default ~/.kube/cache/upjet/discovery)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l cloud-audit -d 'Read the cloud\'s own audit record: which objects the provider created for each MR, and who deleted them (repeatable; `-` for stdin; gzip accepted): AWS CloudTrail (`aws cloudtrail lookup-events` JSON, log files from S3, Lake or Athena JSON lines), GCP audit logs (`gcloud logging read --format=json`, sink JSON lines), the Azure activity log (`az monitor activity-log list -o json`, `{"records": …}` exports). See docs/cloud-audit.md' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l cloud-principal -d 'The provider\'s cloud identity, for provider configs whose healthy MRs\' creates are not in the record (repeatable): an AWS role ARN or name, a GCP service-account email, an Azure caller' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l source-context -d 'With --from BACKUP: the live cluster the backup was taken from. Its MRs that still manage a cloud object the backup\'s MRs track are reported (RestoreIntoFight)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l target-context -d 'With --from BACKUP: the live cluster the backup will be restored into. MRs of kinds whose ManagedResourceDefinition is inactive there are not restored at all (RestoreKindInactive)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l fail-on-incomplete -d 'Exit 4 whenever the scan was incomplete (kinds skipped, objects unreadable), even when findings reached --fail-on: for CI that must not pass on a partial scan'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l logs -d 'Read the live provider pods\' logs (current and previous container) for evidence'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l no-headers -d 'Do not print the table header'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l refresh-discovery -d 'Ask the API server which kinds exist instead of reusing the discovery cache (and refresh it)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l create-timeout -d 'The providers\' reconcile timeout: a create pending for less may still be running' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l from -d 'Read the MR from a snapshot instead of the cluster (see doctor --from)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l cloud-audit -d 'Read the cloud\'s own audit record: which objects the provider created for each MR, and who deleted them (repeatable; `-` for stdin; gzip accepted): AWS CloudTrail (`aws cloudtrail lookup-events` JSON, log files from S3, Lake or Athena JSON lines), GCP audit logs (`gcloud logging read --format=json`, sink JSON lines), the Azure activity log (`az monitor activity-log list -o json`, `{"records": …}` exports). See docs/cloud-audit.md' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l cloud-principal -d 'The provider\'s cloud identity, for provider configs whose healthy MRs\' creates are not in the record (repeatable): an AWS role ARN or name, a GCP service-account email, an Azure caller' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l since -d 'Only log lines newer than this (e.g. 30m, 24h; 0 = all the API server kept)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l limit-bytes -d 'At most this many bytes of each container\'s log (the newest ones)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l provider-namespace -d 'Where the provider pods run (default: found from their labels in any namespace)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l journal -d 'Read the ID journal `kubectl upjet watch` keeps in DIR (default: the folder watch writes for this context, ~/.kube/upjet/journal/<context>/, when it exists): an ID recorded for the MR (its uid) is suggested to the findings that want one and ranked first' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -s o -l output -d 'Output format [default: text]; kubectl\'s name, jsonpath and custom-columns forms too' -r -f -a "text\t'Timeline for a human'
json\t'One JSON document (`upjet.doctor/v1` History)'
html\t'One self-contained HTML page: the timeline as a picture, the evidence below it'
name\t'kind.group/name of each MR (kubectl\'s -o name)'
jsonpath=TEMPLATE\t'kubectl\'s JSONPath template over the JSON document'
jsonpath-file=FILE\t'the same, the template read from FILE'
jsonpath-as-json=TEMPLATE\t'the selected values as JSON'
custom-columns=HEADER:PATH\,...\t'one row per item (finding or timeline event)'
custom-columns-file=FILE\t'headers on the first line, paths on the second'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l log-file -d 'Also read a provider log file (repeatable; `-` for stdin; gzip accepted)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l inventory -d 'A cloud inventory export (repeatable; `-` for stdin; gzip accepted; see doctor --inventory): the objects tagged for the MR, tied to it as its kind\'s peers teach, name what its creates made' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l audit-log -d 'Read a Kubernetes audit log: who wrote the MR and what changed (repeatable; `-` for stdin; gzip accepted; audit.k8s.io/v1 JSON lines, GKE Cloud Logging or EKS CloudWatch exports)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l no-logs -d 'Do not read the live provider pods\' logs'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l workspace -d 'Read the live Terraform workspace (/tmp/<uid>/terraform.tfstate) from the provider pod via exec'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand history" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l install-dir -d 'With kubectl-plugin: the directory on PATH to write `kubectl_complete-upjet` into' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l id -d 'The cloud object\'s ID, in the provider\'s external-name format (usually the Terraform ID). Without it, on a terminal, adopt shows the candidate IDs it found and asks' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -s f -l filename -d 'Apply a plan file (`doctor --plan` writes one): a JSON list of {"resource", "namespace"?, "id"}. Items already adopted are skipped, so an interrupted run can simply be repeated' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l create-timeout -d 'The providers\' reconcile timeout: a create pending for less may still be running' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l backup-dir -d 'Where to write the backup taken before any change (default: ~/.kube/upjet/backups)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l timeout -d 'How long to wait for the provider at each wait step: `5m`, `90s`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l concurrency -l parallel -d 'With -f: how many MRs are being changed at the same time (1-64), each under its own backup, conditional writes and verification; an MR whose adoption is written is verified without holding a slot' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l cloud-audit -d 'Read the cloud\'s own audit record: which objects the provider created for each MR, and who deleted them (repeatable; `-` for stdin; gzip accepted): AWS CloudTrail (`aws cloudtrail lookup-events` JSON, log files from S3, Lake or Athena JSON lines), GCP audit logs (`gcloud logging read --format=json`, sink JSON lines), the Azure activity log (`az monitor activity-log list -o json`, `{"records": …}` exports). See docs/cloud-audit.md' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l cloud-principal -d 'The provider\'s cloud identity, for provider configs whose healthy MRs\' creates are not in the record (repeatable): an AWS role ARN or name, a GCP service-account email, an Azure caller' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l journal -d 'Read the ID journal `kubectl upjet watch` keeps in DIR (default: the folder watch writes for this context, ~/.kube/upjet/journal/<context>/, when it exists): an ID recorded for the MR (its uid) is suggested to the findings that want one and ranked first' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l id-template -d 'The kind\'s cloud ID format (repeatable, KIND=TEMPLATE, see docs/id-templates.md): without --id, the ID it gives for the MR is offered among the candidates on a terminal, and used otherwise (add --import to have the provider confirm it first)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l import -d 'Verify first: observe the ID with managementPolicies ["Observe"] (no create, update or delete possible), and only restore the original policies once the provider found it. If it does not exist, the MR is put back exactly as it was. Recommended for orphans'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l force -d 'Adopt even while an operation may still be running (an asynchronous one, or a create within the reconcile timeout), or over an unfinished adoption of another ID'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -s y -l yes -d 'Do not ask for confirmation (required when there is no terminal)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l add-late-initialize -d 'Add LateInitialize to spec.managementPolicies when it is missing, so upjet persists an external-name it learns later'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l pause-composite -d 'When the MR\'s composition sets its external-name (or policies), pause its XR (crossplane.io/paused) for the adoption, backed up first, and put its pause back after; says what the composition must carry so that the next compose keeps the ID'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l probe -d 'With -f and --import: try each item\'s candidate IDs in rank order (its "id", then its "candidates") and keep the first the provider finds; after each miss the MR is put back exactly as it was before the next candidate is tried. Without it only the first is used'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l dry-run -d 'Print the plan and every patch, and send the patches with server-side dryRun=All: nothing is changed and no backup is written'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand adopt" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -s y -l yes -d 'Do not ask for confirmation (required when there is no terminal)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -l dry-run -d 'Print the patch and send it with server-side dryRun=All; nothing is changed'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l modifiers -d 'Where to write the resource modifiers (the YAML `kubectl create cm --from-file` puts into the ConfigMap Velero reads): every MR at risk is restored with managementPolicies ["Observe"] and its best known external-name, paused too when no ID is known; the others get no rule' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l plan -d 'Where to write the promote plan (`kubectl upjet promote -f FILE` after the restore)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l backup-name -d 'The backup\'s name for `velero restore create --from-backup` (default: the file name without -data.tar.gz, or the folder\'s name)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l config-map -d 'The ConfigMap\'s name (default: upjet-restore-BACKUP_NAME)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l cloud-audit -d 'Read the cloud\'s own audit record: which objects the provider created for each MR, and who deleted them (repeatable; `-` for stdin; gzip accepted): AWS CloudTrail (`aws cloudtrail lookup-events` JSON, log files from S3, Lake or Athena JSON lines), GCP audit logs (`gcloud logging read --format=json`, sink JSON lines), the Azure activity log (`az monitor activity-log list -o json`, `{"records": …}` exports). See docs/cloud-audit.md' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l cloud-principal -d 'The provider\'s cloud identity, for provider configs whose healthy MRs\' creates are not in the record (repeatable): an AWS role ARN or name, a GCP service-account email, an Azure caller' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l journal -d 'Read the ID journal `kubectl upjet watch` keeps in DIR (default: the folder watch writes for this context, ~/.kube/upjet/journal/<context>/, when it exists): an ID recorded for the MR (its uid) is suggested to the findings that want one and ranked first' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l source-context -d 'The live cluster the backup was taken from: MRs whose cloud object it still manages are restored observing only (RestoreIntoFight)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l target-context -d 'The live cluster the backup will be restored into: MRs of kinds whose ManagedResourceDefinition is inactive there are not restored at all; the command that activates each kind is printed' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l id-template -d 'A kind\'s cloud ID format for MRs restored without one (repeatable; see doctor --id-template)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l inventory -d 'A cloud inventory export to find IDs in (repeatable; see doctor --inventory)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l force -d 'Overwrite --modifiers and --plan when they exist'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand restore-plan" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -s f -l filename -d 'The promote plan `restore-plan` wrote' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l parallel -d 'How many MRs are verified and promoted at the same time (1-64)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l timeout -d 'How long to wait for the provider at each wait: `5m`, `90s`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l backup-dir -d 'Where to write the backup taken before each MR\'s first change (default: ~/.kube/upjet/backups)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l dry-run -d 'Print every patch and send it with server-side dryRun=All: nothing is changed and no backup is written'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -s y -l yes -d 'Do not ask for confirmation (required when there is no terminal)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l source-released -d 'The source cluster no longer manages the objects of RestoreIntoFight items (you paused or removed those MRs there): promote them too'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand promote" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -f -a "plan" -d 'Write a migration plan: each legacy MR\'s namespaced twin (checked against its CRD and, with a cluster, a server-side dry run), or why it is not migrated'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -f -a "apply" -d 'Carry a plan out, MR by MR: hold the legacy MR, create its twin observing only, wait until its Observe found the object, give it its final policies, delete the legacy MR'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -f -a "status" -d 'Where each MR of a plan stands'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and not __fish_seen_subcommand_from plan apply status help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l to-namespace -d 'The namespace every migrated MR goes to' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l namespace-from -d 'Each MR\'s namespace from its own label or annotation: label=KEY or annotation=KEY' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l drop-field -d 'Leave a forProvider/initProvider field out when the namespaced kind lacks it (repeatable; spec.forProvider.a.b)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l provider-config-kind -d 'The kind of every providerConfigRef (default: the CRD\'s default, ClusterProviderConfig)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l from -d 'Offline: snapshots of the legacy MRs (kubectl get managed -o json) and, beside them, the CRDs of the namespaced kinds (repeatable; files or folders)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -s o -l output -d 'Where to write the plan' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l all -d 'Every legacy MR of every provider'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l force -d 'Overwrite the plan file when it exists'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from plan" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -s f -l filename -d 'The plan `migrate plan` wrote' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l parallel -d 'How many MRs are migrated at the same time (1-64)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l timeout -d 'How long to wait for the provider at each wait: `5m`, `90s`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l backup-dir -d 'Where to write the backup of each legacy MR before its first change (default: ~/.kube/upjet/backups)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l dry-run -d 'Send every write with server-side dryRun=All: nothing is changed and no backup is written'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -s y -l yes -d 'Do not ask for confirmation (required when there is no terminal)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l keep-legacy -d 'Leave each legacy MR in place, paused and unable to delete, instead of deleting it'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l observe-only -d 'Stop once each namespaced MR\'s Observe found its object: it stays observing only, the legacy MR stays paused. A later apply without this flag finishes'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from apply" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -s f -l filename -d 'The plan `migrate plan` wrote' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from status" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from help" -f -a "plan" -d 'Write a migration plan: each legacy MR\'s namespaced twin (checked against its CRD and, with a cluster, a server-side dry run), or why it is not migrated'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from help" -f -a "apply" -d 'Carry a plan out, MR by MR: hold the legacy MR, create its twin observing only, wait until its Observe found the object, give it its final policies, delete the legacy MR'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from help" -f -a "status" -d 'Where each MR of a plan stands'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand migrate; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -l kind -d 'Only these kinds: kind, plural or kind.group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -l provider -d 'Only this provider: a group suffix (aws.upbound.io) or a provider name (provider-aws-ec2)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -s o -l output -d 'Output format' -r -f -a "yaml\t'A YAML `List` of ClusterRoles'
json\t'A JSON `List` of ClusterRoles'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand rbac" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -f -a "argocd" -d 'Print the argocd-cm entry that installs a Lua health check for the upjet groups: Argo CD\'s built-in verdicts, plus lost identity and stuck creates as Degraded, paused as Suspended'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -f -a "flux" -d 'Print a Flux Kustomization\'s healthCheckExprs (CEL) for the managed kinds this cluster serves'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and not __fish_seen_subcommand_from argocd flux help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -l group -d 'API groups the check covers, as globs: every kind of each (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -l argocd-namespace -d 'The namespace of argocd-cm, for -o yaml and -o json' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -l create-timeout -d 'The providers\' reconcile timeout: a create pending for less may still be running' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -s o -l output -d 'Output format' -r -f -a "entry\t'The `resource.customizations` entry, as written under the ConfigMap\'s `data:`'
yaml\t'The argocd-cm ConfigMap holding only that entry (a merge patch)'
json\t'The same ConfigMap as JSON'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from argocd" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -l kind -d 'Only these kinds: kind, plural or kind.group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -l provider -d 'Only this provider: a group suffix (aws.upbound.io) or a provider name (provider-aws-ec2)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -s o -l output -d 'Output format' -r -f -a "yaml\t'`spec.healthCheckExprs` as YAML, to merge into a Kustomization'
json\t'The same as JSON'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from flux" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from help" -f -a "argocd" -d 'Print the argocd-cm entry that installs a Lua health check for the upjet groups: Argo CD\'s built-in verdicts, plus lost identity and stuck creates as Degraded, paused as Suspended'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from help" -f -a "flux" -d 'Print a Flux Kustomization\'s healthCheckExprs (CEL) for the managed kinds this cluster serves'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand health; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l kind -d 'Only these kinds: kind, plural or kind.group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l provider -d 'Only this provider: a group suffix (aws.upbound.io) or a provider name (provider-aws-ec2)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l warn -d 'Only warn when this rule is broken (repeatable)' -r -f -a "identity-kept\t''
identity-locked\t''
external-name-format\t''
management-policies\t''
late-initialize\t''
pending-resolved\t''
placeholder\t''"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l deny -d 'Refuse the writes that break this rule (repeatable)' -r -f -a "identity-kept\t''
identity-locked\t''
external-name-format\t''
management-policies\t''
late-initialize\t''
pending-resolved\t''
placeholder\t''"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l allow-user -d 'Never judge this user\'s writes (repeatable); the providers\' own service accounts are exempt already' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l allow-group -d 'Never judge the writes of this group\'s members (repeatable), e.g. a break-glass group' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l from -d 'Read the managed kinds from CRD files (a file or a folder, YAML or JSON) instead of a cluster: for a GitOps repository; no cluster is asked anything' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -s o -l output -d 'Output format' -r -f -a "yaml\t'A YAML `List`, for `kubectl apply -f -`'
json\t'A JSON `List`'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l id-template -d 'A kind\'s cloud ID format for the external-name-format rule (repeatable): KIND=TEMPLATE, as doctor takes it; wins over the format learned from healthy peers. See docs/id-templates.md' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l audit -d 'Put every rule in Audit, whatever --warn and --deny say: nothing is refused or warned about, each write that breaks a rule is recorded in the API server\'s audit log'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l mutate -d 'Also print a MutatingAdmissionPolicy that puts the locked ID back on a create that lacks it (Kubernetes v1.36+)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l authorize-declarations -d 'A repair\'s declaration of an identity change (kubectl-upjet.io/identity-change) counts only for a user the API server\'s authorizer allows `declare` on identitychanges.guard.kubectl-upjet.io (the ClusterRole kubectl-upjet-guard-declare); without it, anyone who may update an MR may declare'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -f -a "lock" -d 'Write the lock: every MR\'s current ID (and the IDs the ID journal holds for MRs gone since), so that an MR created again without its ID is refused'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -f -a "unlock" -d 'Remove one MR\'s entry from the lock, once its cloud object is really gone'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and not __fish_seen_subcommand_from lock unlock help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -l kind -d 'Only these kinds: kind, plural or kind.group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -l provider -d 'Only this provider: a group suffix (aws.upbound.io) or a provider name (provider-aws-ec2)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -l journal -d 'Read the ID journal `kubectl upjet watch` keeps in DIR (default: the folder watch writes for this context, ~/.kube/upjet/journal/<context>/, when it exists): for each MR it recorded that no live MR answers for, the newest external-name is locked too' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from lock" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from unlock" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from help" -f -a "lock" -d 'Write the lock: every MR\'s current ID (and the IDs the ID journal holds for MRs gone since), so that an MR created again without its ID is refused'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from help" -f -a "unlock" -d 'Remove one MR\'s entry from the lock, once its cloud object is really gone'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand guard; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l metrics-addr -d 'Serve /metrics (Prometheus text format), /healthz and /readyz on HOST:PORT (`:9090`: every interface)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l resync -d 'How often every MR is judged again without an event (findings that depend on time: an async operation\'s deadline passing, a create pending for too long), and the provider pods (and, with --logs, their logs) are looked at' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l create-timeout -d 'The providers\' reconcile timeout: a create pending for less may still be running' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -s o -l output -d 'Output format' -r -f -a "text\t'One line per finding that appears or clears, for a person'
json\t'One JSON object per line'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l journal -d 'The ID journal\'s folder (default: ~/.kube/upjet/journal/<context>/; with several contexts, one folder per context inside DIR)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l provider-namespace -d 'Where the provider pods run (default: found from their labels in any namespace)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l context -d 'The name of the kubeconfig context to use; doctor and watch take several' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -s n -l namespace -d 'The namespace of the MR a command names, or the only one a scan reads (cluster-scoped MRs are always included)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l no-journal -d 'Keep no ID journal'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l events -d 'Record a Kubernetes Event (type Warning, reason = the code) on the MR each time an error finding appears, deduplicated as client-go\'s recorder does (a repeat raises the Event\'s count); needs deploy/clusterrole-watch-events.yaml'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l guard-lock -d 'Keep the guard\'s lock current (`kubectl upjet guard lock`, docs/guard.md): each MR\'s ID recorded as it is seen, an MR\'s entry removed when its deletion deleted its cloud object'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l logs -d 'Follow the provider pods\' logs (current container, and the previous one after each restart) and journal every ID a provider logs as created (source `log`)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l no-headers -d 'Do not print the header line'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l all-contexts -d 'Every context of the merged kubeconfig, for doctor and watch'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -s A -l all-namespaces -d 'All namespaces, even with -n (what a scan reads by default: MRs are fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand watch" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor history completion adopt restore restore-plan promote migrate rbac health guard watch help" -f -a "doctor" -d 'List managed resources whose creation or identity tracking is broken'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor history completion adopt restore restore-plan promote migrate rbac health guard watch help" -f -a "history" -d 'Show the create history of one MR as a timeline, with the last provider-logged external ID'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor history completion adopt restore restore-plan promote migrate rbac health guard watch help" -f -a "completion" -d 'Print a shell completion script'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor history completion adopt restore restore-plan promote migrate rbac health guard watch help" -f -a "adopt" -d 'Make a managed resource track an existing cloud object (safely: backup, dry-run, undo)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor history completion adopt restore restore-plan promote migrate rbac health guard watch help" -f -a "restore" -d 'Put annotations and management policies back from an adopt backup'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor history completion adopt restore restore-plan promote migrate rbac health guard watch help" -f -a "restore-plan" -d 'Stage a Velero restore so that nothing is created twice: a resource-modifiers ConfigMap (MRs at risk restored observing only) and a promote plan'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor history completion adopt restore restore-plan promote migrate rbac health guard watch help" -f -a "promote" -d 'After a staged restore: check each MR\'s Observe found its object, then put its management policies back (backup first, conditional writes, resumable)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor history completion adopt restore restore-plan promote migrate rbac health guard watch help" -f -a "migrate" -d 'Move legacy cluster-scoped MRs to their namespaced Crossplane v2 kinds, identity kept: plan, apply (resumable, no duplicate, no deletion), status'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor history completion adopt restore restore-plan promote migrate rbac health guard watch help" -f -a "rbac" -d 'Print least-privilege ClusterRoles for the managed kinds this cluster serves (read, and patch for adopt), for `kubectl apply -f -`'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor history completion adopt restore restore-plan promote migrate rbac health guard watch help" -f -a "health" -d 'Print the health checks Argo CD (Lua) and Flux (CEL) should run on MRs, so that a GitOps UI shows a stuck create, a lost external-name or a pause for what it is'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor history completion adopt restore restore-plan promote migrate rbac health guard watch help" -f -a "guard" -d 'Print admission policies the API server enforces so that one write cannot drop, change or forget an MR\'s identity (Kubernetes v1.30+); `guard lock` records every MR\'s ID for them'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor history completion adopt restore restore-plan promote migrate rbac health guard watch help" -f -a "watch" -d 'Watch every managed resource: a line when a finding appears or clears, Prometheus metrics, and a journal of every ID seen'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor history completion adopt restore restore-plan promote migrate rbac health guard watch help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and __fish_seen_subcommand_from migrate" -f -a "plan" -d 'Write a migration plan: each legacy MR\'s namespaced twin (checked against its CRD and, with a cluster, a server-side dry run), or why it is not migrated'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and __fish_seen_subcommand_from migrate" -f -a "apply" -d 'Carry a plan out, MR by MR: hold the legacy MR, create its twin observing only, wait until its Observe found the object, give it its final policies, delete the legacy MR'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and __fish_seen_subcommand_from migrate" -f -a "status" -d 'Where each MR of a plan stands'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and __fish_seen_subcommand_from health" -f -a "argocd" -d 'Print the argocd-cm entry that installs a Lua health check for the upjet groups: Argo CD\'s built-in verdicts, plus lost identity and stuck creates as Degraded, paused as Suspended'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and __fish_seen_subcommand_from health" -f -a "flux" -d 'Print a Flux Kustomization\'s healthCheckExprs (CEL) for the managed kinds this cluster serves'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and __fish_seen_subcommand_from guard" -f -a "lock" -d 'Write the lock: every MR\'s current ID (and the IDs the ID journal holds for MRs gone since), so that an MR created again without its ID is refused'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and __fish_seen_subcommand_from guard" -f -a "unlock" -d 'Remove one MR\'s entry from the lock, once its cloud object is really gone'
