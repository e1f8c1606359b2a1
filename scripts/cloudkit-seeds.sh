#!/bin/sh
# The CloudKit drills (Scenarios/cloudkit, docs/cloudkit.md) over seeds: each must show its expected verdict on
# every seed. CI runs each on its own seed (CloudKitDrillTests); this is the longer measurement.
# Usage: scripts/cloudkit-seeds.sh [SEEDS]   (default 10). Needs `swift build` first; one line per drill.
set -eu
seeds="${1:-10}"
cd "$(dirname "$0")/.."
lifeboat=.build/debug/lifeboat
reports="$(mktemp -d)"
trap 'rm -rf "$reports"' EXIT
for file in Scenarios/cloudkit/[!_]*.yaml; do
    met=0
    started=$(date +%s)
    for seed in $(seq 1 "$seeds"); do
        if "$lifeboat" run "$file" --seed "$seed" --reports "$reports" >/dev/null 2>&1; then met=$((met + 1)); fi
    done
    echo "$(basename "$file" .yaml): expectation met on $met of $seeds seeds ($(( $(date +%s) - started )) s)"
done
