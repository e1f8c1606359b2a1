#!/bin/sh
# The CloudKit drills (Scenarios/cloudkit, docs/cloudkit.md) over seeds: each must show its expected verdict on
# every seed. CI runs each on its own seed (CloudKitDrillTests); this is the longer measurement.
# Usage: scripts/cloudkit-seeds.sh [SEEDS]   (default 10). Needs `swift build` first; one table row per drill.
set -eu
seeds="${1:-10}"
cd "$(dirname "$0")/.."
lifeboat=.build/debug/lifeboat
reports="$(mktemp -d)"
trap 'rm -rf "$reports"' EXIT
# One campaign (`lifeboat run --seeds`): its per-scenario table counts the seeds on which each met its expectation.
"$lifeboat" run Scenarios/cloudkit/[!_]*.yaml --seeds "1-$seeds" --reports "$reports" 2>&1 | sed -n -e '/^lifeboat:/p' -e '/^per scenario:/,/^per invariant:/{/^per invariant:/!p}'
