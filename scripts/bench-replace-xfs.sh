#!/usr/bin/env bash
# Benchmark: `replace` of generated stores onto a loop-mounted XFS with reflinks (needs root, xfsprogs), release
# build, one child process per round, with the machine's load before and after (docs/performance.md, "replace
# on XFS with reflinks"). Stores are generated once into the bench cache.
# Usage: scripts/bench-replace-xfs.sh [SIZES] [ROUNDS]   (defaults: 1GB,4GB and 3)
set -euo pipefail
cd "$(dirname "$0")/.."
sizes="${1:-1GB,4GB}"
rounds="${2:-3}"
swift build -c release >/dev/null
echo "load before: $(uptime)"
.build/release/lifeboat bench --volume xfs-reflink --sizes "$sizes" --strategies replace --rounds "$rounds" --no-check \
  --reports "${TMPDIR:-/tmp}/bench-replace-xfs"
echo "load after: $(uptime)"
