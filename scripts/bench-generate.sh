#!/usr/bin/env bash
# Times `lifeboat generate --size` of a release build (the figure docs/performance.md quotes): a store of SIZE
# (default 1GB) with its attachments inline (in the .sqlite) and then external (files in _EXTERNAL_DATA), each
# in a fresh folder, with the machine's load (uptime) before and after, the size reached against the target,
# and the process's CPU seconds (wall time on a shared machine is mostly waiting for a CPU).
#
#   scripts/bench-generate.sh [SIZE]          e.g. scripts/bench-generate.sh 1GB
set -euo pipefail
cd "$(dirname "$0")/.."
size="${1:-1GB}"
lifeboat=.build/release/lifeboat
[ -x "$lifeboat" ] || swift build -c release --product lifeboat
work="${TMPDIR:-/tmp}/bench-generate-$$"
rm -rf "$work" && mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
for mode in --inline --external; do
    echo "== generate --size $size $mode ($(uptime | sed 's/.*load average/load average/'))"
    /usr/bin/time -f "wall %e s, user %U s, system %S s, peak RSS %M KiB" \
        "$lifeboat" generate --size "$size" "$mode" --out "$work/store$mode" 2>&1 | tail -2
    du -sb --apparent-size "$work/store$mode" | awk '{printf "on disk (apparent): %d bytes\n", $1}'
    rm -rf "$work/store$mode"
done
echo "== done ($(uptime | sed 's/.*load average/load average/'))"
