# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_kubectl_upjet_global_optspecs
    string join \n kubeconfig= context= cluster= user= n/namespace= A/all-namespaces l/selector= request-timeout= v/v= s/server= token= insecure-skip-tls-verify as= as-group= color= h/help V/version
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

complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -s n -l namespace -d 'Only this namespace (namespaced MRs); cluster-scoped MRs are always included' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -s A -l all-namespaces -d 'All namespaces (the default for doctor, which is fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "doctor" -d 'List managed resources whose creation or identity tracking is broken'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "completion" -d 'Print a shell completion script'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l kind -d 'Only these kinds: kind, plural or kind.group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l provider -d 'Only this provider: a group suffix (aws.upbound.io) or a provider name (provider-aws-ec2)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s o -l output -d 'Output format' -r -f -a "table\t'kubectl-style table'
wide\t'Table with external-name, atProvider.id and create-mark ages'
json\t'One JSON document (`upjet.doctor/v1` Report)'
yaml\t'One YAML document (`upjet.doctor/v1` Report)'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l severity -d 'Show only findings at or above this severity' -r -f -a "info\t'Context worth knowing; nothing is broken'
warning\t'Something is likely to go wrong or hides a problem'
error\t'Tracking of a cloud object is broken or about to be'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l only -d 'Show only these codes (repeatable or comma-separated)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l ignore -d 'Hide these codes (repeatable or comma-separated)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l fail-on -d 'Exit 1 when a finding at or above this severity is shown' -r -f -a "info\t'Any finding'
warning\t'Warnings and errors'
error\t'Errors only (default)'
never\t'Never exit 1 because of findings'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l from -d 'Analyse a snapshot instead of a cluster: `kubectl get managed -A -o json` output (a List), or a directory of such files (JSON or YAML)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l concurrency -d 'How many list requests may be in flight at once' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s n -l namespace -d 'Only this namespace (namespaced MRs); cluster-scoped MRs are always included' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l no-headers -d 'Do not print the table header'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s A -l all-namespaces -d 'All namespaces (the default for doctor, which is fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand doctor" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l install-dir -d 'With kubectl-plugin: the directory on PATH to write `kubectl_complete-upjet` into' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l kubeconfig -d 'Path to the kubeconfig file to use (default: $KUBECONFIG, then ~/.kube/config)' -r -F
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l context -d 'The name of the kubeconfig context to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l cluster -d 'The name of the kubeconfig cluster to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l user -d 'The name of the kubeconfig user to use' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -s n -l namespace -d 'Only this namespace (namespaced MRs); cluster-scoped MRs are always included' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -s l -l selector -d 'Label selector, e.g. `crossplane.io/claim-name=db` (kubectl\'s -l)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l request-timeout -d 'Time limit for each request: `0` (none), `30s`, `1m`; a bare number is seconds' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -s v -l v -d 'Log verbosity like kubectl\'s -v: 4 shows requests, 6+ shows HTTP details' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -s s -l server -d 'The API server address, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l token -d 'Bearer token, overriding the kubeconfig' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l as -d 'Impersonate this user' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l as-group -d 'Impersonate this group (repeatable)' -r
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l color -d 'When to colour output: auto (only on a terminal), always, never. NO_COLOR always wins' -r -f -a "auto\t'Colour when writing to a terminal and NO_COLOR is unset'
always\t'Colour unless NO_COLOR is set'
never\t'Never colour'"
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -s A -l all-namespaces -d 'All namespaces (the default for doctor, which is fleet-wide)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -l insecure-skip-tls-verify -d 'Do not verify the API server\'s certificate (insecure)'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand completion" -s V -l version -d 'Print version'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor completion help" -f -a "doctor" -d 'List managed resources whose creation or identity tracking is broken'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor completion help" -f -a "completion" -d 'Print a shell completion script'
complete -c kubectl-upjet -n "__fish_kubectl_upjet_using_subcommand help; and not __fish_seen_subcommand_from doctor completion help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
