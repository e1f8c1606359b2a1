#!/usr/bin/env bash
# Sets up, builds, and runs the default drill on a scratch store; prints the verdict and where the report is.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.build/debug/lifeboat drill
exec .build/debug/lifeboat run "${@:-Scenarios}"
