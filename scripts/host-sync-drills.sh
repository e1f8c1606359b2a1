#!/usr/bin/env bash
# Every shipped FaultFS drill (Scenarios/*.yaml and Scenarios/devices/*.yaml that run on FaultFS) with
# faults.host_sync on and off: the same verdict per invariant both times, and each drill's expectation met
# (HostSyncDrillTests; CI runs a representative subset of three, this script runs them all).
# Usage: scripts/host-sync-drills.sh   (env TMPDIR for scratch)
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --build-tests
LIFEBOAT_HOST_SYNC_DRILLS=all exec swift test --skip-build --filter HostSyncDrillTests
