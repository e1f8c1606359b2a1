#!/usr/bin/env bash
# The same SQLite workload natively, on FaultFS with --host-sync on and off (no fault armed, no op log) and on
# any other file system given on the command line (a LazyFS or passthrough FUSE mount you started),
# interleaved: each round runs every target once, in the same order, so they share the machine's load. Prints
# which build of each target it measures, then per round the times, the ratios to native and the 1-minute load
# average, then the medians of the per-round ratios, for 1 and 3 writers.
# Workload: TXNS transactions, each one INSERT of a 100-byte blob in BEGIN IMMEDIATE/COMMIT, WAL,
# synchronous=FULL (sqlite3 CLI fed a generated script); 3 writers split TXNS between them.
# PAIRED=1 adds ROUNDS rounds in which one process (Python's sqlite3 module) makes TXNS such commits with 1
# writer on every target in turn, one commit each, so that every target's commits share the machine's load
# commit by commit; it prints each target's median, 90th percentile and mean commit latency and the median of
# the per-commit ratios to native and of each FaultFS target to each peer. On a loaded machine whose device
# flush swings 10x from one second to the next, that is the figure that still compares the sides' own cost.
# Every target's commit then finds its daemon idle since its previous one (no back-to-back requests), so
# FUSE targets pay a wake-up per request that the round totals partly hide.
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

run() { # $1 = writers, $2 = directory; prints seconds (in a subshell: its errors name the directory)
  set -- "$2" "$1"
  exec 2> >(sed -u "s|^|$1: |" >&2)
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
  OPS_PER_RUN=$TXNS rounds_loop "$ROUNDS" "$writers writer(s)" run "$writers"
done
print_requests $(( ROUNDS * TXNS * 2 ))

paired_round() { # $1 = round; commits alternate one by one over every target (native first)
  python3 - "$1" "$TXNS" "${NAMES[@]}" -- "${DIRS[@]}" <<'PY'
import os, sqlite3, statistics, sys, time
rnd, n = sys.argv[1], int(sys.argv[2])
cut = sys.argv.index("--")
names, dirs = sys.argv[3:cut], sys.argv[cut + 1:]
cons = []
for d in dirs:
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(f"{d}/paired.db{suffix}"): os.unlink(f"{d}/paired.db{suffix}")
    c = sqlite3.connect(f"{d}/paired.db", isolation_level=None)
    c.execute("PRAGMA journal_mode=WAL"); c.execute("PRAGMA synchronous=FULL")
    c.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB)")
    cons.append(c)
lat = [[] for _ in cons]
for _ in range(n):
    for k, c in enumerate(cons):
        t = time.perf_counter()
        c.execute("BEGIN IMMEDIATE"); c.execute("INSERT INTO t(v) VALUES(randomblob(100))"); c.execute("COMMIT")
        lat[k].append(time.perf_counter() - t)
for k, c in enumerate(cons):
    rows = c.execute("SELECT count(*) FROM t").fetchone()[0]
    c.close()
    if rows != n: sys.exit(f"{names[k]}: {rows} rows after {n} commits")
    for suffix in ("", "-wal", "-shm"):
        if os.path.exists(f"{dirs[k]}/paired.db{suffix}"): os.unlink(f"{dirs[k]}/paired.db{suffix}")
us = lambda x: f"{x * 1e6:.0f}"
line = f"paired round {rnd} ({n} commits each):"
for k, name in enumerate(names):
    l = sorted(lat[k])
    line += f" {name} median {us(l[len(l) // 2])} p90 {us(l[int(0.9 * (len(l) - 1))])} mean {us(statistics.mean(l))} us"
    if k: line += f" (median per-commit ratio {statistics.median(b / a for a, b in zip(lat[0], lat[k])):.2f})"
    line += ";"
# FaultFS against each peer (a target that is neither native nor FaultFS), commit by commit.
for k, name in enumerate(names):
    for p, peer in enumerate(names):
        if name.startswith("faultfs-") and p and not peer.startswith("faultfs-"):
            line += f" {name}/{peer} median per-commit ratio {statistics.median(b / a for a, b in zip(lat[p], lat[k])):.2f};"
print(f"{line} load {open('/proc/loadavg').read().split()[0]}")
PY
}
if [ -n "${PAIRED:-}" ]; then
  for r in $(seq "$ROUNDS"); do paired_round "$r"; done
fi
