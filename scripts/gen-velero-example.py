#!/usr/bin/env python3
"""Writes examples/velero/nightly-data.tar.gz: a small Velero backup in the layout `velero backup
download` produces (a gzip tar; resources/<plural>.<group>/cluster/<name>.json, each item written
again under <version>-preferredversion/, the CRDs of the backed-up kinds, metadata/version), of a
cluster running provider-upjet-aws. The CRDs are minimal but real-shaped (names, scope,
categories, versions); the MRs cover every restore verdict that a backup alone can show.
Rerun after changing it; the output is byte-for-byte stable."""
import gzip, io, json, os, tarfile, uuid

OUT = os.path.join(os.path.dirname(__file__), "..", "examples", "velero", "nightly-data.tar.gz")
NS = uuid.UUID("0b5e4c1a-4d2f-4a8e-9b7c-5a1d2e3f4b60")
T = "2024-11-29T22:00:00Z"


def uid(name):
    return str(uuid.uuid5(NS, name))


def crd(plural, group, kind, managed=True, scope="Cluster", version="v1beta1"):
    cats = ["crossplane", "managed", "aws"] if managed else ["crossplane", "provider", "aws"]
    return {
        "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
        "metadata": {"name": f"{plural}.{group}", "uid": uid("crd/" + plural + group), "resourceVersion": "1201",
                     "ownerReferences": [{"apiVersion": "pkg.crossplane.io/v1", "kind": "ProviderRevision",
                                          "name": "provider-aws-" + group.split(".")[0] + "-3c0a1b2d4e5f", "uid": uid("rev/" + group)}]},
        "spec": {"group": group, "scope": scope,
                 "names": {"kind": kind, "listKind": kind + "List", "plural": plural, "singular": kind.lower(), "categories": cats},
                 "versions": [{"name": version, "served": True, "storage": True, "subresources": {"status": {}},
                               "schema": {"openAPIV3Schema": {"type": "object", "properties": {
                                   "spec": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
                                   "status": {"type": "object", "properties": {
                                       "atProvider": {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
                                       "conditions": {"type": "array", "items": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}}}}}}}]},
    }


def cond(t, s, reason, msg=""):
    c = {"type": t, "status": s, "reason": reason, "lastTransitionTime": T}
    if msg:
        c["message"] = msg
    return c


READY = [cond("Ready", "True", "Available"), cond("Synced", "True", "ReconcileSuccess"), cond("LastAsyncOperation", "True", "Success")]


def mr(group, kind, name, ext=None, at=None, ann=None, policies=None, conditions=None, spec=None):
    a = {"upjet.crossplane.io/provider-meta": "{\"e2bfb730-ecaa-11e6-8f88-34363bc7c4c0\":{\"create\":1800000000000}}"}
    if ext is not None:
        a["crossplane.io/external-name"] = ext
    a.update(ann or {})
    obj = {
        "apiVersion": f"{group}/v1beta1", "kind": kind,
        "metadata": {"name": name, "uid": uid(kind + "/" + name), "resourceVersion": str(4000 + len(name)), "generation": 1,
                     "creationTimestamp": "2024-11-20T09:00:00Z", "annotations": a,
                     "finalizers": ["finalizer.managedresource.crossplane.io"]},
        "spec": {"forProvider": dict(spec or {"region": "eu-west-1"}), "managementPolicies": policies or ["*"],
                 "deletionPolicy": "Delete", "providerConfigRef": {"name": "default"}},
        "status": {"conditions": conditions if conditions is not None else READY},
    }
    if at:
        obj["status"]["atProvider"] = {"id": at, "arn": f"arn:aws:{group.split('.')[0]}:eu-west-1:123456789012:{at}"}
    return obj


def items():
    ec2, kms, s3 = "ec2.aws.upbound.io", "kms.aws.upbound.io", "s3.aws.upbound.io"
    yield "vpcs", mr(ec2, "VPC", "main", ext="vpc-0a1b2c3d4e5f60718", at="vpc-0a1b2c3d4e5f60718", spec={"region": "eu-west-1", "cidrBlock": "10.0.0.0/16"})
    yield "vpcs", mr(ec2, "VPC", "shared", ext="vpc-0f9e8d7c6b5a49382", at="vpc-0f9e8d7c6b5a49382", spec={"region": "eu-west-1", "cidrBlock": "10.1.0.0/16"})
    yield "vpcs", mr(ec2, "VPC", "edge", ext="vpc-07a6b5c4d3e2f1a09", at="vpc-07a6b5c4d3e2f1a09", spec={"region": "eu-west-1", "cidrBlock": "10.2.0.0/16"})
    # Never created (its provider had not reached it): a restore creates it, as the source would have.
    yield "vpcs", mr(ec2, "VPC", "staging", conditions=[], spec={"region": "eu-west-1", "cidrBlock": "10.3.0.0/16"})
    # Stopped at the create-incomplete gate when the backup ran: the pending mark comes back too.
    yield "subnets", mr(ec2, "Subnet", "private-a", ext="subnet-0c1d2e3f4a5b6c7d8", ann={
        "crossplane.io/external-create-pending": "2024-11-29T21:58:07Z",
        "crossplane.io/external-create-succeeded": "2024-11-29T21:58:02Z"},
        conditions=[cond("Ready", "False", "Creating"), cond("Synced", "False", "ReconcileError",
                    "cannot determine creation result - remove the crossplane.io/external-create-pending annotation if it is safe to proceed")])
    for n, i in [("logs", "mrk-1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f"), ("backups", "mrk-2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a"), ("tokens", "mrk-3e4f5a6b7c8d9e0f1a2b3c4d5e6f7a8b")]:
        yield "keys", mr(kms, "Key", n, ext=i, at=i, spec={"region": "eu-west-1", "description": n})
    # Async create without LateInitialize: Ready, ID in status only; a restore creates a second key.
    yield "keys", mr(kms, "Key", "payments", at="mrk-0b7c3a1d9e8f47a6b5c4d3e2f1a0b9c8", policies=["Observe", "Create", "Update", "Delete"],
                     ann={"crossplane.io/external-create-pending": "2024-11-28T10:00:00Z", "crossplane.io/external-create-succeeded": "2024-11-28T10:00:00Z"},
                     spec={"region": "eu-west-1", "description": "payments"})
    # The async create had started (succeeded mark) when the backup ran; nothing records its ID.
    yield "keys", mr(kms, "Key", "signing", policies=["Observe", "Create", "Update", "Delete"],
                     ann={"crossplane.io/external-create-pending": "2024-11-29T21:59:30Z", "crossplane.io/external-create-succeeded": "2024-11-29T21:59:30Z"},
                     conditions=[cond("Ready", "False", "Creating"), cond("Synced", "True", "ReconcileSuccess")],
                     spec={"region": "eu-west-1", "description": "signing"})
    # NameAsIdentifier: the initializer fills a missing external-name from metadata.name.
    for n in ["acme-logs", "acme-backups", "acme-site"]:
        yield "buckets", mr(s3, "Bucket", n, ext=n, at=n)
    yield "buckets", mr(s3, "Bucket", "acme-assets", at="acme-assets")
    # A provider placeholder saved as external-name after a create that kept partial state.
    yield "securitygroupingressrules", mr(ec2, "SecurityGroupIngressRule", "https-in", ext="sgr-stub", at="sgr-0123456789abcdef0",
                                          spec={"region": "eu-west-1", "fromPort": 443, "toPort": 443, "ipProtocol": "tcp"})


def files():
    out = [("metadata/version", b"1.1.0\n")]
    crds = [crd("vpcs", "ec2.aws.upbound.io", "VPC"), crd("subnets", "ec2.aws.upbound.io", "Subnet"),
            crd("keys", "kms.aws.upbound.io", "Key"), crd("buckets", "s3.aws.upbound.io", "Bucket"),
            crd("securitygroupingressrules", "ec2.aws.upbound.io", "SecurityGroupIngressRule"),
            crd("providerconfigs", "aws.upbound.io", "ProviderConfig", managed=False)]
    gr = "customresourcedefinitions.apiextensions.k8s.io"
    for c in crds:
        body = json.dumps(c, separators=(",", ":")).encode()
        out.append((f"resources/{gr}/cluster/{c['metadata']['name']}.json", body))
        out.append((f"resources/{gr}/v1-preferredversion/cluster/{c['metadata']['name']}.json", body))
    for plural, obj in items():
        group = obj["apiVersion"].split("/")[0]
        body = json.dumps(obj, separators=(",", ":")).encode()
        out.append((f"resources/{plural}.{group}/cluster/{obj['metadata']['name']}.json", body))
        out.append((f"resources/{plural}.{group}/v1beta1-preferredversion/cluster/{obj['metadata']['name']}.json", body))
    pc = {"apiVersion": "aws.upbound.io/v1beta1", "kind": "ProviderConfig", "metadata": {"name": "default"},
          "spec": {"credentials": {"source": "Secret", "secretRef": {"namespace": "crossplane-system", "name": "aws-creds", "key": "creds"}}}}
    out.append(("resources/providerconfigs.aws.upbound.io/cluster/default.json", json.dumps(pc, separators=(",", ":")).encode()))
    secret = {"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "aws-creds", "namespace": "crossplane-system"}, "data": {"creds": "W2RlZmF1bHRdCg=="}}
    out.append(("resources/secrets/namespaces/crossplane-system/aws-creds.json", json.dumps(secret, separators=(",", ":")).encode()))
    return out


def main():
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tar:
        for name, body in files():
            info = tarfile.TarInfo(name)
            info.size, info.mode, info.mtime = len(body), 0o755, 1732917600
            tar.addfile(info, io.BytesIO(body))
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, mtime=0) as gz:
            gz.write(raw.getvalue())


if __name__ == "__main__":
    main()
