#!/bin/sh
# The readers and external-data drills over seeds, each with its control, to show what the new knob or process
# changes. Usage: scripts/fidelity-drills.sh [SEEDS] (default 10). Needs `swift build` first.
set -eu
seeds="${1:-10}"
cd "$(dirname "$0")/.."
lifeboat=.build/debug/lifeboat
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp -R Scenarios/. "$work/"
# Controls: the passive-checkpoint backup with no readers, the snapshot-then-support backup with a 5 s grace (the
# knob that models a Core Data deleting obsolete files later than inside save(); docs/fidelity.md).
sed '/^readers:/d' Scenarios/readers-stop-passive-checkpoint.yaml | sed 's/, reader-consistent//' > "$work/control-no-readers.yaml"
sed 's/external_data_grace: 0/external_data_grace: 5/' Scenarios/external-data-deleted-early.yaml > "$work/control-grace-5s.yaml"
for drill in readers-stop-passive-checkpoint control-no-readers external-data-deleted-early control-grace-5s; do
    caught=0
    for seed in $(seq 1 "$seeds"); do
        # Exit 0 means the expected violation showed (the controls expect the same violation).
        if "$lifeboat" run "$work/$drill.yaml" --seed "$seed" --reports "$work/reports" >/dev/null 2>&1; then caught=$((caught + 1)); fi
    done
    echo "$drill: caught on $caught of $seeds seeds"
done
