#!/usr/bin/env bash
# Fetches the JSON Schemas of Kubernetes v1.36's admissionregistration.k8s.io/v1 objects
# (ValidatingAdmissionPolicy[Binding], MutatingAdmissionPolicy[Binding]) and of
# apiextensions.k8s.io/v1 CustomResourceDefinition, in their strict form (no unknown field
# allowed), into target/k8s-schema/v1.36.0/, for tests/it/guard_manifests.rs. They come from
# the PyPI package kubernetes-validate, which ships the schemas generated from Kubernetes'
# published OpenAPI documents (api/openapi-spec) for each release.
# The test runs it when the files are missing; .ci/run runs it too, before the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=target/k8s-schema/v1.36.0
[ -f "$dest/_definitions.json" ] && exit 0
mkdir -p "$dest"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 -m pip download --quiet --no-deps --disable-pip-version-check kubernetes-validate==1.37.0 -d "$tmp" >/dev/null
python3 - "$tmp"/kubernetes_validate-1.37.0-py3-none-any.whl "$dest" <<'PY'
import sys, zipfile
wheel, dest = sys.argv[1], sys.argv[2]
prefix = "kubernetes_validate/kubernetes-json-schema/v1.36.0-local-strict/"
wanted = [
    "_definitions.json",
    "validatingadmissionpolicy-admissionregistration-v1.json",
    "validatingadmissionpolicybinding-admissionregistration-v1.json",
    "mutatingadmissionpolicy-admissionregistration-v1.json",
    "mutatingadmissionpolicybinding-admissionregistration-v1.json",
    "customresourcedefinition-apiextensions-v1.json",
]
with zipfile.ZipFile(wheel) as z:
    for name in wanted:
        with open(f"{dest}/{name}", "wb") as out:
            out.write(z.read(prefix + name))
PY
