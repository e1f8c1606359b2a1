#!/usr/bin/env bash
# No-false-alarm check: runs Scenarios/trust-crash.yaml (replace and backup-api on FaultFS, crash with a seeded
# subset of unsynced writes kept) once per seed and fails if any seed reports a violation.
#   scripts/trust.sh [SEEDS=50] [FIRST_SEED=1]
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-50}
first=${2:-1}
scripts/setup.sh
# One campaign (`lifeboat run --seeds`): it lists every seed's verdict and exits non-zero if any seed was violated.
exec .build/debug/lifeboat run Scenarios/trust-crash.yaml --seeds "$first-$((first + seeds - 1))" --reports reports/trust
