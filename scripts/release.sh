#!/usr/bin/env bash
# Builds the static Linux release archive(s) and rewrites krew-manifest.yaml for a tag.
#
#   scripts/release.sh [--tag v0.1.0] [--out dist] [--binary PATH] [--manifest PATH] [--image NAME]
#
# Without --binary it installs what it needs (the x86_64-unknown-linux-musl rustup target and
# Debian's musl-tools for ring's C code), builds a stripped static binary, and packages
#   dist/kubectl-upjet-x86_64-unknown-linux-musl.tar.gz
#     kubectl-upjet-x86_64-unknown-linux-musl/{kubectl-upjet,LICENSE,README.md}
# With --binary it packages that binary instead (tests use this to exercise the packaging path).
# It then writes the manifest with the tag's version and URLs, the real sha256 of every archive it
# built, and, for platforms it cannot build here (linux/arm64, darwin, windows), URLs from the same
# release pattern: their sha256 must be filled by the CI that builds them before publishing.
# A copy named plugins/upjet.yaml (krew-index layout) is written next to the archives.
# With --image NAME it also builds the in-cluster image of `kubectl upjet watch` from the same
# static binary (deploy/watch/Dockerfile, a build context holding only the binary), tagged NAME;
# the container tool is $DOCKER (default docker), and its absence is an error naming it, before
# anything is built. Tests point DOCKER at a stand-in that records its arguments.
set -euo pipefail
cd "$(dirname "$0")/.."

version="v$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n1)"
tag="$version"; out="dist"; binary=""; manifest="krew-manifest.yaml"; image=""
docker="${DOCKER:-docker}"
while [ $# -gt 0 ]; do
  case "$1" in
    --tag) tag="$2"; shift 2 ;;
    --out) out="$2"; shift 2 ;;
    --binary) binary="$2"; shift 2 ;;
    --manifest) manifest="$2"; shift 2 ;;
    --image) image="$2"; shift 2 ;;
    *) echo "release.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
case "$tag" in v[0-9]*.[0-9]*.[0-9]*) ;; *) echo "release.sh: tag $tag is not vMAJOR.MINOR.PATCH" >&2; exit 2 ;; esac
if [ "$tag" != "$version" ]; then
  echo "release.sh: tag $tag differs from Cargo.toml version $version; bump Cargo.toml first" >&2; exit 2
fi

if [ -n "$image" ] && ! command -v "$docker" >/dev/null 2>&1; then
  echo "release.sh: --image needs $docker (set DOCKER to another container tool)" >&2; exit 2
fi

target=x86_64-unknown-linux-musl
if [ -z "$binary" ]; then
  if ! rustup target list --installed | grep -qx "$target"; then rustup target add "$target"; fi
  if ! command -v musl-gcc >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq musl-tools
  fi
  CC_x86_64_unknown_linux_musl=musl-gcc cargo build --release --locked --target "$target"
  binary="target/$target/release/kubectl-upjet"
fi

mkdir -p "$out/plugins"
stage="$(mktemp -d)"; trap 'rm -rf "$stage"' EXIT
dir="kubectl-upjet-$target"
mkdir -p "$stage/$dir"
install -m 0755 "$binary" "$stage/$dir/kubectl-upjet"
install -m 0644 LICENSE README.md "$stage/$dir/"
archive="$out/$dir.tar.gz"
# Deterministic archive: fixed order, owner and mtime, so the sha256 is reproducible.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime='2020-01-01 00:00Z' \
    -C "$stage" -cf - "$dir" | gzip -n -9 > "$archive"
sha="$(sha256sum "$archive" | cut -d' ' -f1)"
echo "$sha  $(basename "$archive")" > "$archive.sha256"

python3 - "$manifest" "$out/plugins/upjet.yaml" "$tag" "$target" "$sha" <<'PY'
import re, sys
src, copy, tag, target, sha = sys.argv[1:6]
text = open(src).read()
text = re.sub(r"(?m)^  version: v\S+$", f"  version: {tag}", text)
text = re.sub(r"releases/download/v[^/]+/", f"releases/download/{tag}/", text)
lines = text.split("\n")
for i, line in enumerate(lines):
    if line.strip().startswith("uri:") and f"kubectl-upjet-{target}." in line:
        for j in range(i + 1, min(i + 3, len(lines))):
            if lines[j].strip().startswith("sha256:"):
                lines[j] = re.sub(r"sha256: \S+", f"sha256: \"{sha}\"", lines[j])
text = "\n".join(lines)
open(src, "w").write(text)
open(copy, "w").write(text)
PY
echo "archive:  $archive"
echo "sha256:   $sha"
echo "size:     $(stat -c %s "$archive") bytes (binary $(stat -c %s "$stage/$dir/kubectl-upjet") bytes)"
echo "manifest: $manifest (copy: $out/plugins/upjet.yaml)"
if [ -n "$image" ]; then
  context="$stage/image"
  mkdir -p "$context"
  install -m 0755 "$binary" "$context/kubectl-upjet"
  "$docker" build -f deploy/watch/Dockerfile --build-arg BINARY=kubectl-upjet -t "$image" "$context"
  echo "image:    $image (deploy/watch/Dockerfile)"
fi
