#!/usr/bin/env bash
# No-false-alarm check: runs Scenarios/trust-crash.yaml (replace and backup-api on FaultFS, crash with a seeded
# subset of unsynced writes kept) once per seed and fails if any seed reports a violation.
#   scripts/trust.sh [SEEDS=50] [FIRST_SEED=1]
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-50}
first=${2:-1}
scripts/setup.sh
failed=0
for seed in $(seq "$first" $((first + seeds - 1))); do
    if ! .build/debug/lifeboat run Scenarios/trust-crash.yaml --seed "$seed" --reports reports/trust >/tmp/lifeboat-trust.log 2>&1; then
        failed=$((failed + 1))
        echo "seed $seed: VIOLATION (see $(grep -o 'report: .*' /tmp/lifeboat-trust.log | tail -1))"
    else
        echo "seed $seed: held"
    fi
done
echo "trust: $((seeds - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
