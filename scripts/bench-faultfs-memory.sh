#!/usr/bin/env bash
# Memory bound of FaultFS's unsynced data: writes SIZE_MB of data to one file on a FaultFS mount with no
# fsync, reports the daemon's peak RSS (VmHWM from /proc/PID/status) and the status counters, then crashes
# (keep-none) and checks the backing file is byte for byte what it was before the writes.
# Usage: scripts/bench-faultfs-memory.sh [SIZE_MB] [BUDGET]   (default 4096 MiB, budget 256M)
#        env FAULTFS=path/to/faultfs, BENCH_DIR=scratch dir (needs about 2 x SIZE_MB free)
#        NODES=N: then the inode table: creates N files (the kernel holds a node per name), reports the table's
#        nodes and the daemon's RSS, removes them and reports the nodes again (the table forgets what the kernel
#        forgets; docs/faultfs.md, Kernel caches).
set -euo pipefail
SIZE_MB=${1:-4096}
BUDGET=${2:-256M}
HERE=$(cd "$(dirname "$0")/.." && pwd)
FAULTFS=${FAULTFS:-$HERE/.build/release/faultfs}
[ -x "$FAULTFS" ] || FAULTFS=$HERE/.build/debug/faultfs
[ -x "$FAULTFS" ] || { echo "faultfs not built (swift build --product faultfs)" >&2; exit 2; }
WORK=${BENCH_DIR:-$(mktemp -d /tmp/faultfs-mem.XXXXXX)}
mkdir -p "$WORK/backing" "$WORK/mnt"
DAEMON=
cleanup() {
  [ -n "$DAEMON" ] && kill "$DAEMON" 2>/dev/null && wait "$DAEMON" 2>/dev/null
  fusermount3 -u -z "$WORK/mnt" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

"$FAULTFS" mount "$WORK/backing" "$WORK/mnt" --control "$WORK/ctl" --memory-budget "$BUDGET" > "$WORK/daemon.out" 2>&1 &
DAEMON=$!
for _ in $(seq 200); do grep -q " $WORK/mnt fuse" /proc/mounts && break; sleep 0.05; done
grep -q " $WORK/mnt fuse" /proc/mounts || { cat "$WORK/daemon.out"; exit 1; }

# A durable 64 MiB file, then SIZE_MB of unsynced overwrites and appends.
dd if=/dev/urandom of="$WORK/mnt/big" bs=1M count=64 conv=fsync status=none
"$FAULTFS" ctl "$WORK/ctl" sync-all > /dev/null
before=$(sha256sum < "$WORK/backing/big")
start=$(date +%s.%N)
dd if=/dev/zero of="$WORK/mnt/big" bs=1M count="$SIZE_MB" conv=notrunc status=none
end=$(date +%s.%N)
status=$("$FAULTFS" ctl "$WORK/ctl" status)
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$DAEMON/status")
"$FAULTFS" ctl "$WORK/ctl" crash keep-none > /dev/null
after=$(sha256sum < "$WORK/backing/big")
size=$(stat -c %s "$WORK/backing/big")
echo "faultfs: $FAULTFS; budget $BUDGET; wrote $SIZE_MB MiB without fsync in $(echo "$end - $start" | bc) s"
echo "daemon peak RSS (VmHWM): $((hwm / 1024)) MiB"
echo "status before the crash: $(echo "$status" | grep -o '"peakUnsyncedRAMBytes":[0-9]*\|"spillBytes":[0-9]*' | tr '\n' ' ')"
if [ "$before" = "$after" ] && [ "$size" = $((64 << 20)) ]; then
  echo "after crash keep-none: backing file identical to before the writes (64 MiB)"
else
  echo "after crash keep-none: backing file CHANGED (size $size)"; exit 1
fi

if [ -n "${NODES:-}" ]; then
  [[ "$NODES" =~ ^[0-9]+$ ]] || { echo "NODES must be a number" >&2; exit 2; }
  # sync-all first: status lists every pending entry, and N pending creates make too long a reply.
  nodes() { "$FAULTFS" ctl "$WORK/ctl" sync-all > /dev/null; "$FAULTFS" ctl "$WORK/ctl" status | grep -o '"nodes":[0-9]*' | cut -d: -f2; }
  rss() { awk '/VmRSS/ {print int($2 / 1024)}' "/proc/$DAEMON/status"; }
  echo "inode table: $(nodes) nodes, daemon RSS $(rss) MiB before"
  mkdir "$WORK/mnt/many"
  (cd "$WORK/mnt/many" && seq "$NODES" | xargs touch)
  echo "inode table: $(nodes) nodes with $NODES files, daemon RSS $(rss) MiB"
  rm -rf "$WORK/mnt/many"
  for _ in $(seq 100); do [ "$(nodes)" -le 10 ] && break; sleep 0.1; done 2>/dev/null || true
  echo "inode table: $(nodes) nodes after removing them, daemon RSS $(rss) MiB, peak RSS (VmHWM) $(awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$DAEMON/status") MiB"
fi
