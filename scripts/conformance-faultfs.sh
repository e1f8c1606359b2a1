#!/usr/bin/env bash
# Conformance of FaultFS against the native file system it sits on, with suites that are NOT part of the
# project (pass their paths; nothing is vendored):
#   scripts/conformance-faultfs.sh fsx FSX_BINARY [OPS]        xfstests' ltp/fsx: OPS ops (default 100000)
#       with mmap and without (-R -W), natively and on FaultFS (with --mmap for the mmap run); prints the
#       times, the ratio and the daemon's peak RSS (VmHWM). Both sides run the same op mix: collapse and
#       insert range (-C -I), which FaultFS does not implement (fsx would drop them there only), are off;
#       FSX_FLAGS adds flags to both.
#   scripts/conformance-faultfs.sh pjdfstest PJDFSTEST_DIR     pjdfstest (a built checkout: PJDFSTEST_DIR/tests
#       and PJDFSTEST_DIR/pjdfstest); prints the failed-test counts natively and on FaultFS.
# Runs as root (pjdfstest needs it). env FAULTFS=path/to/faultfs, BENCH_DIR=scratch dir.
set -euo pipefail
MODE=${1:-}; TOOL=${2:-}
[ -n "$MODE" ] && [ -n "$TOOL" ] || { sed -n 2,10p "$0" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")/.." && pwd)
FAULTFS=${FAULTFS:-$HERE/.build/release/faultfs}
[ -x "$FAULTFS" ] || FAULTFS=$HERE/.build/debug/faultfs
[ -x "$FAULTFS" ] || { echo "faultfs not built" >&2; exit 2; }
WORK=${BENCH_DIR:-$(mktemp -d /tmp/faultfs-conf.XXXXXX)}
chmod 755 "$WORK"
DAEMON=
unmount() {
  if [ -n "$DAEMON" ]; then kill "$DAEMON" 2>/dev/null || true; wait "$DAEMON" 2>/dev/null || true; DAEMON=; fi
  fusermount3 -u -z "$WORK/mnt" 2>/dev/null || true
}
trap 'unmount; rm -rf "$WORK"' EXIT
mount_faultfs() { # extra daemon arguments
  rm -rf "$WORK/backing"; mkdir -p "$WORK/backing" "$WORK/mnt"
  "$FAULTFS" mount "$WORK/backing" "$WORK/mnt" --control "$WORK/ctl" "$@" > "$WORK/daemon.out" 2>&1 &
  DAEMON=$!
  for _ in $(seq 200); do grep -q " $WORK/mnt fuse" /proc/mounts && break; sleep 0.05; done
  grep -q " $WORK/mnt fuse" /proc/mounts || { cat "$WORK/daemon.out"; exit 1; }
  chmod 777 "$WORK/mnt"
}
hwm() { awk '/VmHWM/ {print int($2 / 1024)}' "/proc/$DAEMON/status"; }
seconds() { local s e; s=$(date +%s.%N); "$@" > "$WORK/out.txt" 2>&1 || { tail -20 "$WORK/out.txt" >&2; return 1; }; e=$(date +%s.%N); echo "$e - $s" | bc; }

case "$MODE" in
fsx)
  OPS=${3:-100000}
  [ -x "$TOOL" ] || { echo "no fsx binary at $TOOL" >&2; exit 2; }
  echo "fsx $TOOL, $OPS ops; faultfs $FAULTFS; scratch on $(df --output=fstype "$WORK" | tail -1)"
  for variant in nommap mmap; do
    flags=(-N "$OPS" -S 1 -C -I ${FSX_FLAGS:-}); daemon=()
    if [ "$variant" = nommap ]; then flags+=(-R -W); else daemon=(--mmap); fi
    mkdir -p "$WORK/native"; rm -f "$WORK/native/fsxfile"*
    tn=$(seconds "$TOOL" "${flags[@]}" "$WORK/native/fsxfile")
    mount_faultfs "${daemon[@]}"
    tf=$(seconds "$TOOL" "${flags[@]}" "$WORK/mnt/fsxfile") || { echo "fsx FAILED on FaultFS ($variant)"; tail -30 "$WORK/out.txt"; exit 1; }
    rss=$(hwm)
    unmount
    printf '%-7s native %7.2f s  faultfs %7.2f s  ratio %5.2f  daemon VmHWM %s MiB\n' "$variant" "$tn" "$tf" "$(echo "$tf / $tn" | bc -l)" "$rss"
  done
  ;;
pjdfstest)
  [ -d "$TOOL/tests" ] || { echo "no pjdfstest checkout at $TOOL (needs tests/ and the built pjdfstest)" >&2; exit 2; }
  count() { # directory -> "failed-subtests total-subtests"
    (cd "$1" && prove -rQ "$TOOL/tests" > "$WORK/prove.txt" 2>&1) || true
    local failed total
    failed=$( (grep -oE 'Wstat: [0-9]+ Tests: [0-9]+ Failed: [0-9]+' "$WORK/prove.txt" || true) | awk '{s += $NF} END {print s + 0}')
    total=$( (grep -oE 'Tests=[0-9]+' "$WORK/prove.txt" || true) | tr -dc 0-9)
    echo "$failed ${total:-?}"
  }
  # PJD_TARGETS="faultfs" skips the native run (it takes as long as the FaultFS one).
  for target in ${PJD_TARGETS:-native faultfs}; do
    if [ "$target" = native ]; then
      mkdir -p "$WORK/native"; read -r f t < <(count "$WORK/native"); rss=-
    else
      mount_faultfs; read -r f t < <(count "$WORK/mnt"); rss=$(hwm); unmount
    fi
    echo "pjdfstest on $target: $f failed subtests of $t (daemon VmHWM $rss MiB)"
    grep -E 'Failed|Wstat' "$WORK/prove.txt" | head -60 || true
  done
  ;;
*) sed -n 2,10p "$0" >&2; exit 2 ;;
esac
