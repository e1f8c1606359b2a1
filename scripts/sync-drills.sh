#!/bin/sh
# The sync(2) drills over seeds: a restore script ending in `sync` (also `sync -f DIR` and Python's os.sync())
# must pass after a crash on every seed, and the same script without any sync must be caught on every seed.
# Usage: scripts/sync-drills.sh [SEEDS]   (default 10). Needs `swift build` first; prints one line per drill.
set -eu
seeds="${1:-10}"
cd "$(dirname "$0")/.."
lifeboat=.build/debug/lifeboat
reports="$(mktemp -d)"
scenario_dir="$(mktemp -d)"
trap 'rm -rf "$reports" "$scenario_dir"' EXIT
cp -R Scenarios/. "$scenario_dir/"
for variant in sync sync-f python; do
    # A campaign tells its runs apart by scenario name: each variant gets its own.
    sed -e "s|command: sh |command: LIFEBOAT_RESTORE_SYNC=$variant sh |" -e "s|^name: .*|name: restore-script-$variant|" \
        Scenarios/restore-script-syncs.yaml > "$scenario_dir/restore-script-$variant.yaml"
done
# One campaign (`lifeboat run --seeds`): its per-scenario table counts the seeds on which each met its expectation.
"$lifeboat" run "$scenario_dir/restore-script-sync.yaml" "$scenario_dir/restore-script-sync-f.yaml" \
    "$scenario_dir/restore-script-python.yaml" "$scenario_dir/restore-script-never-syncs.yaml" \
    --seeds "1-$seeds" --reports "$reports" 2>&1 | sed -n -e '/^lifeboat:/p' -e '/^per scenario:/,/^per invariant:/{/^per invariant:/!p}'
