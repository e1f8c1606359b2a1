#!/usr/bin/env bash
# The no-false-alarm campaign: every drill that expects `pass` (the correct strategies) on seeds 1..N, a failing
# seed rerun twice to tell a flaky verdict from a stable one. Writes one suite folder (reports/latest).
#   scripts/campaign.sh [SEEDS=50] [extra lifeboat run options, e.g. --shard 1/2 --time-budget 1h]
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-50}
shift || true
scripts/setup.sh
mapfile -t drills < <(grep -l '^expect: pass' Scenarios/*.yaml)
exec .build/debug/lifeboat run "${drills[@]}" --seeds "1-$seeds" --repeat 2 "$@"
