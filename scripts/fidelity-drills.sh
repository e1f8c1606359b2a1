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
# (A campaign tells its runs apart by scenario name: each control gets its own.)
sed -e '/^readers:/d' -e 's/, reader-consistent//' -e 's/^name: .*/name: control-no-readers/' \
    Scenarios/readers-stop-passive-checkpoint.yaml > "$work/control-no-readers.yaml"
sed -e 's/external_data_grace: 0/external_data_grace: 5/' -e 's/^name: .*/name: control-grace-5s/' \
    Scenarios/external-data-deleted-early.yaml > "$work/control-grace-5s.yaml"
# One campaign (`lifeboat run --seeds`): a seed counts as "expected" when the drill's expected violation showed
# (the controls expect the same violation, so "expected" there is "caught").
"$lifeboat" run "$work/readers-stop-passive-checkpoint.yaml" "$work/control-no-readers.yaml" \
    "$work/external-data-deleted-early.yaml" "$work/control-grace-5s.yaml" \
    --seeds "1-$seeds" --reports "$work/reports" 2>&1 | sed -n -e '/^lifeboat:/p' -e '/^per scenario:/,/^per invariant:/{/^per invariant:/!p}'
