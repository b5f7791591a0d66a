#!/usr/bin/env bash
# Fetches the OASIS SARIF 2.1.0 JSON schema (sarif-2.1.0-rtm.5.json) that the npm package
# @microsoft/jest-sarif ships, into target/sarif-schema/, for tests/it/ci_formats.rs.
# The test runs it when the file is missing; .ci/run runs it too, before the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
dest=target/sarif-schema
[ -f "$dest/sarif-2.1.0-rtm.5.json" ] && exit 0
mkdir -p "$dest"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent @microsoft/jest-sarif@1.0.0-beta.0 >/dev/null)
tar -xzf "$tmp"/microsoft-jest-sarif-1.0.0-beta.0.tgz -C "$tmp" package/lib/schemas/sarif-2.1.0-rtm.5.json
mv "$tmp"/package/lib/schemas/sarif-2.1.0-rtm.5.json "$dest/"
