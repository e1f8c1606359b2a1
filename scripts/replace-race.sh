#!/bin/sh
# The external-data fidelity drills over seeds (docs/fidelity.md quotes the counts).
# Usage: scripts/replace-race.sh [RACE_SEEDS] [SEEDS]  (defaults 20 and 10). Needs `swift build` first.
# For replace-under-attachment-writers it prints on how many seeds a replace backup referenced an attachment
# file it lacked, and how many of all the backups checked did; for the other drills, on how many seeds the
# drill showed its expected verdict.
set -eu
race_seeds="${1:-20}"
seeds="${2:-10}"
cd "$(dirname "$0")/.."
lifeboat="$PWD/.build/debug/lifeboat"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
runs=0; caught=0; bad=0; checked=0
for seed in $(seq 1 "$race_seeds"); do
    out="$("$lifeboat" run Scenarios/replace-under-attachment-writers.yaml --seed "$seed" --reports "$work/reports" 2>&1 || true)"
    runs=$((runs + 1))
    line="$(printf '%s\n' "$out" | grep -E '(VIOLATED|held) +blobs-carried' | head -1)"
    case "$line" in
        *VIOLATED*)
            caught=$((caught + 1))
            # "violated in X of Y check(s)": Y counts the live store at the end too.
            x="$(printf '%s\n' "$line" | sed -E 's/.*violated in ([0-9]+) of ([0-9]+).*/\1/')"
            y="$(printf '%s\n' "$line" | sed -E 's/.*violated in ([0-9]+) of ([0-9]+).*/\2/')"
            bad=$((bad + x)); checked=$((checked + y - 1)) ;;
        *)
            y="$(printf '%s\n' "$line" | sed -E 's/.*held in ([0-9]+) check.*/\1/')"
            checked=$((checked + ${y:-1} - 1)) ;;
    esac
done
echo "replace-under-attachment-writers: a backup lacked a referenced file on $caught of $runs seeds ($bad of $checked replace backups)"
# The other drills as one campaign (`lifeboat run --seeds`): its table counts the seeds with the expected verdict.
"$lifeboat" run Scenarios/replace-writers-paused.yaml Scenarios/restore-keeps-live-support.yaml \
    Scenarios/backup-support-after-snapshot.yaml --seeds "1-$seeds" --reports "$work/reports" 2>&1 | sed -n -e '/^lifeboat:/p' -e '/^per scenario:/,/^per invariant:/{/^per invariant:/!p}'
