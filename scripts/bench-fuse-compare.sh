#!/usr/bin/env bash
# The same SQLite workload natively, on FaultFS (no fault armed, no op log) and on any other file system given
# on the command line (e.g. a LazyFS or passthrough FUSE mount you started), interleaved: each round runs every
# target once, in the same order, so they share the machine's load. Prints per-round times, per-round ratios
# to native and their medians, for 1 and 3 writers.
# Workload: TXNS transactions, each one INSERT of a 100-byte blob in BEGIN IMMEDIATE/COMMIT, WAL,
# synchronous=FULL (sqlite3 CLI fed a generated script); 3 writers split TXNS between them.
# Usage: scripts/bench-fuse-compare.sh [ROUNDS] [TXNS] [NAME=DIRECTORY ...]
#        env FAULTFS=path/to/faultfs (default .build/release/faultfs), BENCH_DIR=scratch dir
set -euo pipefail
ROUNDS=${1:-5}
TXNS=${2:-10000}
shift $(( $# >= 2 ? 2 : $# ))
HERE=$(cd "$(dirname "$0")/.." && pwd)
FAULTFS=${FAULTFS:-$HERE/.build/release/faultfs}
[ -x "$FAULTFS" ] || FAULTFS=$HERE/.build/debug/faultfs
[ -x "$FAULTFS" ] || { echo "faultfs not built (swift build -c release --product faultfs)" >&2; exit 2; }
command -v sqlite3 >/dev/null || { echo "sqlite3 CLI not found" >&2; exit 2; }
[[ "$ROUNDS" =~ ^[0-9]+$ && "$TXNS" =~ ^[0-9]+$ && "$ROUNDS" -gt 0 && "$TXNS" -gt 2 ]] || { echo "ROUNDS and TXNS must be positive integers" >&2; exit 2; }
WORK=${BENCH_DIR:-$(mktemp -d /tmp/fuse-compare.XXXXXX)}
mkdir -p "$WORK/native" "$WORK/backing" "$WORK/mnt"
DAEMON=
trap '[ -n "$DAEMON" ] && { kill "$DAEMON" 2>/dev/null; wait "$DAEMON" 2>/dev/null; }; fusermount3 -u -z "$WORK/mnt" 2>/dev/null || true; rm -rf "$WORK"' EXIT

NAMES=(native faultfs); DIRS=("$WORK/native" "$WORK/mnt")
for arg in "$@"; do
  name=${arg%%=*}; dir=${arg#*=}
  [ "$name" != "$arg" ] && [ -d "$dir" ] && [ -w "$dir" ] || { echo "bad target $arg (want NAME=WRITABLE_DIRECTORY)" >&2; exit 2; }
  mkdir -p "$dir/lifeboat-bench"; NAMES+=("$name"); DIRS+=("$dir/lifeboat-bench")
done

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

run() { # $1 = directory, $2 = writers; prints seconds
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
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

"$FAULTFS" mount "$WORK/backing" "$WORK/mnt" --control "$WORK/ctl" --seed 1 > "$WORK/daemon.out" 2>&1 &
DAEMON=$!
for _ in $(seq 200); do grep -q " $WORK/mnt fuse" /proc/mounts && break; sleep 0.05; done
grep -q " $WORK/mnt fuse" /proc/mounts || { cat "$WORK/daemon.out"; exit 1; }

echo "faultfs $FAULTFS; $TXNS transactions; $ROUNDS interleaved rounds; WAL, synchronous=FULL; targets: ${NAMES[*]}"
for writers in 1 3; do
  for n in "${NAMES[@]}"; do : > "$WORK/$n.times"; done
  for r in $(seq "$ROUNDS"); do
    line="$writers writer(s) round $r:"
    for i in "${!NAMES[@]}"; do
      t=$(run "${DIRS[$i]}" "$writers"); echo "$t" >> "$WORK/${NAMES[$i]}.times"
      line+=$(printf ' %s %.3f s' "${NAMES[$i]}" "$t")
    done
    nat=$(tail -1 "$WORK/native.times")
    for n in "${NAMES[@]:1}"; do line+=$(printf ' | %s/native %.2f' "$n" "$(echo "$(tail -1 "$WORK/$n.times") / $nat" | bc -l)"); done
    echo "$line"
  done
  summary="$writers writer(s): native median $(median < "$WORK/native.times") s"
  for n in "${NAMES[@]:1}"; do
    ratio=$(paste "$WORK/native.times" "$WORK/$n.times" | awk '{printf "%.4f\n", $2 / $1}' | median)
    summary+=$(printf '; %s median %.3f s, median per-round ratio %.2f' "$n" "$(median < "$WORK/$n.times")" "$ratio")
  done
  echo "$summary"
done
