#!/usr/bin/env bash
# The same SQLite workload natively, on FaultFS with --host-sync on and off (no fault armed, no op log) and on
# any other file system given on the command line (a LazyFS or passthrough FUSE mount you started),
# interleaved: each round runs every target once, in the same order, so they share the machine's load. Prints
# which build of each target it measures, then per round the times, the ratios to native and the 1-minute load
# average, then the medians of the per-round ratios, for 1 and 3 writers.
# Workload: TXNS transactions, each one INSERT of a 100-byte blob in BEGIN IMMEDIATE/COMMIT, WAL,
# synchronous=FULL (sqlite3 CLI fed a generated script); 3 writers split TXNS between them.
# Usage: scripts/bench-fuse-compare.sh [ROUNDS] [TXNS] [NAME=DIRECTORY ...]
#        env FAULTFS=path/to/faultfs (default .build/release/faultfs), BENCH_DIR=scratch dir,
#        FAULTFS_BEFORE / FAULTFS_BEFORE_ARGS (FaultFS as it was, in the same rounds: scripts/fuse-peers.sh),
#        BUILD_<NAME>="how that peer was built" (printed with its results; a peer is the user's mount, this
#        script neither builds nor starts it: docs/performance.md says how LazyFS was built for the figures
#        there, and that an optimised build is the fair comparison).
set -euo pipefail
ROUNDS=${1:-5}
TXNS=${2:-10000}
shift $(( $# >= 2 ? 2 : $# ))
HERE=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/fuse-peers.sh
. "$HERE/scripts/fuse-peers.sh"
command -v sqlite3 >/dev/null || { echo "sqlite3 CLI not found" >&2; exit 2; }
[[ "$ROUNDS" =~ ^[0-9]+$ && "$TXNS" =~ ^[0-9]+$ && "$ROUNDS" -gt 0 && "$TXNS" -gt 2 ]] || { echo "ROUNDS and TXNS must be positive integers" >&2; exit 2; }
WORK=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/fuse-compare.XXXXXX")}
trap 'unmount_faultfs_all; rm -rf "$WORK"' EXIT
mkdir -p "$WORK/native"
NAMES=(native); DIRS=("$WORK/native")
mount_faultfs hs-on --host-sync on; NAMES+=(faultfs-hs-on); DIRS+=("$WORK/hs-on/mnt")
mount_faultfs hs-off --host-sync off; NAMES+=(faultfs-hs-off); DIRS+=("$WORK/hs-off/mnt")
mount_before hs-on --host-sync on
mount_before hs-off --host-sync off
add_peers "$@"

script() { # $1 = transactions, $2 = writer id
  echo ".timeout 10000"
  echo "PRAGMA journal_mode=WAL;"
  echo "PRAGMA synchronous=FULL;"
  echo "CREATE TABLE IF NOT EXISTS t(id INTEGER PRIMARY KEY, w INTEGER, v BLOB);"
  for ((i = 0; i < $1; i++)); do echo "BEGIN IMMEDIATE; INSERT INTO t(w, v) VALUES($2, randomblob(100)); COMMIT;"; done
}
script "$TXNS" 0 > "$WORK/one.sql"
PER=$(( (TXNS + 2) / 3 ))
for w in 1 2 3; do script "$PER" "$w" > "$WORK/w$w.sql"; done

run() { # $1 = writers, $2 = directory; prints seconds
  set -- "$2" "$1"
  rm -f "$1"/bench.db "$1"/bench.db-wal "$1"/bench.db-shm
  sqlite3 "$1/bench.db" "PRAGMA journal_mode=WAL; CREATE TABLE t(id INTEGER PRIMARY KEY, w INTEGER, v BLOB);" >/dev/null
  local start end
  start=$(date +%s.%N)
  if [ "$2" = 1 ]; then
    sqlite3 "$1/bench.db" < "$WORK/one.sql" >/dev/null
  else
    sqlite3 "$1/bench.db" < "$WORK/w1.sql" >/dev/null & p1=$!
    sqlite3 "$1/bench.db" < "$WORK/w2.sql" >/dev/null & p2=$!
    sqlite3 "$1/bench.db" < "$WORK/w3.sql" >/dev/null & p3=$!
    wait $p1 $p2 $p3
  fi
  end=$(date +%s.%N)
  local rows; rows=$(sqlite3 "$1/bench.db" "SELECT count(*) FROM t;")
  [ "$rows" -ge "$TXNS" ] || { echo "row count $rows < $TXNS in $1" >&2; exit 1; }
  rm -f "$1"/bench.db "$1"/bench.db-wal "$1"/bench.db-shm
  echo "$end - $start" | bc
}

echo "SQLite WAL synchronous=FULL, $TXNS transactions, $ROUNDS interleaved rounds; $(nproc) cores; scratch on $(df --output=fstype "$WORK" | tail -1)"
describe_targets
for writers in 1 3; do
  rounds_loop "$ROUNDS" "$writers writer(s)" run "$writers"
done
print_requests $(( ROUNDS * TXNS * 2 ))
