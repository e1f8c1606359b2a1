#!/usr/bin/env bash
# Benchmark: the same SQLite workload natively and on FaultFS with no fault armed, interleaved rounds with
# per-round ratios. Kept under its old name; the script is scripts/bench-fuse-compare.sh, which also takes other
# FUSE file systems (NAME=DIR) to compare with.
# Usage: scripts/bench-faultfs.sh [ROUNDS] [TXNS]
exec "$(dirname "$0")/bench-fuse-compare.sh" "$@"
