#!/usr/bin/env python3
"""Reruns every ```console block whose first line is `$ kubectl upjet …`, in README.md and in every
page under docs/, against the bundled examples and writes the real output back, so no page shows
stale output.

Usage: cargo build && python3 scripts/readme-examples.py [path/to/kubectl-upjet]"""
import glob, os, re, shlex, subprocess, sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
BIN = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "debug", "kubectl-upjet")

def run(command):
    """Runs the shown command line through bash (pipes to jq work) from the repository root, with
    `kubectl upjet` bound to the freshly built binary and "now" pinned, as the examples' ages
    assume."""
    script = command.replace("\\\n", " ").replace("kubectl upjet ", shlex.quote(BIN) + " ")
    env = dict(os.environ, UPJET_NOW="2024-11-30T12:00:00Z", NO_COLOR="1")
    p = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, capture_output=True, text=True)
    return p.stdout + p.stderr

def refresh(match):
    body = match.group(1)
    lines = body.split("\n")
    if not lines[0].startswith("$ kubectl upjet "):
        return match.group(0)
    command, i = lines[0][2:], 1
    while command.endswith("\\") and i < len(lines):
        command += "\n" + lines[i]
        i += 1
    shown = "$ " + command + "\n" + run(command)
    return "```console\n" + shown + "```"

pages = ["README.md"] + sorted(os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
for page in pages:
    path = os.path.join(ROOT, page)
    text = open(path).read()
    new = re.sub(r"```console\n(.*?)```", refresh, text, flags=re.S)
    if new != text:
        open(path, "w").write(new)
    print(page, "updated" if new != text else "unchanged")
