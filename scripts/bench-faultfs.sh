#!/usr/bin/env bash
# Benchmark: the same SQLite workload natively (plain directory) and on FaultFS with no fault armed.
# Workload: 10,000 transactions (each one INSERT in its own BEGIN/COMMIT), WAL, synchronous=FULL,
# run by the sqlite3 CLI from a generated SQL script; once with one writer, once with three concurrent
# writers (3,334 transactions each, busy timeout 10 s). Prints the median of ROUNDS runs and the ratio.
# Usage: scripts/bench-faultfs.sh [ROUNDS] [TXNS]   (env FAULTFS=path/to/faultfs, BENCH_DIR=scratch dir)
set -euo pipefail
ROUNDS=${1:-3}
TXNS=${2:-10000}
HERE=$(cd "$(dirname "$0")/.." && pwd)
FAULTFS=${FAULTFS:-$HERE/.build/release/faultfs}
[ -x "$FAULTFS" ] || FAULTFS=$HERE/.build/debug/faultfs
[ -x "$FAULTFS" ] || { echo "faultfs not built (swift build -c release --product faultfs)" >&2; exit 1; }
command -v sqlite3 >/dev/null || { echo "sqlite3 CLI not found" >&2; exit 1; }
WORK=${BENCH_DIR:-$(mktemp -d /tmp/faultfs-bench.XXXXXX)}
mkdir -p "$WORK"
trap 'fusermount3 -u -z "$WORK/mnt" 2>/dev/null || true; rm -rf "$WORK"' EXIT

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

run() { # $1 = directory, $2 = writers (1 or 3); prints seconds
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
  echo "$end - $start" | bc
}
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

mkdir -p "$WORK/native" "$WORK/backing" "$WORK/mnt"
"$FAULTFS" mount "$WORK/backing" "$WORK/mnt" --control "$WORK/ctl" --seed 1 > "$WORK/daemon.out" 2>&1 &
DAEMON=$!
for _ in $(seq 100); do grep -q " $WORK/mnt fuse" /proc/mounts && break; sleep 0.05; done
grep -q " $WORK/mnt fuse" /proc/mounts || { cat "$WORK/daemon.out"; exit 1; }

echo "faultfs: $FAULTFS; $TXNS transactions; $ROUNDS rounds; WAL, synchronous=FULL; scratch on $(df --output=fstype "$WORK" | tail -1)"
for writers in 1 3; do
  : > "$WORK/native.times"; : > "$WORK/faultfs.times"
  for r in $(seq "$ROUNDS"); do
    run "$WORK/native" "$writers" >> "$WORK/native.times"
    run "$WORK/mnt" "$writers" >> "$WORK/faultfs.times"
  done
  n=$(median < "$WORK/native.times"); f=$(median < "$WORK/faultfs.times")
  printf "%d writer(s): native median %.3f s  [%s]\n" "$writers" "$n" "$(tr '\n' ' ' < "$WORK/native.times")"
  printf "%d writer(s): faultfs median %.3f s  [%s]\n" "$writers" "$f" "$(tr '\n' ' ' < "$WORK/faultfs.times")"
  printf "%d writer(s): ratio faultfs/native = %.2f (of medians)\n" "$writers" "$(echo "$f / $n" | bc -l)"
  paired=$(paste "$WORK/native.times" "$WORK/faultfs.times" | awk '{printf "%.4f\n", $2 / $1}' | median)
  printf "%d writer(s): median of per-round ratios = %.2f (each round runs native then faultfs back to back)\n" "$writers" "$paired"
done
"$FAULTFS" ctl "$WORK/ctl" shutdown >/dev/null
wait $DAEMON || true
