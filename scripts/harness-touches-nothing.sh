#!/usr/bin/env bash
# The harness never changes what it judges, over every shipped drill and tool recipe that runs on FaultFS: each
# runs once (seed 1), its scratch is kept, and its op log must hold no operation by the runner's own process
# (the one that generated the store, the first pid in the log) that creates, writes, truncates, renames, removes
# or syncs anything on the volume, or opens a file there for writing, once another process (a writer) has
# started. Tests/RunnerTests/HarnessTouchesNothingTests.swift checks the same on six of them in CI.
#   scripts/harness-touches-nothing.sh [SCENARIO...]   (default: every FaultFS drill and recipe)
set -euo pipefail
cd "$(dirname "$0")/.."
work=${TMPDIR:-/tmp}/lifeboat-untouched
rm -rf "$work" && mkdir -p "$work"
if [ "$#" -gt 0 ]; then files=("$@"); else
    mapfile -t files < <(grep -l -E '^\s*mount: true|^faults: \{?.*mount: true' Scenarios/*.yaml Scenarios/bugs/*.yaml 2>/dev/null; \
        ls Scenarios/tools/*/*.yaml | grep -v _situations | while read -r f; do \
            grep -q -E 'crash-during-backup|crash-after-restore' <<<"$f" && echo "$f"; done)
fi
failed=0
for file in "${files[@]}"; do
    scratch="$work/$(echo "$file" | tr '/' '_')"
    .build/debug/lifeboat run "$file" --seed 1 --scratch "$scratch" --keep --reports "$work/reports" >"$scratch.log" 2>&1 || true
    log=$(ls "$scratch"/run-*/faultfs.oplog 2>/dev/null | head -1 || true)
    if [ -z "$log" ]; then echo "$file: no FaultFS op log (not a FaultFS run?)"; continue; fi
    if python3 - "$log" <<'PY'
import json, sys
changing = {"create", "mkdir", "mknod", "symlink", "link", "unlink", "rmdir", "rename", "exchange",
            "write", "truncate", "fallocate", "fsync", "fdatasync", "fsyncdir"}
records = [json.loads(line) for line in open(sys.argv[1]) if line.strip()]
pids = [r["pid"] for r in records if r.get("pid") is not None]
if not pids: sys.exit("no pid in the op log")
harness = pids[0]
started = False
bad = []
for r in records:
    pid = r.get("pid")
    if pid is not None and pid != harness: started = True
    if not started or pid != harness: continue
    flags = int(r.get("detail", "flags=0x0").split("0x")[-1], 16) if r["op"] == "open" else 0
    if r["op"] in changing or flags & (0o1 | 0o2 | 0o100 | 0o1000):
        bad.append(f'{r["seq"]} {r["t"]:.4f} {r["op"]} {r.get("path")} {r.get("path2") or ""}')
if bad:
    print("\n".join(bad[:10]))
    sys.exit(1)
PY
    then echo "$file: untouched"; else echo "$file: THE HARNESS CHANGED THE VOLUME"; failed=$((failed + 1)); fi
    rm -rf "$scratch"
done
echo "harness-touches-nothing: ${#files[@]} run(s), $failed changed by the harness"
[ "$failed" -eq 0 ]
