#!/usr/bin/env bash
# Sets up, builds, and runs the whole test suite (the FaultFS tests mount real FUSE file systems).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --build-tests 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' || true
# The CI files against their schemas, and the suite, bench and try pages (with a run report) rendered in headless Chromium and checked.
scripts/validate-ci.sh
scripts/check-suite-html.sh
scripts/check-bench-html.sh
scripts/check-try-html.sh
exec swift test "$@"
