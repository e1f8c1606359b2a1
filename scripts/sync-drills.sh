#!/bin/sh
# The sync(2) drills over seeds: a restore script ending in `sync` (also `sync -f DIR` and Python's os.sync())
# must pass after a crash on every seed, and the same script without any sync must be caught on every seed.
# Usage: scripts/sync-drills.sh [SEEDS]   (default 10). Needs `swift build` first; prints one line per drill.
set -eu
seeds="${1:-10}"
cd "$(dirname "$0")/.."
lifeboat=.build/debug/lifeboat
reports="$(mktemp -d)"
trap 'rm -rf "$reports"' EXIT
scenario_dir="$(mktemp -d)"
trap 'rm -rf "$reports" "$scenario_dir"' EXIT
cp -R Scenarios/. "$scenario_dir/"
for variant in sync sync-f python; do
    sed "s|command: sh |command: LIFEBOAT_RESTORE_SYNC=$variant sh |" Scenarios/restore-script-syncs.yaml > "$scenario_dir/restore-script-$variant.yaml"
done
for drill in restore-script-sync restore-script-sync-f restore-script-python restore-script-never-syncs; do
    met=0
    for seed in $(seq 1 "$seeds"); do
        if "$lifeboat" run "$scenario_dir/$drill.yaml" --seed "$seed" --reports "$reports" >/dev/null 2>&1; then met=$((met + 1)); fi
    done
    echo "$drill: expectation met on $met of $seeds seeds"
done
