#!/usr/bin/env bash
# Benchmark: every persistence point of a drill checked by `lifeboat crash-states` (release build), with the
# machine's load before and after. Prints the states checked, how many were examined afresh, wall and CPU
# seconds, states per second and per CPU second, and where the time went (docs/performance.md, "Crash states").
# Usage: scripts/bench-crash-states.sh [SCENARIO] [MAX_POINTS] [JOBS]
#   (defaults: Scenarios/crash-durable.yaml, every point, --jobs 1; JOBS=cores for one unit of points per core)
set -euo pipefail
cd "$(dirname "$0")/.."
scenario="${1:-Scenarios/crash-durable.yaml}"
points="${2:-100000}"
jobs="${3:-1}"
swift build -c release >/dev/null
scratch="$(mktemp -d "${TMPDIR:-/tmp}/bench-crash-states.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
echo "load before: $(uptime)"
.build/release/lifeboat crash-states "$scenario" --max-points "$points" --jobs "$jobs" --reports "$scratch/reports" --scratch "$scratch/scratch" \
  | grep -v '^  crash states:' || true
echo "load after: $(uptime)"
