#!/usr/bin/env python3
"""Issue-13 plan figure: doctor --plan over 20,000 MRs (4,000 broken GCP RecordSets that lost their
ID, 16,000 healthy peers) with a 50,000-record cloud inventory, timed as a whole process.

Usage: cargo build --release && python3 scripts/bench-plan.py [path/to/kubectl-upjet] [runs]
Prints wall seconds and peak RSS (from /usr/bin/time -v when present, else getrusage)."""
import json, os, resource, subprocess, sys, tempfile, time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "release", "kubectl-upjet")
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 3
MRS, BROKEN, RECORDS = 20_000, 4_000, 50_000

def recordset(i, broken):
    name, zone = f"rec-{i}.bench.example.com.", f"zone-{i % 7}"
    rid = f"projects/bench-project/managedZones/{zone}/rrsets/{name}/A"
    meta = {"name": f"rec-{i}", "uid": f"00000000-0000-4000-8000-{i:012d}", "generation": 1,
            "creationTimestamp": "2024-11-30T10:00:00Z", "annotations": {}}
    status = {"conditions": [{"type": "Ready", "status": "True", "reason": "Available", "lastTransitionTime": "2024-11-30T10:01:00Z"},
                             {"type": "Synced", "status": "True", "reason": "ReconcileSuccess", "lastTransitionTime": "2024-11-30T10:01:00Z", "observedGeneration": 1}],
              "atProvider": {"id": rid}}
    if broken:
        msg = f"create failed: async create failed: googleapi: Error 409: The resource '{name}' already exists, alreadyExists"
        status = {"conditions": [{"type": "Ready", "status": "False", "reason": "Creating", "lastTransitionTime": "2024-11-30T10:01:00Z"},
                                 {"type": "Synced", "status": "False", "reason": "ReconcileError", "message": msg, "lastTransitionTime": "2024-11-30T10:01:00Z", "observedGeneration": 1}]}
    else:
        meta["annotations"]["crossplane.io/external-name"] = rid
    return {"apiVersion": "dns.gcp.upbound.io/v1beta2", "kind": "RecordSet", "metadata": meta,
            "spec": {"forProvider": {"managedZone": zone, "name": name, "type": "A", "ttl": 300, "rrdatas": ["10.0.0.1"]},
                     "providerConfigRef": {"name": "default"}},
            "status": status}

def inventory():
    tags = lambda i: [{"Key": "crossplane-kind", "Value": "bucket.s3.aws.upbound.io"},
                      {"Key": "crossplane-name", "Value": f"bucket-{i}"},
                      {"Key": "crossplane-providerconfig", "Value": "default"}]
    return {"ResourceTagMappingList": [{"ResourceARN": f"arn:aws:s3:::bucket-{i}", "Tags": tags(i)} for i in range(RECORDS)]}

def main():
    d = tempfile.mkdtemp(prefix="upjet-bench-plan-")
    snap, inv, plan = (os.path.join(d, n) for n in ("fleet.json", "inventory.json", "plan.json"))
    with open(snap, "w") as f:
        json.dump({"apiVersion": "v1", "kind": "List", "items": [recordset(i, i < BROKEN) for i in range(MRS)]}, f)
    with open(inv, "w") as f:
        json.dump(inventory(), f)
    cmd = [BIN, "doctor", "--from", snap, "--inventory", inv, "--plan", plan, "-o", "json"]
    timed = ["/usr/bin/time", "-v"] + cmd if os.path.exists("/usr/bin/time") else cmd
    for run in range(RUNS):
        start = time.monotonic()
        p = subprocess.run(timed, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = time.monotonic() - start
        rss = next((l.split(":")[1].strip() + " KiB" for l in p.stderr.splitlines() if "Maximum resident" in l),
                   f"{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss} KiB (children max)")
        items = len(json.load(open(plan)))
        print(f"run {run + 1}: {MRS} MRs ({BROKEN} broken), {RECORDS} inventory records: wall {wall:.2f} s, peak RSS {rss}, plan items {items}, exit {p.returncode}")

main()
