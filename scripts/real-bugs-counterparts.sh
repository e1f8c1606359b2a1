#!/usr/bin/env bash
# The no-false-alarm campaign of the real-bug catalog: every correct counterpart in Scenarios/real-bugs
# (b*-correct.yaml, expect pass) over seeds 1..N (default 20). A counterpart that raises an alarm on any seed is a
# harness bug or a counterpart that is not correct. Exit codes are the campaign's (0: no alarm on any seed).
#   scripts/real-bugs-counterparts.sh [N] [extra lifeboat run options, e.g. --time-budget 30m]
set -euo pipefail
cd "$(dirname "$0")/.."
seeds="${1:-20}"
shift || true
[ -x .build/debug/lifeboat ] || swift build
exec .build/debug/lifeboat run Scenarios/real-bugs/b*-correct.yaml --seeds "1-$seeds" "$@"
