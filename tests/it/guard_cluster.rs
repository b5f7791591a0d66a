//! `kubectl upjet guard` through the real binary: the policies printed for the managed kinds an
//! in-process API server serves (its provider pods' and Deployments' service accounts exempt, a
//! provider scaled to zero included; each kind's ID
//! format learned from its healthy MRs), the same bytes run after run and every field the API
//! server defaults present, Kubernetes v1.36's schemas passed; a cluster too old refused naming
//! its release; the same policies from CRD files (`--from`); and a kind whose CRD's schema
//! changed. The lock is `guard_lock.rs`.

use crate::guard_manifests::{assert_defaulted, schema_file, validator};
use crate::support::{Cluster, Mr, Upjet, crd_dir};
use serde_json::{Value, json};

pub(crate) const AWS: &str = "provider-upjet-aws";
pub(crate) const VPC: &str = "ec2.aws.upbound.io_vpcs.yaml";
pub(crate) const VPC_M: &str = "ec2.aws.m.upbound.io_vpcs.yaml";
pub(crate) const V1: &str = "ec2.aws.upbound.io/v1beta1";
pub(crate) const V1_M: &str = "ec2.aws.m.upbound.io/v1beta1";
const SA: &str = "system:serviceaccount:crossplane-system:provider-aws-ec2-1a2b3c";

/// A provider pod of `provider-aws-ec2`, running as its revision's service account.
pub(crate) fn provider_pod() -> Value {
    json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "provider-aws-ec2-1a2b3c-abcde", "namespace": "crossplane-system",
                     "labels": {"pkg.crossplane.io/provider": "provider-aws-ec2", "pkg.crossplane.io/revision": "provider-aws-ec2-1a2b3c"}},
        "spec": {"serviceAccountName": "provider-aws-ec2-1a2b3c", "containers": [{"name": "package-runtime", "image": "xpkg.upbound.io/upbound/provider-aws-ec2:v1"}]},
        "status": {"phase": "Running", "startTime": "2024-11-30T09:00:00Z"}})
}

/// Kubernetes v1.36 serving the legacy and the namespaced VPC: four healthy cluster-scoped VPCs
/// (their external-name is their name: a format peers agree on) and one namespaced.
fn cluster() -> Cluster {
    let c = Cluster::builder().crd_files(AWS, &[VPC, VPC_M]).version("1", "36", "v1.36.0").start();
    c.add(provider_pod());
    for name in ["main", "edge", "core", "lab"] {
        c.add(Mr::provisioned(V1, "VPC", name).json());
    }
    c.add(Mr::provisioned(V1_M, "VPC", "web").namespace("default").json());
    c
}

/// `guard ARGS` against `c`.
fn guard(c: &Cluster, args: &[&str]) -> Upjet {
    let mut cmd = c.upjet();
    cmd.arg("guard").args(args);
    cmd
}

fn items(yaml: &str) -> Vec<Value> {
    let list: Value = serde_saphyr::from_str(yaml).expect("a YAML List");
    assert_eq!((list["apiVersion"].as_str(), list["kind"].as_str()), (Some("v1"), Some("List")));
    list["items"].as_array().unwrap().clone()
}

/// Every API group a policy's resource rules name, sorted.
fn groups(policy: &Value) -> Vec<String> {
    let rules = policy["spec"]["matchConstraints"]["resourceRules"].as_array().unwrap();
    let mut out: Vec<String> = rules
        .iter()
        .flat_map(|r| r["apiGroups"].as_array().unwrap().iter().map(|g| g.as_str().unwrap().to_string()))
        .collect();
    out.sort();
    out.dedup();
    out
}

fn named<'a>(items: &'a [Value], name: &str) -> &'a Value {
    items.iter().find(|i| i["metadata"]["name"] == name).unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn guard_prints_the_served_kinds_policies_the_same_each_time_with_every_default() {
    let c = cluster();
    let run = guard(&c, &[]).stderr("7 policies (identity-kept Deny, identity-locked Deny, external-name-format Warn, management-policies Deny, late-initialize Warn, pending-resolved Warn, placeholder Warn) for 2 managed kinds in 2 API groups; an ID format for 1; never judged: 1 users, 0 groups\n").run();
    let (yaml, stderr) = (run.stdout, run.stderr);
    assert_eq!(guard(&c, &[]).stderr("7 policies (identity-kept Deny, identity-locked Deny, external-name-format Warn, management-policies Deny, late-initialize Warn, pending-resolved Warn, placeholder Warn) for 2 managed kinds in 2 API groups; an ID format for 1; never judged: 1 users, 0 groups\n").run().stdout, yaml, "the same cluster state prints the same bytes");
    let items = items(&yaml);
    assert_eq!(items[0]["kind"], "CustomResourceDefinition", "the lock's CRD first");
    assert!(items.iter().all(|i| i["kind"] != "IdentityLock"), "the lock's shards are guard lock's to write");
    for obj in &items {
        assert!(validator(schema_file(obj["kind"].as_str().unwrap())).is_valid(obj), "{}", obj["metadata"]["name"]);
        assert_defaulted(obj);
    }
    let kept = named(&items, "kubectl-upjet-guard-identity-kept");
    assert!(kept["spec"]["matchConditions"].to_string().contains(SA), "the provider's service account is exempt");
    let binding = items.iter().find(|i| i["spec"]["policyName"] == "kubectl-upjet-guard-identity-kept").unwrap();
    assert_eq!(binding["spec"]["validationActions"], json!(["Deny"]));
    assert_eq!(groups(kept), ["ec2.aws.m.upbound.io", "ec2.aws.upbound.io"]);
    let format = named(&items, "kubectl-upjet-guard-external-name-format");
    assert_eq!(groups(format), ["ec2.aws.upbound.io"], "four healthy peers teach a format, one does not");
    assert!(stderr.contains("for 2 managed kinds in 2 API groups; an ID format for 1"), "{stderr}");
    let json_out = guard(&c, &["-o", "json"]).stderr("7 policies (identity-kept Deny, identity-locked Deny, external-name-format Warn, management-policies Deny, late-initialize Warn, pending-resolved Warn, placeholder Warn) for 2 managed kinds in 2 API groups; an ID format for 1; never judged: 1 users, 0 groups\n").run().stdout;
    let parsed: Value = serde_json::from_str(&json_out).unwrap();
    assert_eq!(parsed["items"].as_array().unwrap(), &items, "-o json prints the same objects");
}

/// `provider-aws-s3`'s Deployment as Crossplane's package runtime writes it while safe-start
/// waits for one of its ManagedResourceDefinitions to be active: zero replicas, the provider
/// label on its selector and pod template only, its service account named by its
/// DeploymentRuntimeConfig.
pub(crate) fn scaled_to_zero_deployment() -> Value {
    let labels = json!({"pkg.crossplane.io/provider": "provider-aws-s3", "pkg.crossplane.io/revision": "provider-aws-s3-9f8e7d"});
    json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "provider-aws-s3-9f8e7d", "namespace": "crossplane-system",
                     "ownerReferences": [{"apiVersion": "pkg.crossplane.io/v1", "kind": "ProviderRevision",
                                          "name": "provider-aws-s3-9f8e7d", "uid": "0b5a8d2c-0000-4000-8000-00000000000d", "controller": true}]},
        "spec": {"replicas": 0, "selector": {"matchLabels": labels},
                 "template": {"metadata": {"labels": labels},
                              "spec": {"serviceAccountName": "provider-aws-s3-irsa",
                                       "containers": [{"name": "package-runtime", "image": "xpkg.upbound.io/upbound/provider-aws-s3:v2"}]}}},
        "status": {"replicas": 0}})
}

/// Safe-start keeps a provider at zero replicas until one of its MRDs is active: it has no pod,
/// so its service account is found from its Deployment, and exempt all the same.
#[test]
fn a_provider_scaled_to_zero_is_exempt_from_its_deployment() {
    let c = cluster();
    c.add(scaled_to_zero_deployment());
    let run = guard(&c, &[]).stderr("provider-aws-s3: its Deployment crossplane-system/provider-aws-s3-9f8e7d runs no pod (scaled to zero until one of its ManagedResourceDefinitions is active); its service account provider-aws-s3-irsa is exempt all the same\n7 policies (identity-kept Deny, identity-locked Deny, external-name-format Warn, management-policies Deny, late-initialize Warn, pending-resolved Warn, placeholder Warn) for 2 managed kinds in 2 API groups; an ID format for 1; never judged: 2 users, 0 groups\n").run();
    let (yaml, stderr) = (run.stdout, run.stderr);
    let kept = named(&items(&yaml), "kubectl-upjet-guard-identity-kept").clone();
    let conditions = kept["spec"]["matchConditions"].to_string();
    assert!(conditions.contains(SA), "the running provider: {conditions}");
    assert!(conditions.contains("system:serviceaccount:crossplane-system:provider-aws-s3-irsa"), "{conditions}");
    assert!(
        stderr.contains("provider-aws-s3: its Deployment crossplane-system/provider-aws-s3-9f8e7d runs no pod (scaled to zero until one of its ManagedResourceDefinitions is active); its service account provider-aws-s3-irsa is exempt all the same"),
        "{stderr}"
    );
    assert!(stderr.contains("never judged: 2 users"), "{stderr}");
}

#[test]
fn each_rules_action_follows_warn_deny_and_audit() {
    let c = cluster();
    let actions = |args: &[&str]| -> Vec<(String, String)> {
        let said = r"\A7 policies \(.+\) for 2 managed kinds in 2 API groups; an ID format for 1; never judged: 1 users, \d groups\n\z";
        items(&guard(&c, args).stderr_matches(said).run().stdout)
            .iter()
            .filter(|i| i["kind"] == "ValidatingAdmissionPolicyBinding")
            .map(|b| {
                (b["metadata"]["name"].as_str().unwrap().to_string(), b["spec"]["validationActions"][0].to_string())
            })
            .collect()
    };
    let got = actions(&["--warn", "identity-kept", "--deny", "placeholder", "--allow-group", "ops:break-glass"]);
    let of = |rule: &str| got.iter().find(|(n, _)| n.ends_with(rule)).map(|(_, a)| a.as_str());
    assert_eq!(
        (of("identity-kept"), of("placeholder"), of("identity-locked")),
        (Some("\"Warn\""), Some("\"Deny\""), Some("\"Deny\""))
    );
    assert!(actions(&["--audit", "--deny", "placeholder"]).iter().all(|(_, a)| a == "\"Audit\""), "--audit wins");
    let refused = c
        .upjet()
        .args(["guard", "--warn", "placeholder", "--deny", "placeholder"])
        .status(2)
        .stderr("error: --warn placeholder and --deny placeholder: a rule has one action; give one of them\n")
        .run();
    assert!(refused.stderr.contains("a rule has one action"), "{}", refused.stderr);
    let mutate = items(&guard(&c, &["--mutate"]).stderr("7 policies (identity-kept Deny, identity-locked Deny, external-name-format Warn, management-policies Deny, late-initialize Warn, pending-resolved Warn, placeholder Warn) and identity-locked's MutatingAdmissionPolicy for 2 managed kinds in 2 API groups; an ID format for 1; never judged: 1 users, 0 groups\n").run().stdout);
    assert!(mutate.iter().any(|i| i["kind"] == "MutatingAdmissionPolicy"));
}

#[test]
fn a_cluster_older_than_v1_30_is_refused_naming_its_release_and_from_prints_anyway() {
    let old = Cluster::builder().crd_files(AWS, &[VPC, VPC_M]).version("1", "29+", "v1.29.8-gke.1031000").start();
    let out = old.upjet().arg("guard").status(2).stderr("error: the cluster runs Kubernetes v1.29.8-gke.1031000: ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1) needs v1.30 or later; pass --from CRDS_DIR to print the policies anyway\n").run();
    let said = &out.stderr;
    assert!(said.contains("v1.29.8-gke.1031000") && said.contains("v1.30") && said.contains("--from"), "{said}");
    assert!(out.stdout.is_empty(), "nothing printed for a cluster that cannot enforce it");
    let v135 = Cluster::builder().crd_files(AWS, &[VPC]).version("1", "35", "v1.35.2").start();
    v135.add(provider_pod());
    guard(&v135, &[]).stderr("6 policies (identity-kept Deny, identity-locked Deny, management-policies Deny, late-initialize Warn, pending-resolved Warn, placeholder Warn) for 1 managed kinds in 1 API groups; an ID format for 0; never judged: 1 users, 0 groups\n").run();
    let out = v135.upjet().args(["guard", "--mutate"]).status(2).stderr("error: the cluster runs Kubernetes v1.35.2: --mutate's MutatingAdmissionPolicy (admissionregistration.k8s.io/v1) needs v1.36 or later; drop --mutate (the validating policies refuse such a create instead)\n").run();
    assert!(out.stderr.contains("v1.35.2") && out.stderr.contains("drop --mutate"));
    // A CRD file, read in place: the cluster is not asked (it would refuse).
    let offline = old.upjet().args(["guard", "--from"]).arg(crd_dir(AWS).join(VPC)).stderr("--from: no cluster was asked, so no provider service account is exempt; pass --allow-group system:serviceaccounts:NAMESPACE (the providers' namespace) to exempt them\n6 policies (identity-kept Deny, identity-locked Deny, management-policies Deny, late-initialize Warn, pending-resolved Warn, placeholder Warn) for 1 managed kinds in 1 API groups; an ID format for 0; never judged: 0 users, 0 groups\n").run();
    assert!(offline.stderr.contains("--allow-group system:serviceaccounts:"), "{}", offline.stderr);
    assert_eq!(groups(named(&items(&offline.stdout), "kubectl-upjet-guard-identity-kept")), ["ec2.aws.upbound.io"]);
}

#[test]
fn from_prints_what_a_cluster_serving_the_same_crds_prints_and_refuses_a_folder_without_managed_kinds() {
    let args = ["--kind", "vpc", "--id-template", "vpc.ec2.aws.upbound.io=vpc-{name}"];
    let offline = crate::support::upjet().args(["guard", "--from"]).arg(crd_dir(AWS)).args(args).stderr("--from: no cluster was asked, so no provider service account is exempt; pass --allow-group system:serviceaccounts:NAMESPACE (the providers' namespace) to exempt them\n7 policies (identity-kept Deny, identity-locked Deny, external-name-format Warn, management-policies Deny, late-initialize Warn, pending-resolved Warn, placeholder Warn) for 2 managed kinds in 2 API groups; an ID format for 1; never judged: 0 users, 0 groups\n").run();
    // A cluster serving the same CRDs, with no provider pod and no MR to learn from.
    let bare = Cluster::builder().crd_files(AWS, &[VPC, VPC_M]).version("1", "36", "v1.36.0").start();
    assert_eq!(guard(&bare, &args).stderr("no provider pod or Deployment found (label pkg.crossplane.io/provider): no provider service account is exempt; pass --allow-group system:serviceaccounts:NAMESPACE (the providers' namespace)\n7 policies (identity-kept Deny, identity-locked Deny, external-name-format Warn, management-policies Deny, late-initialize Warn, pending-resolved Warn, placeholder Warn) for 2 managed kinds in 2 API groups; an ID format for 1; never judged: 0 users, 0 groups\n").run().stdout, offline.stdout, "the same bytes from the files of the provider");
    let items = items(&offline.stdout);
    assert_eq!(
        groups(named(&items, "kubectl-upjet-guard-identity-kept")),
        ["ec2.aws.m.upbound.io", "ec2.aws.upbound.io"]
    );
    assert_eq!(groups(named(&items, "kubectl-upjet-guard-external-name-format")), ["ec2.aws.upbound.io"]);
    let none = crate::support::upjet().args(["guard", "--from"]).arg(crd_dir("crossplane")).status(2).stderr(format!("error: {} holds no CustomResourceDefinition of the `managed` category (a provider's CRDs, as `kubectl get crd -o yaml` writes them)\n", crd_dir("crossplane").display())).run();
    let said = &none.stderr;
    assert!(said.contains("no CustomResourceDefinition of the `managed` category"), "{said}");
}

/// The VPC's CRD as a provider upgrade changes it: a new version, v1beta2, now the storage one,
/// with another schema.
fn upgraded_vpc_crd() -> String {
    let mut crd: Value = serde_saphyr::from_str(&std::fs::read_to_string(crd_dir(AWS).join(VPC)).unwrap()).unwrap();
    let versions = crd["spec"]["versions"].as_array_mut().unwrap();
    let mut next = versions.iter().find(|v| v["storage"] == true).unwrap().clone();
    for v in versions.iter_mut() {
        v["storage"] = json!(false);
    }
    next["name"] = json!("v1beta2");
    next["schema"]["openAPIV3Schema"]["properties"]["spec"]["properties"]["forProvider"]["properties"]["ipv4CidrBlock"] =
        json!({"type": "string"});
    versions.push(next);
    crd.to_string()
}

#[test]
fn a_kind_whose_crd_changed_schema_keeps_the_same_policies_and_lock_keys() {
    let c = Cluster::builder().crd_files(AWS, &[VPC]).version("1", "36", "v1.36.0").guard_lock().start();
    c.add(provider_pod());
    for name in ["main", "edge", "core"] {
        c.add(Mr::provisioned(V1, "VPC", name).json());
    }
    let before = guard(&c, &[]).stderr("7 policies (identity-kept Deny, identity-locked Deny, external-name-format Warn, management-policies Deny, late-initialize Warn, pending-resolved Warn, placeholder Warn) for 1 managed kinds in 1 API groups; an ID format for 1; never judged: 1 users, 0 groups\n").run().stdout;
    c.upjet().args(["guard", "lock"]).run();
    c.api.add_crd_yaml(&upgraded_vpc_crd()).unwrap();
    let vpc = c.api.get("ec2.aws.upbound.io/v1beta2", "VPC", None, "main").expect("served at v1beta2");
    assert_eq!(vpc["apiVersion"], "ec2.aws.upbound.io/v1beta2");
    let after = guard(&c, &[]).stderr("7 policies (identity-kept Deny, identity-locked Deny, external-name-format Warn, management-policies Deny, late-initialize Warn, pending-resolved Warn, placeholder Warn) for 1 managed kinds in 1 API groups; an ID format for 1; never judged: 1 users, 0 groups\n").run().stdout;
    assert_eq!(
        after, before,
        "policies match group, kind and resource over every version (`*`): nothing to apply again"
    );
    let again = c.upjet().args(["guard", "lock"]).run();
    assert!(
        again.stdout.contains("the lock holds 3 IDs") && again.stdout.contains("0 shards written"),
        "{}",
        again.stdout
    );
}
