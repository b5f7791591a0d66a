#!/usr/bin/env python3
"""Writes examples/fleet/*.json: a realistic snapshot of `kubectl get managed -A -o json` output
from several upjet providers (legacy cluster-scoped and Crossplane v2 namespaced), healthy and
broken, with at least one MR for every finding code. Rerun after changing it; output is stable."""
import json, os, uuid

OUT = os.path.join(os.path.dirname(__file__), "..", "examples", "fleet")
NS = uuid.UUID("6f1c1d2e-7a41-4d7b-9c1e-0e5a3c9b1f00")

def uid(name):
    return str(uuid.uuid5(NS, name))

def cond(t, s, reason, msg="", ltt="2024-11-30T10:55:00Z", gen=None):
    c = {"type": t, "status": s, "reason": reason, "lastTransitionTime": ltt}
    if msg:
        c["message"] = msg
    if gen is not None:
        c["observedGeneration"] = gen
    return c

def healthy(gen=1):
    # As on a real cluster: the managed reconciler stamps observedGeneration on Synced
    # (MarkConditions); upjet writes Ready=True/Available and LastAsyncOperation with plain
    # SetConditions, so they carry none.
    return [cond("Ready", "True", "Available"), cond("Synced", "True", "ReconcileSuccess", gen=gen),
            cond("LastAsyncOperation", "True", "Success")]

def mr(api, kind, name, *, ns=None, ann=None, spec=None, policies=None, deletion_policy="Delete",
       conditions=None, at=None, gen=1, created="2024-11-30T10:50:00Z", labels=None, deleting=False, provider="aws"):
    meta = {"name": name, "uid": uid((ns or "") + "/" + kind + "/" + name), "generation": gen,
            "resourceVersion": str(100000 + len(name) * 7 + gen), "creationTimestamp": created,
            "annotations": dict(ann or {}), "labels": dict(labels or {}),
            "finalizers": ["finalizer.managedresource.crossplane.io"]}
    meta["annotations"].setdefault("upjet.crossplane.io/provider-meta", json.dumps({"e2bfb730-ecaa-11e6-8f88-34363bc7c4c0": {"create": 1800000000000}}))
    if ns:
        meta["namespace"] = ns
    if deleting:
        meta["deletionTimestamp"] = "2024-11-30T12:00:00Z"
    sp = {"forProvider": spec or {}}
    if ns:
        sp["providerConfigRef"] = {"kind": "ClusterProviderConfig", "name": "default"}
    else:
        sp["providerConfigRef"] = {"name": "default"}
        sp["deletionPolicy"] = deletion_policy
    sp["managementPolicies"] = policies if policies is not None else ["*"]
    st = {"conditions": conditions if conditions is not None else healthy(gen)}
    if at is not None:
        st["atProvider"] = at
    return {"apiVersion": api, "kind": kind, "metadata": meta, "spec": sp, "status": st}

def tags(name, kind, ns=None):
    t = {"crossplane-kind": kind, "crossplane-name": name, "crossplane-providerconfig": "default", "team": "payments", "env": "prod"}
    if ns:
        t["crossplane-namespace"] = ns
    return t

CREATE_INCOMPLETE = "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed"

def aws_legacy():
    items = []
    # Healthy Route53 record (NameAsIdentifier-like templated ID).
    items.append(mr("route53.aws.upbound.io/v1beta1", "Record", "www-example-com",
        ann={"crossplane.io/external-name": "Z0123456789ABCDEFGHIJ_www.example.com_A",
             "crossplane.io/external-create-pending": "2024-11-30T10:53:06Z", "crossplane.io/external-create-succeeded": "2024-11-30T10:53:06Z"},
        spec={"name": "www.example.com", "type": "A", "ttl": 300, "zoneId": "Z0123456789ABCDEFGHIJ", "records": ["203.0.113.10"], "region": "us-east-1"},
        at={"id": "Z0123456789ABCDEFGHIJ_www.example.com_A", "fqdn": "www.example.com", "records": ["203.0.113.10"]}))
    # ExternalNameMissing + LateInitializeMissing: KMS key created async, LateInitialize not in policies (aws#1715).
    items.append(mr("kms.aws.upbound.io/v1beta1", "Key", "payments-data-key",
        ann={"crossplane.io/external-create-pending": "2024-11-30T10:51:12Z", "crossplane.io/external-create-succeeded": "2024-11-30T10:51:12Z"},
        spec={"description": "payments data key", "deletionWindowInDays": 7, "region": "eu-west-1", "tags": tags("payments-data-key", "key.kms.aws.upbound.io")},
        policies=["Observe", "Create", "Update", "Delete"], created="2024-11-30T10:39:58Z",
        at={"id": "mrk-1f2e3d4c5b6a47989a0b1c2d3e4f5a6b", "arn": "arn:aws:kms:eu-west-1:111122223333:key/mrk-1f2e3d4c5b6a47989a0b1c2d3e4f5a6b", "keyUsage": "ENCRYPT_DECRYPT"}))
    # ExternalNameDrift: external-name points at a different VPC than the one observed.
    items.append(mr("ec2.aws.upbound.io/v1beta1", "VPC", "core-vpc",
        ann={"crossplane.io/external-name": "vpc-0a1b2c3d4e5f60718", "crossplane.io/external-create-pending": "2024-11-28T08:00:01Z",
             "crossplane.io/external-create-succeeded": "2024-11-28T08:00:01Z"},
        spec={"cidrBlock": "10.20.0.0/16", "enableDnsHostnames": True, "region": "eu-west-1", "tags": tags("core-vpc", "vpc.ec2.aws.upbound.io")},
        at={"id": "vpc-0f9e8d7c6b5a49382", "arn": "arn:aws:ec2:eu-west-1:111122223333:vpc/vpc-0f9e8d7c6b5a49382", "cidrBlock": "10.20.0.0/16"}))
    # AlreadyExists (only visible in LastAsyncOperation; upjet#632 variant).
    items.append(mr("secretsmanager.aws.upbound.io/v1beta1", "Secret", "orders-db-credentials",
        ann={"crossplane.io/external-create-pending": "2024-11-30T11:02:40Z", "crossplane.io/external-create-succeeded": "2024-11-30T11:02:40Z"},
        spec={"name": "orders-db-credentials", "region": "eu-west-1", "recoveryWindowInDays": 0},
        conditions=[cond("Ready", "False", "Unavailable"), cond("Synced", "True", "ReconcileSuccess"),
                    cond("LastAsyncOperation", "False", "AsyncCreateFailure", "async create failed: failed to create the resource: [{0 creating Secrets Manager Secret (orders-db-credentials): operation error Secrets Manager: CreateSecret, https response error StatusCode: 400, RequestID: 5d2c8f1e, ResourceExistsException: The operation failed because the secret orders-db-credentials already exists.  []}]")]))
    # CreateFailed: IAM role, AccessDenied.
    items.append(mr("iam.aws.upbound.io/v1beta1", "Role", "ci-deployer",
        ann={"crossplane.io/external-name": "ci-deployer", "crossplane.io/external-create-pending": "2024-11-30T11:10:00Z",
             "crossplane.io/external-create-failed": "2024-11-30T11:10:01Z"},
        spec={"assumeRolePolicy": "{\"Version\":\"2012-10-17\",\"Statement\":[]}", "tags": tags("ci-deployer", "role.iam.aws.upbound.io")},
        conditions=[cond("Ready", "False", "Creating"), cond("Synced", "False", "ReconcileError",
                    "create failed: failed to create the resource: [{0 creating IAM Role (ci-deployer): operation error IAM: CreateRole, https response error StatusCode: 403, RequestID: 7b1f, api error AccessDenied: User is not authorized to perform: iam:CreateRole  []}]")]))
    # Paused by annotation (healthy otherwise).
    items.append(mr("s3.aws.upbound.io/v1beta1", "Bucket", "audit-logs-111122223333",
        ann={"crossplane.io/external-name": "audit-logs-111122223333", "crossplane.io/paused": "true"},
        spec={"region": "eu-west-1", "forceDestroy": False, "tags": tags("audit-logs-111122223333", "bucket.s3.aws.upbound.io")},
        conditions=[cond("Ready", "True", "Available"), cond("Synced", "False", "ReconcilePaused", gen=1), cond("LastAsyncOperation", "True", "Success")],
        at={"id": "audit-logs-111122223333", "arn": "arn:aws:s3:::audit-logs-111122223333"}))
    # MalformedAnnotation: "True" does not pause; poll interval with a space.
    items.append(mr("s3.aws.upbound.io/v1beta1", "Bucket", "static-assets-111122223333",
        ann={"crossplane.io/external-name": "static-assets-111122223333", "crossplane.io/paused": "True", "crossplane.io/poll-interval": "5 minutes"},
        spec={"region": "eu-west-1", "tags": tags("static-assets-111122223333", "bucket.s3.aws.upbound.io")},
        at={"id": "static-assets-111122223333"}))
    # DeletionBlockedByPause.
    items.append(mr("ec2.aws.upbound.io/v1beta1", "SecurityGroupRule", "legacy-ssh-ingress",
        ann={"crossplane.io/external-name": "sgrule-2387465123", "crossplane.io/paused": "true"},
        spec={"type": "ingress", "fromPort": 22, "toPort": 22, "protocol": "tcp", "cidrBlocks": ["0.0.0.0/0"], "securityGroupId": "sg-0123456789abcdef0", "region": "eu-west-1"},
        at={"id": "sgrule-2387465123"}, deleting=True))
    # KstatusMisleading: Ready True but Synced False.
    items.append(mr("ec2.aws.upbound.io/v1beta1", "Subnet", "core-private-a",
        ann={"crossplane.io/external-name": "subnet-0123abcd4567ef890"},
        spec={"cidrBlock": "10.20.1.0/24", "availabilityZone": "eu-west-1a", "vpcId": "vpc-0f9e8d7c6b5a49382", "region": "eu-west-1"},
        conditions=[cond("Ready", "True", "Available"), cond("Synced", "False", "ReconcileError", "update failed: async update failed: failed to update the resource: [{0 modifying EC2 Subnet (subnet-0123abcd4567ef890) attribute: UnauthorizedOperation  []}]")],
        at={"id": "subnet-0123abcd4567ef890"}))
    return items

def aws_namespaced():
    items = []
    api = "ec2.aws.m.upbound.io/v1beta1"
    # Healthy namespaced VPC.
    items.append(mr(api, "VPC", "team-a-vpc", ns="team-a",
        ann={"crossplane.io/external-name": "vpc-0aa11bb22cc33dd44", "crossplane.io/external-create-pending": "2024-11-29T09:00:00Z", "crossplane.io/external-create-succeeded": "2024-11-29T09:00:00Z"},
        spec={"cidrBlock": "10.30.0.0/16", "region": "eu-west-1", "tags": tags("team-a-vpc", "vpc.ec2.aws.m.upbound.io", "team-a")},
        policies=["Observe", "Create", "Update", "Delete", "LateInitialize"], at={"id": "vpc-0aa11bb22cc33dd44"}))
    # LateInitializeMissing on a fresh namespaced VPC (crossplane#5918).
    items.append(mr(api, "VPC", "team-b-vpc", ns="team-b",
        spec={"cidrBlock": "10.40.0.0/16", "region": "eu-west-1", "tags": tags("team-b-vpc", "vpc.ec2.aws.m.upbound.io", "team-b")},
        policies=["Observe", "Create", "Update", "Delete"],
        conditions=[cond("Ready", "False", "Unavailable"), cond("Synced", "True", "ReconcileSuccess")]))
    # ObserveNotFound: imported subnet with a wrong ID.
    items.append(mr(api, "Subnet", "imported-public-b", ns="team-a",
        ann={"crossplane.io/external-name": "subnet-doesnotexist000"},
        spec={"region": "eu-west-1"}, policies=["Observe"],
        conditions=[cond("Ready", "False", "Unavailable"), cond("Synced", "False", "ReconcileError", "observe failed: external resource does not exist")]))
    # AsyncInFlight: RDS instance still being created.
    items.append(mr("rds.aws.m.upbound.io/v1beta1", "Instance", "orders-db", ns="team-a",
        ann={"crossplane.io/external-name": "orders-db", "crossplane.io/external-create-pending": "2024-11-30T11:58:10Z", "crossplane.io/external-create-succeeded": "2024-11-30T11:58:10Z"},
        spec={"engine": "postgres", "engineVersion": "16.3", "instanceClass": "db.t4g.medium", "allocatedStorage": 50, "region": "eu-west-1"},
        conditions=[cond("Ready", "False", "Creating"), cond("Synced", "True", "ReconcileSuccess")]))
    # CreateInFlight and KstatusMisleading (info): just created, its first reconcile inside a
    # synchronous Create (the pending mark written, no status yet), as a real crossplane-runtime
    # reconciler leaves it while a slow cloud API answers.
    items.append(mr("s3.aws.m.upbound.io/v1beta1", "Bucket", "team-a-exports", ns="team-a",
        ann={"crossplane.io/external-create-pending": "2024-11-30T11:59:00Z"},
        spec={"region": "eu-west-1"}, conditions=[], created="2024-11-30T11:59:00Z"))
    # Ready describes an older generation (spec edited, not reconciled yet).
    items.append(mr("s3.aws.m.upbound.io/v1beta1", "Bucket", "team-a-reports", ns="team-a",
        ann={"crossplane.io/external-name": "team-a-reports-20241130"}, gen=5,
        spec={"region": "eu-west-1", "tags": {"retention": "90d"}},
        conditions=[cond("Ready", "True", "Available"), cond("Synced", "True", "ReconcileSuccess", gen=4)],
        at={"id": "team-a-reports-20241130"}))
    return items

def gcp():
    items = []
    api = "dns.gcp.upbound.io/v1beta1"
    # Healthy RecordSets from the 4,000-RecordSet benchmark (upjet#305).
    for i in range(1, 6):
        name = f"benchmarksix{i:02d}"
        items.append(mr(api, "RecordSet", name, provider="gcp",
            ann={"crossplane.io/external-name": f"projects/crossplane-bench/managedZones/bench-zone/rrsets/{name}.bench.example.com./A",
                 "crossplane.io/external-create-pending": "2023-10-18T09:12:0%dZ" % i, "crossplane.io/external-create-succeeded": "2023-10-18T09:12:0%dZ" % i},
            spec={"managedZone": "bench-zone", "name": f"{name}.bench.example.com.", "type": "A", "ttl": 300, "rrdatas": ["192.0.2.%d" % i]},
            at={"id": f"projects/crossplane-bench/managedZones/bench-zone/rrsets/{name}.bench.example.com./A"}, created="2023-10-18T09:10:00Z"))
    # CreateIncomplete: the node died between pending and the result (upjet#305).
    items.append(mr(api, "RecordSet", "benchmarksix11", provider="gcp",
        ann={"crossplane.io/external-name": "projects/crossplane-bench/managedZones/bench-zone/rrsets/benchmarksix11.bench.example.com./A",
             "crossplane.io/external-create-pending": "2023-10-18T09:14:31Z", "crossplane.io/external-create-succeeded": "2023-10-18T09:13:02Z"},
        spec={"managedZone": "bench-zone", "name": "benchmarksix11.bench.example.com.", "type": "A", "ttl": 300, "rrdatas": ["192.0.2.11"]},
        conditions=[cond("Ready", "False", "Creating"), cond("Synced", "False", "ReconcileError", CREATE_INCOMPLETE)], created="2023-10-18T09:10:00Z"))
    # AlreadyExists: GCP 409 create loop.
    # Its external-name is empty, as in upjet#305: nothing ever recorded the ID.
    items.append(mr(api, "RecordSet", "benchmarksix12", provider="gcp",
        ann={"crossplane.io/external-create-pending": "2023-10-18T10:20:00Z", "crossplane.io/external-create-failed": "2023-10-18T10:20:01Z"},
        spec={"managedZone": "bench-zone", "name": "benchmarksix12.bench.example.com.", "type": "A", "ttl": 300, "rrdatas": ["192.0.2.12"]},
        conditions=[cond("Ready", "False", "Creating"), cond("Synced", "False", "ReconcileError",
            "create failed: failed to create the resource: [{0 Error creating ResourceRecordSet: googleapi: Error 409: The resource 'entity.change.additions[benchmarksix12.bench.example.com.][A]' named 'benchmarksix12.bench.example.com. (A)' already exists, alreadyExists  []}]")],
        created="2023-10-18T09:10:00Z"))
    # Healthy bucket.
    items.append(mr("storage.gcp.upbound.io/v1beta1", "Bucket", "bench-artifacts", provider="gcp",
        ann={"crossplane.io/external-name": "bench-artifacts"}, spec={"location": "EU", "storageClass": "STANDARD"},
        at={"id": "bench-artifacts", "selfLink": "https://www.googleapis.com/storage/v1/b/bench-artifacts"}))
    return items

def azure():
    items = []
    # CreateIncomplete right after an upgrade (provider-upjet-azure#577), with a non-UTC offset.
    items.append(mr("azure.upbound.io/v1beta1", "ResourceGroup", "platform-ref-rg", provider="azure",
        ann={"crossplane.io/external-name": "platform-ref-rg", "crossplane.io/external-create-pending": "2024-11-30T12:01:07+01:00"},
        spec={"location": "West Europe", "tags": {"provisioner": "crossplane"}},
        conditions=[cond("Ready", "False", "Creating"), cond("Synced", "False", "ReconcileError", CREATE_INCOMPLETE)]))
    # AsyncFailureMasked: key vault key Ready while the last async update failed (azure#684).
    items.append(mr("keyvault.azure.upbound.io/v1beta1", "Key", "borrelli-test-2", provider="azure",
        ann={"crossplane.io/external-name": "https://kv-payments.vault.azure.net/keys/borrelli-test-2/0f3c1a9e"},
        spec={"keyType": "RSA", "keySize": 2048, "keyOpts": ["decrypt", "encrypt"], "keyVaultId": "/subscriptions/0000/resourceGroups/platform-ref-rg/providers/Microsoft.KeyVault/vaults/kv-payments"},
        conditions=[cond("Ready", "True", "Available"), cond("Synced", "True", "ReconcileSuccess"),
                    cond("LastAsyncOperation", "False", "AsyncUpdateFailure", "async update failed: failed to update the resource: [{0 updating Key: keyvault.BaseClient#UpdateKey: Failure responding to request: StatusCode=403  []}]")],
        at={"id": "https://kv-payments.vault.azure.net/keys/borrelli-test-2/0f3c1a9e"}))
    # ExternalNameMissing on a user-assigned identity (azure#802), not Ready yet but atProvider.id known.
    items.append(mr("managedidentity.azure.upbound.io/v1beta1", "UserAssignedIdentity", "workload-identity", provider="azure",
        ann={"crossplane.io/external-create-pending": "2024-11-30T10:40:00Z", "crossplane.io/external-create-succeeded": "2024-11-30T10:40:00Z"},
        spec={"location": "West Europe", "resourceGroupName": "platform-ref-rg"},
        conditions=[cond("Ready", "True", "Available"), cond("Synced", "True", "ReconcileSuccess")],
        at={"id": "/subscriptions/0000/resourceGroups/platform-ref-rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/workload-identity"}))
    return items

def fidelity_gates():
    items = []
    api = "azure.upbound.io/v1beta1"
    # ReconcileNotTriggered: the pending mark was removed by hand after the create-incomplete gate;
    # the watch ignores that annotation, so Synced still shows the gate.
    items.append(mr(api, "ResourceGroup", "platform-ref-rg-westus", provider="azure",
        ann={"crossplane.io/external-name": "platform-ref-rg-westus", "crossplane.io/external-create-succeeded": "2024-11-30T11:20:03Z"},
        spec={"location": "West US", "tags": {"provisioner": "crossplane"}},
        conditions=[cond("Ready", "False", "Creating", gen=1), cond("Synced", "False", "ReconcileError", CREATE_INCOMPLETE, gen=1)]))
    # ExternalNameDrift on a templated ID: "rg-hub" is not the group ".../resourceGroups/rg-hub-old".
    items.append(mr(api, "ResourceGroup", "rg-hub", provider="azure",
        ann={"crossplane.io/external-name": "rg-hub"},
        spec={"location": "West Europe", "tags": {"provisioner": "crossplane"}},
        at={"id": "/subscriptions/0000/resourceGroups/rg-hub-old"}))
    # Healthy: the external-name is the ID's last segment; an empty poll-interval is unset.
    items.append(mr(api, "ResourceGroup", "rg-shared", provider="azure",
        ann={"crossplane.io/external-name": "rg-shared", "crossplane.io/poll-interval": ""},
        spec={"location": "West Europe", "tags": {"provisioner": "crossplane"}},
        at={"id": "/subscriptions/0000/resourceGroups/rg-shared"}))
    return items

def fidelity_policies():
    """MRs where the reconciler's own gates decide: management policies it rejects, a deletion
    stuck at the create-incomplete gate, and a deletionPolicy that non-default policies override."""
    items = []
    # UnsupportedManagementPolicies: a set without Observe is rejected by Validate before anything else.
    items.append(mr("sqs.aws.upbound.io/v1beta1", "Queue", "orders-events",
        ann={"crossplane.io/external-name": "https://sqs.eu-west-1.amazonaws.com/111122223333/orders-events"},
        spec={"name": "orders-events", "region": "eu-west-1", "visibilityTimeoutSeconds": 60},
        policies=["Create", "Update", "Delete"],
        conditions=[cond("Ready", "False", "Unavailable"), cond("Synced", "False", "ReconcileError",
            "`spec.managementPolicies` is set to a value([Create Update Delete]) which is not supported. Check docs for supported policies", gen=1)],
        at={"id": "https://sqs.eu-west-1.amazonaws.com/111122223333/orders-events"}))
    # DeletionBlockedByCreateGate: deleted while a create was unresolved; the gate keeps the finalizer.
    items.append(mr("sns.aws.upbound.io/v1beta1", "Topic", "orders-notifications",
        ann={"crossplane.io/external-name": "arn:aws:sns:eu-west-1:111122223333:orders-notifications",
             "crossplane.io/external-create-pending": "2024-11-30T11:20:09Z", "crossplane.io/external-create-succeeded": "2024-11-30T11:20:02Z"},
        spec={"name": "orders-notifications", "region": "eu-west-1"},
        conditions=[cond("Ready", "False", "Creating", gen=1), cond("Synced", "False", "ReconcileError", CREATE_INCOMPLETE, gen=1)],
        deleting=True))
    # Healthy, but deletionPolicy: Orphan does not protect it: non-default policies that include
    # Delete win (ShouldDelete), as `doctor KIND/NAME` shows on its "On delete" line.
    items.append(mr("dynamodb.aws.upbound.io/v1beta1", "Table", "orders",
        ann={"crossplane.io/external-name": "orders"}, deletion_policy="Orphan",
        spec={"region": "eu-west-1", "billingMode": "PAY_PER_REQUEST", "hashKey": "id"},
        policies=["Observe", "Create", "Update", "Delete", "LateInitialize"],
        at={"id": "orders", "arn": "arn:aws:dynamodb:eu-west-1:111122223333:table/orders"}))
    return items

def fidelity_async():
    """Async operations judged as upjet runs them: its one-hour deadline, create vs update
    failures in Terraform-CLI mode, and a failed first async create."""
    items = []
    # AsyncDeadlinePassed (+ ExternalNameMissing): Ready=Creating since 10:20, provider hung.
    started = "2024-11-30T10:20:05Z"
    items.append(mr("eks.aws.upbound.io/v1beta1", "Cluster", "platform-eks",
        ann={"crossplane.io/external-create-pending": started, "crossplane.io/external-create-succeeded": started},
        spec={"region": "eu-west-1", "version": "1.30", "roleArn": "arn:aws:iam::111122223333:role/eks-cluster"},
        conditions=[cond("Ready", "False", "Creating", ltt=started), cond("Synced", "True", "ReconcileSuccess", ltt=started)],
        created="2024-11-30T10:20:00Z"))
    # Not AlreadyExists: a CLI-mode *update* of a tracked rule hits a duplicate (Synced says "update failed").
    dup = ("apply failed: updating Security Group Rule: InvalidPermission.Duplicate: the specified rule "
           "\"peer: 10.0.0.0/8, TCP, from port: 443, to port: 443, ALLOW\" already exists")
    items.append(mr("ec2.aws.upbound.io/v1beta1", "SecurityGroupRule", "web-https-ingress",
        ann={"crossplane.io/external-name": "sgrule-3719283746", "crossplane.io/external-create-pending": "2024-11-28T08:10:00Z",
             "crossplane.io/external-create-succeeded": "2024-11-28T08:10:00Z"},
        spec={"type": "ingress", "fromPort": 443, "toPort": 443, "protocol": "tcp", "cidrBlocks": ["10.0.0.0/8"], "securityGroupId": "sg-0123456789abcdef0", "region": "eu-west-1"},
        conditions=[cond("Ready", "True", "Available"), cond("Synced", "False", "ReconcileError", "update failed: " + dup, ltt="2024-11-30T11:40:00Z"),
                    cond("LastAsyncOperation", "False", "ApplyFailure", dup, ltt="2024-11-30T11:40:00Z")],
        at={"id": "sgrule-3719283746"}))
    # CreateFailed: the first async create failed after the reconciler wrote succeeded.
    items.append(mr("sqs.aws.upbound.io/v1beta1", "Queue", "orders-retries",
        ann={"crossplane.io/external-create-pending": "2024-11-30T11:30:00Z", "crossplane.io/external-create-succeeded": "2024-11-30T11:30:00Z"},
        spec={"name": "orders-retries", "region": "eu-west-1"},
        conditions=[cond("Ready", "False", "Creating", ltt="2024-11-30T11:30:00Z"),
                    cond("Synced", "False", "ReconcileError", "create failed: async create failed: failed to create the resource: [{0 creating SQS Queue (orders-retries): AccessDenied  []}]", ltt="2024-11-30T11:30:04Z"),
                    cond("LastAsyncOperation", "False", "AsyncCreateFailure", "async create failed: failed to create the resource: [{0 creating SQS Queue (orders-retries): AccessDenied  []}]", ltt="2024-11-30T11:30:04Z")],
        created="2024-11-30T11:29:58Z"))
    return items

def fidelity_upstream():
    """What the 2025-2026 upstream changes mean: a provider's placeholder external-name, an import
    that stays silent, a failed create retried in the same second, a reconcile request not yet
    handled, and the create-goroutine race of upjet#632 (its log is provider-aws-elbv2-debug.log)."""
    items = []
    # ExternalNameMissing with a placeholder: provider-upjet-aws saved identifierFromProviderWithDefaultStub's
    # stub from a failed create's partial state; the agent exists as AGT7XQ2ZK1, untracked.
    items.append(mr("bedrockagent.aws.m.upbound.io/v1beta1", "Agent", "support-bot", ns="team-a",
        ann={"crossplane.io/external-name": "STUB123456", "crossplane.io/external-create-pending": "2024-11-30T11:10:00Z",
             "crossplane.io/external-create-succeeded": "2024-11-30T11:10:00Z"},
        spec={"agentName": "support-bot", "region": "eu-west-1", "foundationModel": "anthropic.claude-v2"},
        policies=["Observe", "Create", "Update", "Delete"],
        at={"id": "AGT7XQ2ZK1", "agentArn": "arn:aws:bedrock:eu-west-1:111122223333:agent/AGT7XQ2ZK1"}))
    # ObserveNotFound, silent: an import with ["Observe", "LateInitialize"] whose ID names nothing.
    items.append(mr("ec2.aws.m.upbound.io/v1beta1", "Subnet", "imported-private-a", ns="team-a",
        ann={"crossplane.io/external-name": "subnet-0aaa1111bbbb2222c"},
        spec={"region": "eu-west-1", "vpcId": "vpc-0123456789abcdef0"}, policies=["Observe", "LateInitialize"],
        conditions=[cond("Synced", "True", "ReconcileSuccess")]))
    # CreateFailed, same second: upjet returned the previous attempt's cached error while a new create runs.
    failed = "async create failed: failed to create the resource: [{0 creating SNS Topic (billing-alerts): operation error SNS: CreateTopic, https response error StatusCode: 400, api error InvalidParameter  []}]"
    items.append(mr("sns.aws.upbound.io/v1beta1", "Topic", "billing-alerts",
        ann={"crossplane.io/external-create-pending": "2024-11-30T11:45:10Z", "crossplane.io/external-create-succeeded": "2024-11-30T11:44:00Z",
             "crossplane.io/external-create-failed": "2024-11-30T11:45:10Z"},
        spec={"name": "billing-alerts", "region": "eu-west-1"},
        conditions=[cond("Ready", "False", "Creating", ltt="2024-11-30T11:44:00Z"), cond("Synced", "False", "ReconcileError", "create failed: " + failed, ltt="2024-11-30T11:45:10Z"),
                    cond("LastAsyncOperation", "False", "AsyncCreateFailure", failed, ltt="2024-11-30T11:44:30Z")],
        created="2024-11-30T11:43:58Z"))
    # ReconcileNotTriggered: pending removed by hand, a reconcile requested, not handled yet (runtime v2.3 acknowledges).
    items.append(mr("rds.aws.upbound.io/v1beta1", "Instance", "reports-db",
        ann={"crossplane.io/external-name": "reports-db", "crossplane.io/external-create-succeeded": "2024-11-29T08:00:00Z",
             "crossplane.io/reconcile-requested-at": "2024-11-30T11:50:00Z"},
        spec={"region": "eu-west-1", "instanceClass": "db.t3.micro", "engine": "postgres"},
        conditions=[cond("Ready", "False", "Creating", ltt="2024-11-30T09:00:00Z"), cond("Synced", "False", "ReconcileError", CREATE_INCOMPLETE, ltt="2024-11-30T09:00:00Z")],
        at={"id": "reports-db"}))
    items[-1]["status"]["lastHandledReconcileAt"] = "2024-11-29T08:00:00Z"
    # AsyncCreateRace (+ OrphanCandidate, ExternalNameMissing): two target groups created, no restart between.
    items.append(mr("elbv2.aws.upbound.io/v1beta1", "LBTargetGroup", "web-tg",
        ann={"crossplane.io/external-create-pending": "2024-11-30T11:20:00Z", "crossplane.io/external-create-succeeded": "2024-11-30T11:20:35Z"},
        spec={"name": "web-tg", "port": 443, "protocol": "HTTPS", "region": "eu-west-1", "vpcId": "vpc-0123456789abcdef0"},
        at={"id": TG_B, "arn": TG_B}))
    return items

TG_A = "arn:aws:elasticloadbalancing:eu-west-1:111122223333:targetgroup/web-tg/6d0ecf831eec9f09"
TG_B = "arn:aws:elasticloadbalancing:eu-west-1:111122223333:targetgroup/web-tg/73e2d6bc24d8a067"

def identity_peers():
    """Healthy peers from which doctor learns each kind's ID format (docs/id-templates.md)."""
    items = []
    api = "dns.gcp.upbound.io/v1beta1"
    # More healthy RecordSets, in a second zone and with other types: the format is a template over
    # forProvider (managedZone, name, type) with the project from the provider config as a constant.
    for name, zone, typ, data in [("api", "bench-zone", "A", "192.0.2.50"), ("www", "bench-zone", "CNAME", "api.bench.example.com."),
                                  ("mail", "bench-zone-eu", "MX", "10 mx.bench.example.com."), ("mx", "bench-zone-eu", "A", "192.0.2.60"),
                                  ("ipv6", "bench-zone-eu", "AAAA", "2001:db8::1"), ("docs", "bench-zone-eu", "CNAME", "www.bench.example.com."),
                                  ("txt-verify", "bench-zone", "TXT", "\"v=spf1 -all\"")]:
        rid = f"projects/crossplane-bench/managedZones/{zone}/rrsets/{name}.bench.example.com./{typ}"
        items.append(mr(api, "RecordSet", f"bench-{name}", provider="gcp",
            ann={"crossplane.io/external-name": rid},
            spec={"managedZone": zone, "name": f"{name}.bench.example.com.", "type": typ, "ttl": 300, "rrdatas": [data]},
            at={"id": rid}, created="2023-10-18T09:10:00Z"))
    # Healthy Secrets: the ARN ends in a random suffix the cloud assigns, so their external-names
    # follow no template and the orders-db-credentials ID must not be predicted from them.
    for name, suffix in [("payments-api-key", "Xy7QaB"), ("ledger-db-password", "k2LmN9"), ("orders-api-token", "pQ4rSt")]:
        arn = f"arn:aws:secretsmanager:eu-west-1:111122223333:secret:{name}-{suffix}"
        items.append(mr("secretsmanager.aws.upbound.io/v1beta1", "Secret", name,
            ann={"crossplane.io/external-name": arn},
            spec={"name": name, "region": "eu-west-1", "recoveryWindowInDays": 7, "tags": tags(name, "secret.secretsmanager.aws.upbound.io")},
            at={"id": arn, "arn": arn}))
    return items

def write(name, items):
    doc = {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": items}
    with open(os.path.join(OUT, name), "w") as f:
        json.dump(doc, f, indent=2, sort_keys=True)
        f.write("\n")

os.makedirs(OUT, exist_ok=True)
write("aws-legacy.json", aws_legacy())
write("aws-namespaced.json", aws_namespaced())
write("gcp.json", gcp())
write("azure.json", azure())
write("fidelity-gates.json", fidelity_gates())
write("fidelity-policies.json", fidelity_policies())
write("fidelity-async.json", fidelity_async())
write("identity-peers.json", identity_peers())
write("fidelity-upstream.json", fidelity_upstream())

# ---- cloud inventory (examples/inventory) and the healthy peers it needs ----
INVENTORY = os.path.join(os.path.dirname(__file__), "..", "examples", "inventory")

def inventory():
    """An `aws resourcegroupstaggingapi get-resources` export of the fleet's AWS account, as two
    pages back to back (the CLI's --no-paginate/--starting-token output), plus a healthy Secret
    whose external-name (the ARN, random suffix and all) teaches the Secret kind's ID format, so
    `doctor --inventory` can name orders-db-credentials' lost secret."""
    acct, region = "111122223333", "eu-west-1"
    peer_arn = f"arn:aws:secretsmanager:{region}:{acct}:secret:payments-api-key-Xy12Ab"
    peers = [mr("secretsmanager.aws.upbound.io/v1beta1", "Secret", "payments-api-key",
        ann={"crossplane.io/external-name": peer_arn, "crossplane.io/external-create-pending": "2024-11-29T08:00:00Z",
             "crossplane.io/external-create-succeeded": "2024-11-29T08:00:00Z"},
        spec={"name": "payments-api-key", "region": region, "tags": tags("payments-api-key", "secret.secretsmanager.aws.upbound.io")},
        at={"id": peer_arn, "arn": peer_arn})]
    write("aws-peers.json", peers)

    def mapping(arn, kind=None, name=None, ns=None, extra=None):
        t = []
        if kind:
            t += [{"Key": "crossplane-kind", "Value": kind}, {"Key": "crossplane-name", "Value": name},
                  {"Key": "crossplane-providerconfig", "Value": "default"}]
        if ns:
            t += [{"Key": "crossplane-namespace", "Value": ns}, {"Key": "crossplane-providerconfig-kind", "Value": "ClusterProviderConfig"}]
        t += [{"Key": k, "Value": v} for k, v in (extra or {"team": "payments"}).items()]
        return {"ResourceARN": arn, "Tags": t}

    ec2 = f"arn:aws:ec2:{region}:{acct}"
    page1 = [
        mapping(peer_arn, "secret.secretsmanager.aws.upbound.io", "payments-api-key"),
        mapping(f"arn:aws:secretsmanager:{region}:{acct}:secret:ledger-db-password-k2LmN9", "secret.secretsmanager.aws.upbound.io", "ledger-db-password"),
        # orders-api-token's secret is not listed: deleted outside Crossplane (InventoryObjectGone).
        # The secret orders-db-credentials' first create made; its MR lost the ARN (AlreadyExists).
        mapping(f"arn:aws:secretsmanager:{region}:{acct}:secret:orders-db-credentials-Q7mR2k", "secret.secretsmanager.aws.upbound.io", "orders-db-credentials"),
        mapping(f"arn:aws:kms:{region}:{acct}:key/mrk-1f2e3d4c5b6a47989a0b1c2d3e4f5a6b", "key.kms.aws.upbound.io", "payments-data-key"),
        mapping(f"arn:aws:s3:::audit-logs-{acct}", "bucket.s3.aws.upbound.io", "audit-logs-{acct}".format(acct=acct)),
    ]
    page2 = [
        # team-a-vpc is tracked; a second VPC carries its tags: an untracked duplicate.
        mapping(f"{ec2}:vpc/vpc-0aa11bb22cc33dd44", "vpc.ec2.aws.m.upbound.io", "team-a-vpc", ns="team-a"),
        mapping(f"{ec2}:vpc/vpc-0c4d5e6f708192a3b", "vpc.ec2.aws.m.upbound.io", "team-a-vpc", ns="team-a"),
        # team-b-vpc never saved its external-name (LateInitializeMissing): team-a-vpc shows the form.
        mapping(f"{ec2}:vpc/vpc-0bb22cc33dd44ee55", "vpc.ec2.aws.m.upbound.io", "team-b-vpc", ns="team-b"),
        # The MR of this one was deleted with deletionPolicy Orphan.
        mapping(f"{ec2}:vpc/vpc-0d1e2f3a4b5c6d7e8", "vpc.ec2.aws.upbound.io", "legacy-vpc"),
        # Not Crossplane's.
        mapping(f"{ec2}:security-group/sg-0123456789abcdef0", extra={"Name": "bastion"}),
    ]
    os.makedirs(INVENTORY, exist_ok=True)
    with open(os.path.join(INVENTORY, "aws.json"), "w") as f:
        for page, token in ((page1, "eyJ0b2tlbiI6IDF9"), (page2, "")):
            json.dump({"PaginationToken": token, "ResourceTagMappingList": page}, f, indent=4)
            f.write("\n")

inventory()

# ---- provider logs (examples/logs), keyed to the fleet's UIDs ----
LOGS = os.path.join(os.path.dirname(__file__), "..", "examples", "logs")
os.makedirs(LOGS, exist_ok=True)

def console(ts, level, msg, fields):
    return f"{ts}\t{level}\tprovider-aws\t{msg}\t{json.dumps(fields, separators=(', ', ': '))}\n"

key_uid = uid("/Key/payments-data-key")
secret_uid = uid("/Secret/orders-db-credentials")
kms_ctrl = "managed/kms.aws.upbound.io/v1beta1, kind=key"
with open(os.path.join(LOGS, "provider-aws-kms-debug.log"), "w") as f:
    # First create: the goroutine creates mrk-0b…, then the pod is evicted before Observe saves it.
    f.write(console("2024-11-30T10:40:02Z", "DEBUG", "Connecting to the service provider", {"uid": key_uid, "name": "payments-data-key", "gvk": "kms.aws.upbound.io/v1beta1, Kind=Key"}))
    f.write(console("2024-11-30T10:40:02Z", "DEBUG", "Instance state not found in cache, reconstructing...", {"uid": key_uid, "name": "payments-data-key", "gvk": "kms.aws.upbound.io/v1beta1, Kind=Key"}))
    f.write(console("2024-11-30T10:40:02Z", "DEBUG", "Async create starting...", {"trackerUID": key_uid, "resourceName": "payments-data-key", "gvk": "kms.aws.upbound.io/v1beta1, Kind=Key", "tfID": ""}))
    f.write(console("2024-11-30T10:40:02Z", "DEBUG", "Successfully requested creation of external resource", {"controller": kms_ctrl, "request": {"name": "payments-data-key"}, "uid": key_uid, "version": "812", "external-name": "", "requeue-after": "2024-11-30T10:40:02Z"}))
    f.write(console("2024-11-30T10:40:09Z", "DEBUG", "Async create ended.", {"trackerUID": key_uid, "resourceName": "payments-data-key", "gvk": "kms.aws.upbound.io/v1beta1, Kind=Key", "tfID": "mrk-0b7c3a1d9e8f47a6b5c4d3e2f1a0b9c8", "error": None}))
    # The provider restarts: a fresh tracker, no external-name, so upjet creates again.
    f.write(console("2024-11-30T10:51:10Z", "INFO", "Starting provider", {"version": "v1.21.0"}))
    f.write(console("2024-11-30T10:51:12Z", "DEBUG", "Instance state not found in cache, reconstructing...", {"uid": key_uid, "name": "payments-data-key", "gvk": "kms.aws.upbound.io/v1beta1, Kind=Key"}))
    f.write(console("2024-11-30T10:51:12Z", "DEBUG", "Async create starting...", {"trackerUID": key_uid, "resourceName": "payments-data-key", "gvk": "kms.aws.upbound.io/v1beta1, Kind=Key", "tfID": ""}))
    f.write(console("2024-11-30T10:51:19Z", "DEBUG", "Async create ended.", {"trackerUID": key_uid, "resourceName": "payments-data-key", "gvk": "kms.aws.upbound.io/v1beta1, Kind=Key", "tfID": "mrk-1f2e3d4c5b6a47989a0b1c2d3e4f5a6b", "error": None}))
    f.write(console("2024-11-30T10:51:40Z", "DEBUG", "External resource is up to date", {"controller": kms_ctrl, "request": {"name": "payments-data-key"}, "uid": key_uid, "version": "845", "external-name": "", "requeue-after": "2024-11-30T11:01:40Z"}))
    # The secret's create fails because a previous attempt already created it.
    f.write(console("2024-11-30T11:02:40Z", "DEBUG", "Async create ended.", {"trackerUID": secret_uid, "resourceName": "orders-db-credentials", "gvk": "secretsmanager.aws.upbound.io/v1beta1, Kind=Secret", "tfID": "", "error": "failed to create the resource: ResourceExistsException: The operation failed because the secret orders-db-credentials already exists."}))
    f.write("this line is not a provider log line and is counted, not fatal\n")

tg_uid = uid("/LBTargetGroup/web-tg")
tg_ctrl = "managed/elbv2.aws.upbound.io/v1beta1, kind=lbtargetgroup"
tg_gvk = "elbv2.aws.upbound.io/v1beta1, Kind=LBTargetGroup"
with open(os.path.join(LOGS, "provider-aws-elbv2-debug.log"), "w") as f:
    # upjet#632: the create goroutine has not written its ID back when the next reconcile observes
    # nothing, so a second target group is created; no restart in between.
    f.write(console("2024-11-30T11:20:00Z", "DEBUG", "Instance state not found in cache, reconstructing...", {"uid": tg_uid, "name": "web-tg", "gvk": tg_gvk}))
    f.write(console("2024-11-30T11:20:00Z", "DEBUG", "Async create starting...", {"trackerUID": tg_uid, "resourceName": "web-tg", "gvk": tg_gvk, "tfID": ""}))
    f.write(console("2024-11-30T11:20:00Z", "DEBUG", "Successfully requested creation of external resource", {"controller": tg_ctrl, "request": {"name": "web-tg"}, "uid": tg_uid, "version": "301", "external-name": ""}))
    f.write(console("2024-11-30T11:20:04Z", "DEBUG", "Async create ended.", {"trackerUID": tg_uid, "resourceName": "web-tg", "gvk": tg_gvk, "tfID": TG_A, "error": None}))
    f.write(console("2024-11-30T11:20:35Z", "DEBUG", "Async create starting...", {"trackerUID": tg_uid, "resourceName": "web-tg", "gvk": tg_gvk, "tfID": ""}))
    f.write(console("2024-11-30T11:20:35Z", "DEBUG", "Successfully requested creation of external resource", {"controller": tg_ctrl, "request": {"name": "web-tg"}, "uid": tg_uid, "version": "309", "external-name": ""}))
    f.write(console("2024-11-30T11:20:39Z", "DEBUG", "Async create ended.", {"trackerUID": tg_uid, "resourceName": "web-tg", "gvk": tg_gvk, "tfID": TG_B, "error": None}))

ident_uid = uid("/UserAssignedIdentity/workload-identity")
with open(os.path.join(LOGS, "provider-azure-production.jsonl"), "w") as f:
    # Production logging (JSON, info level): no IDs are logged, but a lost callback is (Info).
    f.write(json.dumps({"level": "info", "ts": "2024-11-30T10:39:55Z", "logger": "provider-azure", "msg": "Starting provider", "version": "v1.9.0"}) + "\n")
    f.write(json.dumps({"level": "info", "ts": "2024-11-30T10:40:31Z", "logger": "provider-azure", "msg": "Async create callback failed",
                        "trackerUID": ident_uid, "resourceName": "workload-identity", "gvk": "managedidentity.azure.upbound.io/v1beta1, Kind=UserAssignedIdentity",
                        "error": "cannot update status of the resource managedidentity.azure.upbound.io/v1beta1, Kind=UserAssignedIdentity/workload-identity after an async create: Operation cannot be fulfilled on userassignedidentities.managedidentity.azure.upbound.io \"workload-identity\": the object has been modified; please apply your changes to the latest version and try again"}) + "\n")

# ---- two clusters (examples/clusters): `doctor --from prod.json --from staging.json` ----

def clusters():
    """A small snapshot per cluster: the same platform deployed twice, each with its own trouble."""
    def in_cluster(cluster, item):
        m = item["metadata"]
        m["uid"] = str(uuid.uuid5(NS, cluster + "/" + (m.get("namespace") or "") + "/" + item["kind"] + "/" + m["name"]))
        return item

    def rrset(name, zone, project, ip, **kw):
        rid = f"projects/{project}/managedZones/{zone}/rrsets/{name}.example.com./A"
        spec = {"managedZone": zone, "name": f"{name}.example.com.", "type": "A", "ttl": 300, "rrdatas": [ip]}
        if kw.pop("lost", False):
            return mr("dns.gcp.upbound.io/v1beta1", "RecordSet", name, provider="gcp", spec=spec,
                ann={"crossplane.io/external-create-pending": "2024-11-30T11:20:00Z", "crossplane.io/external-create-failed": "2024-11-30T11:20:01Z"},
                conditions=[cond("Ready", "False", "Creating"), cond("Synced", "False", "ReconcileError",
                    f"create failed: failed to create the resource: [{{0 Error creating ResourceRecordSet: googleapi: Error 409: The resource 'entity.change.additions[{name}.example.com.][A]' named '{name}.example.com. (A)' already exists, alreadyExists  []}}]")])
        return mr("dns.gcp.upbound.io/v1beta1", "RecordSet", name, provider="gcp", spec=spec,
            ann={"crossplane.io/external-name": rid}, at={"id": rid})

    def vpc(name, vid, ns=None, blocked=False):
        api = "ec2.aws.m.upbound.io/v1beta1" if ns else "ec2.aws.upbound.io/v1beta1"
        spec = {"region": "eu-west-1", "cidrBlock": "10.20.0.0/16", "tags": tags(name, "vpc.ec2.aws.upbound.io", ns)}
        if blocked:
            return mr(api, "VPC", name, ns=ns, spec=spec,
                ann={"crossplane.io/external-name": vid, "crossplane.io/external-create-pending": "2024-11-30T11:00:05Z",
                     "crossplane.io/external-create-succeeded": "2024-11-30T11:00:00Z"},
                conditions=[cond("Ready", "False", "Creating"), cond("Synced", "False", "ReconcileError", CREATE_INCOMPLETE)])
        return mr(api, "VPC", name, ns=ns, spec=spec, ann={"crossplane.io/external-name": vid}, at={"id": vid, "cidrBlock": "10.20.0.0/16"})

    prod = [rrset(n, "prod-zone", "acme-prod", f"198.51.100.{i}") for i, n in enumerate(["api", "www", "shop", "status"], 10)]
    prod.append(rrset("checkout", "prod-zone", "acme-prod", "198.51.100.20", lost=True))
    prod += [vpc("prod-core", "vpc-0a1b2c3d4e5f60718"), vpc("prod-edge", "vpc-0f9e8d7c6b5a40312", blocked=True)]
    staging = [rrset(n, "staging-zone", "acme-staging", f"203.0.113.{i}") for i, n in enumerate(["api", "www", "shop"], 10)]
    staging.append(rrset("checkout", "staging-zone", "acme-staging", "203.0.113.20", lost=True))
    staging.append(vpc("staging-core", "vpc-07c6b5a4938271605", ns="platform", blocked=True))
    staging.append(mr("s3.aws.upbound.io/v1beta1", "Bucket", "acme-staging-artifacts",
        ann={"crossplane.io/external-name": "acme-staging-artifacts"}, policies=["Observe"],
        spec={"region": "eu-west-1", "tags": tags("acme-staging-artifacts", "bucket.s3.aws.upbound.io")},
        at={"id": "acme-staging-artifacts", "arn": "arn:aws:s3:::acme-staging-artifacts"}))
    out = os.path.join(OUT, "..", "clusters")
    os.makedirs(out, exist_ok=True)
    for name, items in [("prod", prod), ("staging", staging)]:
        doc = {"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": [in_cluster(name, i) for i in items]}
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(doc, f, indent=2, sort_keys=True)
            f.write("\n")

clusters()

# ---- Kubernetes audit log (examples/audit), keyed to the fleet's MRs ----
AUDIT = os.path.join(os.path.dirname(__file__), "..", "examples", "audit")

def audit_log():
    """An API server audit log (audit.k8s.io/v1 Events, one per line, as the log backend writes
    them) telling three identity losses: core-vpc's external-name overwritten by the provider
    after a restart (the drift doctor reports), orders-db-credentials' pending mark removed by a
    person before the retry that ran into AlreadyExists, and team-b-vpc recreated by a Velero
    restore without the external-name its first incarnation had. Plus noise: other groups,
    reads, a RequestReceived stage, and a Metadata-level write."""
    provider = lambda p: {"username": f"system:serviceaccount:crossplane-system:{p}", "groups": ["system:serviceaccounts", "system:serviceaccounts:crossplane-system", "system:authenticated"]}
    argocd = {"username": "system:serviceaccount:argocd:argocd-application-controller", "groups": ["system:serviceaccounts", "system:authenticated"]}
    alice = {"username": "alice@example.com", "groups": ["platform-admins", "system:authenticated"]}
    velero = {"username": "system:serviceaccount:velero:velero", "groups": ["system:serviceaccounts", "system:authenticated"]}
    n = [0]

    def ev(ts, verb, user, ua, ref, level="RequestResponse", stage="ResponseComplete", code=200, req=None, resp=None, ip="10.0.12.7"):
        n[0] += 1
        e = {"kind": "Event", "apiVersion": "audit.k8s.io/v1", "level": level,
             "auditID": str(uuid.uuid5(NS, f"audit-{n[0]}")), "stage": stage,
             "requestURI": uri(ref, verb), "verb": verb, "user": user, "sourceIPs": [ip], "userAgent": ua,
             "objectRef": ref, "responseStatus": {"metadata": {}, "code": code},
             "requestReceivedTimestamp": ts, "stageTimestamp": ts,
             "annotations": {"authorization.k8s.io/decision": "allow", "authorization.k8s.io/reason": ""}}
        if req is not None and level in ("Request", "RequestResponse"):
            e["requestObject"] = req
        if resp is not None and level == "RequestResponse":
            e["responseObject"] = resp
        return e

    def uri(ref, verb):
        base = "/api/v1" if not ref.get("apiGroup") else f"/apis/{ref['apiGroup']}/{ref['apiVersion']}"
        if ref.get("namespace"):
            base += f"/namespaces/{ref['namespace']}"
        base += f"/{ref['resource']}"
        if verb != "create" and ref.get("name"):
            base += f"/{ref['name']}"
        return base

    def ref(group, version, resource, name, ns=None, uid_=None):
        r = {"resource": resource, "name": name, "apiGroup": group, "apiVersion": version}
        if ns:
            r["namespace"] = ns
        if uid_:
            r["uid"] = uid_
        return r

    def obj(api, kind, name, uid_, ann, ns=None, spec=None):
        meta = {"name": name, "uid": uid_, "annotations": ann}
        if ns:
            meta["namespace"] = ns
        return {"apiVersion": api, "kind": kind, "metadata": meta, "spec": spec or {"managementPolicies": ["*"], "deletionPolicy": "Delete"}}

    out = []
    ec2 = "provider-aws-ec2-4b8f2c1a9d3e"
    # core-vpc: created from Git, the provider records vpc-0f9e…, restarts, and writes vpc-0a1b… over it.
    vpc_uid = uid("/VPC/core-vpc")
    vref = lambda: ref("ec2.aws.upbound.io", "v1beta1", "vpcs", "core-vpc", uid_=vpc_uid)
    vobj = lambda ann: obj("ec2.aws.upbound.io/v1beta1", "VPC", "core-vpc", vpc_uid, ann)
    first = {"crossplane.io/external-create-pending": "2024-11-28T08:00:01Z", "crossplane.io/external-create-succeeded": "2024-11-28T08:00:01Z", "crossplane.io/external-name": "vpc-0f9e8d7c6b5a49382"}
    out.append(ev("2024-11-28T07:59:58.412000Z", "create", argocd, "argocd-application-controller/v2.13.1", vref(), req=vobj({}), resp=vobj({})))
    out.append(ev("2024-11-28T08:00:01.903000Z", "update", provider(ec2), "provider-aws-ec2/v1.16.0", vref(), req=vobj(first), resp=vobj(first)))
    second = dict(first, **{"crossplane.io/external-name": "vpc-0a1b2c3d4e5f60718"})
    out.append(ev("2024-11-30T10:31:12.077000Z", "update", provider(ec2), "provider-aws-ec2/v1.16.0", vref(), req=vobj(second), resp=vobj(second)))
    # orders-db-credentials: the provider marks a create pending and restarts; alice removes the mark
    # (Request level: the patches only); the retry runs into the secret the first create made.
    sm = "provider-aws-secretsmanager-7c1d0e5f2a6b"
    sec_uid = uid("/Secret/orders-db-credentials")
    sref = lambda: ref("secretsmanager.aws.upbound.io", "v1beta1", "secrets", "orders-db-credentials")
    out.append(ev("2024-11-30T10:58:00.120000Z", "patch", provider(sm), "provider-aws-secretsmanager/v1.16.0", sref(), level="Request",
                  req={"metadata": {"annotations": {"crossplane.io/external-create-pending": "2024-11-30T10:58:00Z"}}}))
    out.append(ev("2024-11-30T11:01:30.554000Z", "patch", alice, "kubectl/v1.31.2 (linux/amd64) kubernetes/5864a46", sref(), level="Request",
                  req={"metadata": {"annotations": {"crossplane.io/external-create-pending": None}}}, ip="192.0.2.44"))
    out.append(ev("2024-11-30T11:02:40.310000Z", "patch", provider(sm), "provider-aws-secretsmanager/v1.16.0", sref(), level="Request",
                  req={"metadata": {"annotations": {"crossplane.io/external-create-pending": "2024-11-30T11:02:40Z"}}}))
    # team-b-vpc: the first object recorded vpc-0bb…; it was deleted, and Velero restored a backup
    # taken before the provider wrote the external-name.
    old_uid = uid("team-b/VPC/team-b-vpc#first")
    new_uid = uid("team-b/VPC/team-b-vpc")
    mref = lambda u: ref("ec2.aws.m.upbound.io", "v1beta1", "vpcs", "team-b-vpc", ns="team-b", uid_=u)
    spec = {"managementPolicies": ["Observe", "Create", "Update", "Delete"]}
    mobj = lambda u, ann: obj("ec2.aws.m.upbound.io/v1beta1", "VPC", "team-b-vpc", u, ann, ns="team-b", spec=spec)
    named = {"crossplane.io/external-create-pending": "2024-11-29T09:00:02Z", "crossplane.io/external-create-succeeded": "2024-11-29T09:00:02Z", "crossplane.io/external-name": "vpc-0bb22cc33dd44ee55"}
    out.append(ev("2024-11-29T09:00:00.250000Z", "create", argocd, "argocd-application-controller/v2.13.1", mref(None), req=mobj(None, {}), resp=mobj(old_uid, {})))
    out.append(ev("2024-11-29T09:00:02.640000Z", "update", provider(ec2), "provider-aws-ec2/v1.16.0", mref(old_uid), req=mobj(old_uid, named), resp=mobj(old_uid, named)))
    out.append(ev("2024-11-30T10:44:57.018000Z", "delete", {"username": "bob@example.com", "groups": ["system:authenticated"]}, "kubectl/v1.31.2 (linux/amd64) kubernetes/5864a46", mref(old_uid), level="Metadata", ip="192.0.2.45"))
    out.append(ev("2024-11-30T10:50:00.100000Z", "create", velero, "velero-server/v1.14.1 (linux/amd64) 8afe3cea", mref(None), req=mobj(None, {}), resp=mobj(new_uid, {})))
    # Noise: a RequestReceived stage of the last write (counted once), reads, other groups.
    rr = dict(out[-1], stage="RequestReceived")
    rr.pop("responseObject", None)
    rr.pop("responseStatus", None)
    out.insert(len(out) - 1, rr)
    out.append(ev("2024-11-30T10:50:01.000000Z", "get", provider(ec2), "provider-aws-ec2/v1.16.0", mref(new_uid), level="Metadata"))
    out.append(ev("2024-11-30T10:50:02.000000Z", "update", provider(ec2), "provider-aws-ec2/v1.16.0", ref("coordination.k8s.io", "v1", "leases", "provider-aws-ec2", ns="crossplane-system"), level="Metadata"))
    out.append(ev("2024-11-30T10:50:03.000000Z", "create", {"username": "system:node:ip-10-0-1-5", "groups": ["system:nodes"]}, "kubelet/v1.31.2", ref("", "v1", "events", "x.1809a", ns="team-b"), level="Metadata"))
    os.makedirs(AUDIT, exist_ok=True)
    with open(os.path.join(AUDIT, "kube-apiserver-audit.log"), "w") as f:
        for e in out:
            f.write(json.dumps(e, separators=(",", ":")) + "\n")

audit_log()

# ---- the cloud's own audit record (examples/cloud-audit): a small fleet of its own and one export
# per cloud, written as each tool writes it. `doctor --from examples/cloud-audit/fleet.json
# --cloud-audit FILE` names every object the provider made from them.
CLOUD = os.path.join(os.path.dirname(__file__), "..", "examples", "cloud-audit")
AWS_ACCOUNT = "111122223333"
AWS_ROLE = f"arn:aws:iam::{AWS_ACCOUNT}:role/crossplane-provider-aws"
GCP_SA = "provider-gcp@acme-prod.iam.gserviceaccount.com"
AZ_SUB = "0b1f6471-1bf0-4dda-aec3-cb9272f09590"
AZ_SP = "7f3c2b1a-5d4e-4f60-9a8b-0c1d2e3f4a5b"

def ct(name, source, t, req, resp=None, session="1732781000118", err=None, read_only=False, account=AWS_ACCOUNT):
    """One CloudTrail record as the provider's IRSA role makes it (a new session after each restart)."""
    n = sum(map(ord, name + t))
    r = {"eventVersion": "1.09",
         "userIdentity": {"type": "AssumedRole", "principalId": f"AROAEXAMPLEPROVIDER7:{session}",
                          "arn": f"arn:aws:sts::{account}:assumed-role/crossplane-provider-aws/{session}", "accountId": account,
                          "sessionContext": {"sessionIssuer": {"type": "Role", "principalId": "AROAEXAMPLEPROVIDER7", "arn": AWS_ROLE,
                                                               "accountId": account, "userName": "crossplane-provider-aws"},
                                             "webIdFederationData": {"federatedProvider": f"arn:aws:iam::{account}:oidc-provider/oidc.eks.eu-west-1.amazonaws.com/id/5C7F0D8A3B2E4F6A",
                                                                     "attributes": {}},
                                             "attributes": {"creationDate": t, "mfaAuthenticated": "false"}}},
         "eventTime": t, "eventSource": source, "eventName": name, "awsRegion": "us-east-1", "sourceIPAddress": "10.0.12.7",
         "userAgent": "APN/1.0 HashiCorp/1.0 Terraform/1.5.7 (+https://www.terraform.io) terraform-provider-aws/5.86.0 (+https://registry.terraform.io/providers/hashicorp/aws) aws-sdk-go-v2/1.36.3 os/linux lang/go#1.23.6",
         "requestParameters": req, "responseElements": resp,
         "requestID": f"{n:08x}-5a1e-4c7b-9d2f-{n * 7919:012x}"[:36], "eventID": f"{n * 31:08x}-77aa-4e0b-8c3d-{n * 104729:012x}"[:36],
         "readOnly": read_only, "eventType": "AwsApiCall", "managementEvent": True, "recipientAccountId": account,
         "eventCategory": "Management"}
    if err:
        r["errorCode"], r["errorMessage"] = err
    return r

def zone_create(name, zid, t, session="1732781000118"):
    ref = f"terraform-{t.replace('-', '').replace(':', '').replace('T', '')}"
    return ct("CreateHostedZone", "route53.amazonaws.com", t,
              {"name": name, "callerReference": ref, "hostedZoneConfig": {"comment": "Managed by Crossplane", "privateZone": False}},
              {"hostedZone": {"id": f"/hostedzone/{zid}", "name": name + ".", "callerReference": ref,
                              "config": {"comment": "Managed by Crossplane", "privateZone": False}, "resourceRecordSetCount": 2},
               "changeInfo": {"id": f"/change/C{zid[1:]}", "status": "PENDING", "submittedAt": t},
               "delegationSet": {"nameServers": ["ns-1536.awsdns-00.co.uk", "ns-0.awsdns-00.com"]},
               "location": f"https://route53.amazonaws.com/2013-04-01/hostedzone/{zid}"}, session)

def bucket_create(name, t, session="1732781000118", err=None):
    return ct("CreateBucket", "s3.amazonaws.com", t,
              {"bucketName": name, "Host": f"{name}.s3.amazonaws.com", "CreateBucketConfiguration": {"LocationConstraint": "eu-west-1"}},
              None, session, err)

def cloud_fleet():
    """The MRs the exports talk about: healthy peers (they teach who the provider is and how a
    create's ID reads as an external-name) and the MRs that lost or doubled their object."""
    ok = lambda created: [cond("Ready", "True", "Available", ltt=created), cond("Synced", "True", "ReconcileSuccess", ltt=created, gen=1)]
    stuck = lambda at: [cond("Ready", "False", "Creating", ltt=at), cond("Synced", "False", "ReconcileError", CREATE_INCOMPLETE, ltt=at)]
    made = lambda t: {"crossplane.io/external-create-pending": t, "crossplane.io/external-create-succeeded": t}
    items = []
    # AWS: Route53 zones (the cloud assigns the zone ID; tags are a later call).
    for name, zid, t in [("corp-apps", "Z0A1APPS5Q1KX2W7E", "2024-11-28T09:00:02Z"), ("corp-data", "Z0B2DATA8R3LM4N6T", "2024-11-28T09:05:02Z")]:
        items.append(mr("route53.aws.upbound.io/v1beta1", "Zone", name, ann=dict(made(t), **{"crossplane.io/external-name": zid}),
                        spec={"name": f"{name[5:]}.corp.example.com", "comment": "Managed by Crossplane"},
                        conditions=ok(t), created=t[:-3] + "00Z", at={"id": zid, "zoneId": zid}))
    # The provider died between CreateHostedZone and saving its answer (provider-upjet-aws#1567):
    # the zone exists, nothing tagged it, and the MR stops at the create-incomplete gate.
    items.append(mr("route53.aws.upbound.io/v1beta1", "Zone", "corp-payments", ann={"crossplane.io/external-create-pending": "2024-11-30T11:20:03Z"},
                    spec={"name": "payments.corp.example.com", "comment": "Managed by Crossplane"},
                    conditions=stuck("2024-11-30T11:25:00Z"), created="2024-11-30T11:20:00Z"))
    # S3: a healthy bucket, and one whose pending mark was removed by hand after a crash: the
    # retry runs into the bucket the first create made.
    items.append(mr("s3.aws.upbound.io/v1beta1", "Bucket", "corp-logs-111122223333",
                    ann=dict(made("2024-11-28T09:10:01Z"), **{"crossplane.io/external-name": "corp-logs-111122223333"}),
                    spec={"region": "eu-west-1"}, conditions=ok("2024-11-28T09:10:01Z"), created="2024-11-28T09:10:00Z",
                    at={"id": "corp-logs-111122223333"}))
    items.append(mr("s3.aws.upbound.io/v1beta1", "Bucket", "corp-assets-111122223333",
                    ann={"crossplane.io/external-name": "corp-assets-111122223333", "crossplane.io/external-create-pending": "2024-11-30T11:30:01Z",
                         "crossplane.io/external-create-failed": "2024-11-30T11:30:02Z"},
                    spec={"region": "eu-west-1"}, created="2024-11-30T11:00:00Z",
                    conditions=[cond("Ready", "False", "Creating", ltt="2024-11-30T11:30:02Z"),
                                cond("Synced", "False", "ReconcileError", "create failed: async create failed: failed to create the resource: [{0 creating S3 Bucket (corp-assets-111122223333): operation error S3: CreateBucket, https response error StatusCode: 409, RequestID: 8F2C7B1D9E0A, api error BucketAlreadyOwnedByYou: Your previous request to create the named bucket succeeded and you already own it.  []}]", ltt="2024-11-30T11:30:02Z")]))
    # GCP: alert policies (Cloud Monitoring assigns the policy's number).
    for name, pid, t in [("api-errors", "11840712350937201161", "2024-11-28T08:00:03Z"), ("db-cpu", "16075529213458890210", "2024-11-28T08:10:03Z")]:
        ext = f"projects/acme-prod/alertPolicies/{pid}"
        items.append(mr("monitoring.gcp.upbound.io/v1beta1", "AlertPolicy", name, ann=dict(made(t), **{"crossplane.io/external-name": ext}),
                        spec={"displayName": name, "combiner": "OR", "project": "acme-prod"}, conditions=ok(t), created=t[:-3] + "00Z", at={"id": ext}))
    # Restarted between its two creates: the external-name now names the second policy; the first
    # one alerts twice and nothing tracks it (upjet#561).
    second = "projects/acme-prod/alertPolicies/9051216407683392517"
    items.append(mr("monitoring.gcp.upbound.io/v1beta1", "AlertPolicy", "checkout-latency",
                    ann=dict(made("2024-11-30T10:47:11Z"), **{"crossplane.io/external-name": second}),
                    spec={"displayName": "checkout-latency", "combiner": "OR", "project": "acme-prod"},
                    conditions=ok("2024-11-30T10:47:30Z"), created="2024-11-30T10:31:00Z", at={"id": second}))
    # Stuck after a create the record shows in another project: reported, not tied.
    # (It names no project of its own, so the provider config's default applies: there, staging.)
    items.append(mr("monitoring.gcp.upbound.io/v1beta1", "AlertPolicy", "search-latency",
                    ann={"crossplane.io/external-create-pending": "2024-11-30T11:40:02Z"},
                    spec={"displayName": "search-latency", "combiner": "OR"},
                    conditions=stuck("2024-11-30T11:45:00Z"), created="2024-11-30T11:40:00Z"))
    items.append(mr("compute.gcp.upbound.io/v1beta1", "Network", "shared-vpc",
                    ann=dict(made("2024-11-28T08:20:01Z"), **{"crossplane.io/external-name": "shared-vpc"}),
                    spec={"autoCreateSubnetworks": False, "project": "acme-prod"}, conditions=ok("2024-11-28T08:20:40Z"),
                    created="2024-11-28T08:20:00Z", at={"id": "projects/acme-prod/global/networks/shared-vpc"}))
    # Azure: virtual networks; edge-vnet was deleted by a person in the portal.
    for name, t in [("hub-vnet", "2024-11-28T10:00:04Z"), ("spoke-vnet", "2024-11-28T10:02:04Z"), ("edge-vnet", "2024-11-28T10:04:04Z")]:
        arm = f"/subscriptions/{AZ_SUB}/resourceGroups/rg-network/providers/Microsoft.Network/virtualNetworks/{name}"
        items.append(mr("network.azure.upbound.io/v1beta1", "VirtualNetwork", name, ann=dict(made(t), **{"crossplane.io/external-name": name}),
                        spec={"location": "westeurope", "resourceGroupName": "rg-network"}, conditions=ok(t),
                        created=t[:-3] + "00Z", at={"id": arm}, provider="azure"))
    return items

def cloudtrail():
    """CloudTrail records, one per line: a CloudTrail Lake export, or what `zcat *.json.gz | jq -c
    '.Records[]'` makes of the log files in S3."""
    recs = [zone_create("apps.corp.example.com", "Z0A1APPS5Q1KX2W7E", "2024-11-28T09:00:02Z"),
            zone_create("data.corp.example.com", "Z0B2DATA8R3LM4N6T", "2024-11-28T09:05:02Z"),
            bucket_create("corp-logs-111122223333", "2024-11-28T09:10:01Z"),
            ct("GetHostedZone", "route53.amazonaws.com", "2024-11-28T09:10:30Z", {"id": "Z0A1APPS5Q1KX2W7E"}, read_only=True),
            bucket_create("corp-assets-111122223333", "2024-11-30T11:00:02Z", session="1732964400511"),
            ct("DescribeVpcs", "ec2.amazonaws.com", "2024-11-30T11:10:00Z", {"vpcSet": {}}, read_only=True, session="1732964400511"),
            zone_create("payments.corp.example.com", "Z0C3PAYS6H7JQ2V9D", "2024-11-30T11:20:04Z", session="1732965600904"),
            bucket_create("corp-assets-111122223333", "2024-11-30T11:30:02Z", session="1732966200277",
                          err=("BucketAlreadyOwnedByYou", "Your previous request to create the named bucket succeeded and you already own it.")),
            ct("ListResourceRecordSets", "route53.amazonaws.com", "2024-11-30T11:31:00Z", {"hostedZoneId": "Z0B2DATA8R3LM4N6T"}, read_only=True, session="1732966200277")]
    with open(os.path.join(CLOUD, "cloudtrail.jsonl"), "w") as f:
        for r in recs:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")

def gcp_entry(method, t, req, resp=None, resource="projects/acme-prod", project="acme-prod", op=None, status=None, service="monitoring.googleapis.com"):
    """One Cloud Logging entry whose protoPayload is an AuditLog, as `gcloud logging read` prints it."""
    n = sum(map(ord, method + t))
    entry = {"insertId": f"{n * 7919:x}e{n:x}", "logName": f"projects/{project}/logs/cloudaudit.googleapis.com%2Factivity",
             "protoPayload": {"@type": "type.googleapis.com/google.cloud.audit.AuditLog",
                              "authenticationInfo": {"principalEmail": GCP_SA, "principalSubject": f"serviceAccount:{GCP_SA}"},
                              "authorizationInfo": [{"granted": True, "permission": "monitoring.alertPolicies.create", "resource": resource}],
                              "methodName": method, "request": req, "requestMetadata": {"callerIp": "10.8.0.14",
                              "callerSuppliedUserAgent": "google-api-go-client/0.5 Terraform/1.5.7 (+https://www.terraform.io) Terraform-Plugin-SDK/2.33.0 terraform-provider-google/5.44.2,gzip(gfe)"},
                              "resourceName": resource, "serviceName": service, "status": status or {}},
             "receiveTimestamp": t.replace("Z", ".5Z"), "resource": {"labels": {"project_id": project}, "type": "audited_resource"},
             "severity": "NOTICE", "timestamp": t.replace("Z", ".1Z")}
    if resp is not None:
        entry["protoPayload"]["response"] = resp
    if op:
        entry["operation"] = op
    return entry

def policy_create(name, number, t, project="acme-prod"):
    return gcp_entry("google.monitoring.v3.AlertPolicyService.CreateAlertPolicy", t,
                     {"@type": "type.googleapis.com/google.monitoring.v3.CreateAlertPolicyRequest", "name": f"projects/{project}",
                      "alertPolicy": {"displayName": name, "combiner": "OR", "conditions": [{"displayName": f"{name} above threshold"}]}},
                     {"@type": "type.googleapis.com/google.monitoring.v3.AlertPolicy", "name": f"projects/{project}/alertPolicies/{number}",
                      "displayName": name, "combiner": "OR"}, resource=f"projects/{project}", project=project)

def gcp_audit():
    """`gcloud logging read 'logName:cloudaudit.googleapis.com' --format=json`: one array, newest first."""
    net = "projects/acme-prod/global/networks/shared-vpc"
    op = lambda first: dict({"id": "operation-1732782000123-5f2c1a0b9d8e7-4c3b2a19-8f7e6d5c", "producer": "compute.googleapis.com"}, **({"first": True} if first else {"last": True}))
    entries = [
        policy_create("api-errors", "11840712350937201161", "2024-11-28T08:00:03Z"),
        policy_create("db-cpu", "16075529213458890210", "2024-11-28T08:10:03Z"),
        gcp_entry("v1.compute.networks.insert", "2024-11-28T08:20:01Z", {"@type": "type.googleapis.com/compute.networks.insert", "name": "shared-vpc", "autoCreateSubnetworks": False},
                  {"@type": "type.googleapis.com/operation", "operationType": "insert", "status": "RUNNING", "targetId": "4913775093123360001",
                   "targetLink": f"https://www.googleapis.com/compute/v1/{net}"}, resource=net, op=op(True), service="compute.googleapis.com"),
        gcp_entry("v1.compute.networks.insert", "2024-11-28T08:20:33Z", {}, resource=net, op=op(False), service="compute.googleapis.com"),
        policy_create("checkout-latency", "6510472198453218101", "2024-11-30T10:31:05Z"),
        policy_create("checkout-latency", "9051216407683392517", "2024-11-30T10:47:12Z"),
        policy_create("search-latency", "13359862264014102437", "2024-11-30T11:40:03Z", project="acme-staging"),
        gcp_entry("google.monitoring.v3.AlertPolicyService.ListAlertPolicies", "2024-11-30T11:41:00Z", {"name": "projects/acme-prod"}),
    ]
    entries.sort(key=lambda e: e["timestamp"], reverse=True)
    with open(os.path.join(CLOUD, "gcp-audit.json"), "w") as f:
        json.dump(entries, f, indent=2, sort_keys=True)
        f.write("\n")

def az_event(op, status, event, t, name, caller=AZ_SP, body=""):
    """One Activity Log event as `az monitor activity-log list -o json` prints it."""
    arm = f"/subscriptions/{AZ_SUB}/resourceGroups/rg-network/providers/Microsoft.Network/virtualNetworks/{name}"
    op_id = str(uuid.uuid5(NS, f"{op}/{name}"))
    corr = str(uuid.uuid5(NS, f"corr/{op}/{name}"))
    data = str(uuid.uuid5(NS, f"data/{op}/{name}/{status}"))
    return {"authorization": {"action": op, "scope": arm}, "caller": caller, "channels": "Operation",
            "claims": {"appid": "3c1e7a52-0f4d-4b8e-9a61-2d5f8c7b9e04" if caller == AZ_SP else "c44b4083-3bb0-49c1-b47d-974e53cbdf3c",
                       "http://schemas.microsoft.com/identity/claims/objectidentifier": caller if caller == AZ_SP else "a8f3e1d2-6b4c-4e5f-8a7b-9c0d1e2f3a4b"},
            "correlationId": corr, "description": "", "eventDataId": data,
            "eventName": {"value": event, "localizedValue": event}, "category": {"value": "Administrative", "localizedValue": "Administrative"},
            "eventTimestamp": t, "id": f"{arm}/events/{data}/ticks/638685{sum(map(ord, t)):012d}", "level": "Informational",
            "operationId": op_id, "operationName": {"value": op, "localizedValue": op}, "resourceGroupName": "rg-network",
            "resourceProviderName": {"value": "Microsoft.Network", "localizedValue": "Microsoft.Network"},
            "resourceType": {"value": "Microsoft.Network/virtualNetworks", "localizedValue": "Microsoft.Network/virtualNetworks"},
            "resourceId": arm, "status": {"value": status, "localizedValue": status}, "subStatus": {"value": "", "localizedValue": ""},
            "submissionTimestamp": t, "subscriptionId": AZ_SUB, "tenantId": "72f988bf-86f1-41af-91ab-2d7cd011db47",
            "properties": {"eventCategory": "Administrative", "entity": arm, "message": op, "hierarchy": f"72f988bf-86f1-41af-91ab-2d7cd011db47/{AZ_SUB}",
                           "statusCode": "Created" if status != "Started" else "", "serviceRequestId": op_id, "requestbody": body},
            "relatedEvents": []}

def azure_activity():
    """`az monitor activity-log list --resource-group rg-network -o json`: newest first."""
    events = []
    for name, t in [("hub-vnet", "2024-11-28T10:00:04"), ("spoke-vnet", "2024-11-28T10:02:04"), ("edge-vnet", "2024-11-28T10:04:04")]:
        body = json.dumps({"location": "westeurope", "properties": {"addressSpace": {"addressPrefixes": ["10.%d.0.0/16" % len(name)]}},
                           "tags": {"crossplane-kind": "virtualnetwork.network.azure.upbound.io", "crossplane-name": name, "crossplane-providerconfig": "default"}})
        events.append(az_event("Microsoft.Network/virtualNetworks/write", "Started", "BeginRequest", t + ".1171820Z", name, body=body))
        events.append(az_event("Microsoft.Network/virtualNetworks/write", "Succeeded", "EndRequest", t[:-1] + "9.5560413Z", name))
    alice = "alice@contoso.com"
    events.append(az_event("Microsoft.Network/virtualNetworks/delete", "Started", "BeginRequest", "2024-11-30T11:52:41.0935207Z", "edge-vnet", caller=alice))
    events.append(az_event("Microsoft.Network/virtualNetworks/delete", "Succeeded", "EndRequest", "2024-11-30T11:52:52.6049372Z", "edge-vnet", caller=alice))
    events.sort(key=lambda e: e["eventTimestamp"], reverse=True)
    with open(os.path.join(CLOUD, "azure-activity.json"), "w") as f:
        json.dump(events, f, indent=2)
        f.write("\n")

os.makedirs(CLOUD, exist_ok=True)
with open(os.path.join(CLOUD, "fleet.json"), "w") as f:
    json.dump({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": cloud_fleet()}, f, indent=2, sort_keys=True)
    f.write("\n")
cloudtrail()
gcp_audit()
azure_activity()

# ---- composition trees (examples/compositions): a v1 claim -> XR -> MRs tree whose XR was
# deleted and created again, and a v2 namespaced XR; each shows the composition codes. ----
import hashlib
COMPOSITIONS = os.path.join(os.path.dirname(__file__), "..", "examples", "compositions")

def field_manager(xr_name, group_kind):
    # crossplane ComposedFieldOwnerName: sha256(XR name + GroupKind), hex.
    return "apiextensions.crossplane.io/composed/" + hashlib.sha256((xr_name + group_kind).encode()).hexdigest()

def composed(api, kind, name, resource, xr, *, ns=None, id_=None, claim=None, labels=True, deleting=False, created="2024-11-30T10:50:00Z", fields=None):
    """An MR as the composite reconciler leaves it: composed labels, resource name, controller."""
    api_xr, kind_xr, xr_name, xr_uid = xr
    lab = {"crossplane.io/composite": xr_name} if labels else {}
    if claim:
        lab.update({"crossplane.io/claim-name": claim[1], "crossplane.io/claim-namespace": claim[0]})
    ann = {"crossplane.io/composition-resource-name": resource}
    if id_:
        ann["crossplane.io/external-name"] = id_
    conditions = None if id_ else [cond("Synced", "True", "ReconcileSuccess", ltt="2024-11-30T11:40:05Z", gen=1)]
    m = mr(api, kind, name, ns=ns, ann=ann, labels=lab, deleting=deleting, created=created, conditions=conditions,
           at={"arn": "arn:aws:sqs:us-east-1:123456789012:" + id_} if id_ else None)
    if not id_:
        del m["metadata"]["annotations"]["upjet.crossplane.io/provider-meta"]
    m["metadata"]["ownerReferences"] = [{"apiVersion": api_xr, "kind": kind_xr, "name": xr_name, "uid": xr_uid,
                                         "controller": True, "blockOwnerDeletion": True}]
    if ns:
        m["spec"]["deletionPolicy"] = "Delete"
    if fields is not None:
        m["metadata"]["managedFields"] = [
            {"manager": field_manager(xr_name, kind_xr + "." + api_xr.split("/")[0]), "operation": "Apply", "apiVersion": api,
             "time": "2024-11-30T10:50:00Z", "fieldsType": "FieldsV1", "fieldsV1": fields},
            {"manager": "provider-aws", "operation": "Update", "apiVersion": api, "time": "2024-11-30T10:51:00Z",
             "fieldsType": "FieldsV1", "fieldsV1": {"f:status": {"f:conditions": {}}}, "subresource": "status"}]
    return m

def v1_claim_tree():
    """`kubectl get xrd,xdatabase,database,managed -A -o json`: the claim `orders` (team-a) and its XR,
    deleted and applied again by GitOps at 11:40 (a new UID): it composed `queue` anew, bare,
    beside the earlier MR holding the ID, and a function no longer desires `dead-letter`."""
    api = "platform.example.org/v1alpha1"
    xr_uid, old_uid = uid("xdatabase/orders/2"), uid("xdatabase/orders/1")
    xrd = {"apiVersion": "apiextensions.crossplane.io/v1", "kind": "CompositeResourceDefinition",
           "metadata": {"name": "xdatabases.platform.example.org", "uid": uid("xrd/xdatabases")},
           "spec": {"group": "platform.example.org", "scope": "LegacyCluster",
                    "names": {"kind": "XDatabase", "plural": "xdatabases"}, "claimNames": {"kind": "Database", "plural": "databases"},
                    "versions": [{"name": "v1alpha1", "served": True, "referenceable": True}]}}
    refs = [{"apiVersion": "sqs.aws.upbound.io/v1beta1", "kind": "Queue", "name": n} for n in ["orders-7k2mp", "orders-q4w8e"]]
    xr = {"apiVersion": api, "kind": "XDatabase",
          "metadata": {"name": "orders", "uid": xr_uid, "creationTimestamp": "2024-11-30T11:40:00Z",
                       "labels": {"crossplane.io/composite": "orders", "crossplane.io/claim-name": "orders", "crossplane.io/claim-namespace": "team-a"}},
          "spec": {"compositionRef": {"name": "xdatabases-aws"}, "resourceRefs": refs,
                   "claimRef": {"apiVersion": api, "kind": "Database", "name": "orders", "namespace": "team-a"}},
          "status": {"conditions": [cond("Ready", "False", "Creating"), cond("Synced", "True", "ReconcileSuccess")]}}
    claim = {"apiVersion": api, "kind": "Database", "metadata": {"name": "orders", "namespace": "team-a", "uid": uid("database/orders")},
             "spec": {"compositionRef": {"name": "xdatabases-aws"}, "resourceRef": {"apiVersion": api, "kind": "XDatabase", "name": "orders"}}}
    now, before = (api, "XDatabase", "orders", xr_uid), (api, "XDatabase", "orders", old_uid)
    q = "sqs.aws.upbound.io/v1beta1"
    c = ("team-a", "orders")
    return [xrd, xr, claim,
            composed(q, "Queue", "orders-b5n3x", "queue", before, id_="orders-queue", claim=c),
            composed(q, "Queue", "orders-7k2mp", "queue", now, claim=c, created="2024-11-30T11:40:02Z"),
            composed(q, "Queue", "orders-q4w8e", "audit", now, id_="orders-audit", claim=c),
            composed(q, "Queue", "orders-d9f1g", "dead-letter", now, id_="orders-dlq", claim=c, labels=False, deleting=True)]

def v2_namespaced_tree():
    """`kubectl get xrd,app,managed -n shop -o json`: a v2 namespaced XR `storefront` whose `assets`
    bucket was composed twice, and whose composition patches the `media` bucket's external-name."""
    api = "platform.example.org/v1alpha1"
    xr_uid = uid("app/shop/storefront")
    xrd = {"apiVersion": "apiextensions.crossplane.io/v2", "kind": "CompositeResourceDefinition",
           "metadata": {"name": "apps.platform.example.org", "uid": uid("xrd/apps")},
           "spec": {"group": "platform.example.org", "scope": "Namespaced", "names": {"kind": "App", "plural": "apps"},
                    "versions": [{"name": "v1alpha1", "served": True, "referenceable": True}]}}
    b = "s3.aws.m.upbound.io/v1beta1"
    refs = [{"apiVersion": b, "kind": "Bucket", "name": n} for n in ["storefront-a8s7d", "storefront-m3d1a", "storefront-l0g5x"]]
    xr = {"apiVersion": api, "kind": "App",
          "metadata": {"name": "storefront", "namespace": "shop", "uid": xr_uid, "creationTimestamp": "2024-11-30T10:00:00Z",
                       "labels": {"crossplane.io/composite": "storefront"}},
          "spec": {"crossplane": {"compositionRef": {"name": "apps-aws"}, "resourceRefs": refs}},
          "status": {"conditions": [cond("Ready", "True", "Available"), cond("Synced", "True", "ReconcileSuccess")]}}
    x = (api, "App", "storefront", xr_uid)
    owned = {"f:metadata": {"f:annotations": {"f:crossplane.io/external-name": {}, "f:crossplane.io/composition-resource-name": {}}},
             "f:spec": {"f:forProvider": {"f:region": {}}}}
    return [xrd, xr,
            composed(b, "Bucket", "storefront-a8s7d", "assets", x, ns="shop", id_="storefront-assets"),
            composed(b, "Bucket", "storefront-z2x4c", "assets", x, ns="shop", id_="storefront-assets-2"),
            composed(b, "Bucket", "storefront-m3d1a", "media", x, ns="shop", id_="storefront-media", fields=owned),
            composed(b, "Bucket", "storefront-l0g5x", "logs", x, ns="shop", id_="storefront-logs")]

os.makedirs(COMPOSITIONS, exist_ok=True)
for name, items in [("v1-claim.json", v1_claim_tree()), ("v2-namespaced.json", v2_namespaced_tree())]:
    with open(os.path.join(COMPOSITIONS, name), "w") as f:
        json.dump({"apiVersion": "v1", "kind": "List", "metadata": {"resourceVersion": ""}, "items": items}, f, indent=2, sort_keys=True)
        f.write("\n")
