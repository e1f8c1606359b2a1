#!/usr/bin/env bash
# Conformance of FaultFS against the native file system it sits on, with suites that are NOT part of the
# project (pass their paths; nothing is vendored):
#   scripts/conformance-faultfs.sh fsx FSX_BINARY [OPS] [NAME=DIR ...]   xfstests' ltp/fsx: OPS ops (default
#       100000), without mmap (-R -W) and with mmap (FaultFS --mmap), natively, on FaultFS with --host-sync on
#       and off, and on every peer mount given as NAME=DIR, in ROUNDS (env, default 1) interleaved rounds.
#       Every side runs the same operation mix: fsx is first asked (-N 0, which only probes) what each side
#       refuses (fsx drops such operations silently under -q), the union is turned off on all sides and
#       printed. Prints per-round times, ratios to native, the load, and the FaultFS daemons' peak RSS.
#       FSX_FLAGS adds flags to every side; FSX_VARIANTS="nommap" or "mmap" runs one variant.
#       FAULTFS_BEFORE / FAULTFS_BEFORE_ARGS add FaultFS as it was (scripts/fuse-peers.sh); FUSE requests per
#       operation are printed for every FaultFS daemon.
#   scripts/conformance-faultfs.sh pjdfstest PJDFSTEST_DIR     pjdfstest (a built checkout: PJDFSTEST_DIR/tests
#       and PJDFSTEST_DIR/pjdfstest); prints the failed-test counts natively and on FaultFS.
# Runs as root (pjdfstest needs it). env FAULTFS=path/to/faultfs, BENCH_DIR=scratch dir, BUILD_<NAME> (peers).
set -euo pipefail
MODE=${1:-}; TOOL=${2:-}
[ -n "$MODE" ] && [ -n "$TOOL" ] || { sed -n 2,17p "$0" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")/.." && pwd)
WORK=${BENCH_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/faultfs-conf.XXXXXX")}
chmod 755 "$WORK"
# shellcheck source=scripts/fuse-peers.sh
. "$HERE/scripts/fuse-peers.sh"
trap 'unmount_faultfs_all; rm -rf "$WORK"' EXIT
seconds() { local s e; s=$(date +%s.%N); "$@" > "$WORK/out.txt" 2>&1 || { tail -20 "$WORK/out.txt" >&2; return 1; }; e=$(date +%s.%N); echo "$e - $s" | bc; }

# fsx's probe messages ("filesystem does not support X, disabling!") -> the flag that turns X off.
fsx_refused() { # $1 = directory, then fsx flags; prints the flags for what fsx would drop there
  rm -f "$1"/fsxprobe*
  "$TOOL" "${@:2}" -N 0 "$1/fsxprobe" 2>&1 | sed -n 's/.*does not support \(.*\), disabling.*/\1/p' | while read -r what; do
    case "$what" in
      "fallocate mode 0") echo -F ;;
      "fallocate mode FALLOC_FL_KEEP_SIZE") echo -K ;;
      "fallocate mode FALLOC_FL_UNSHARE_RANGE") echo -u ;;
      "fallocate mode FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE") echo -H ;;
      "fallocate mode FALLOC_FL_ZERO_RANGE") echo -z ;;
      "fallocate mode FALLOC_FL_COLLAPSE_RANGE") echo -C ;;
      "fallocate mode FALLOC_FL_INSERT_RANGE") echo -I ;;
      "clone range") echo -J ;;
      "dedupe range") echo -B ;;
      "copy range") echo -E ;;
      "exchange range") echo -0 ;;
      "dontcache IO") echo -T ;;
      *) echo "unknown fsx probe message: $what" >&2; echo "?" ;;
    esac
  done
  rm -f "$1"/fsxprobe*
}
flag_names() { local f; for f in "$@"; do case "$f" in
  -F) printf ' fallocate(-F)' ;; -K) printf ' keep-size(-K)' ;; -u) printf ' unshare-range(-u)' ;; -H) printf ' punch-hole(-H)' ;;
  -z) printf ' zero-range(-z)' ;; -C) printf ' collapse-range(-C)' ;; -I) printf ' insert-range(-I)' ;; -J) printf ' clone-range(-J)' ;;
  -B) printf ' dedupe-range(-B)' ;; -E) printf ' copy-range(-E)' ;; -0) printf ' exchange-range(-0)' ;; -T) printf ' dontcache-io(-T)' ;;
  *) printf ' %s' "$f" ;; esac; done; }

case "$MODE" in
fsx)
  OPS=${3:-100000}
  [ -x "$TOOL" ] || { echo "no fsx binary at $TOOL" >&2; exit 2; }
  [[ "$OPS" =~ ^[0-9]+$ ]] || { echo "OPS must be a number" >&2; exit 2; }
  shift $(( $# >= 3 ? 3 : $# ))
  mkdir -p "$WORK/native"
  echo "fsx $TOOL, $OPS ops, ${ROUNDS:-1} interleaved round(s); $(nproc) cores; scratch on $(df --output=fstype "$WORK" | tail -1)"
  fsx_run() { # $1 = directory; prints seconds
    rm -f "$1"/fsxfile*
    seconds "$TOOL" "${flags[@]}" "${same[@]}" "$1/fsxfile" || { echo "fsx FAILED in $1 (${flags[*]} ${same[*]})" >&2; return 1; }
    rm -f "$1"/fsxfile*
  }
  for variant in ${FSX_VARIANTS:-nommap mmap}; do
    # shellcheck disable=SC2206
    flags=(-N "$OPS" -S 1 ${FSX_FLAGS:-}); daemon=()
    if [ "$variant" = nommap ]; then flags+=(-R -W); else daemon=(--mmap); fi
    NAMES=(native); DIRS=("$WORK/native"); PEERS=()
    mount_faultfs hs-on --host-sync on "${daemon[@]}"; NAMES+=(faultfs-hs-on); DIRS+=("$WORK/hs-on/mnt")
    mount_faultfs hs-off --host-sync off "${daemon[@]}"; NAMES+=(faultfs-hs-off); DIRS+=("$WORK/hs-off/mnt")
    mount_before hs-off --host-sync off "${daemon[@]}"
    add_peers "$@"
    [ "$variant" = mmap ] || describe_targets
    refused=(); line="$variant: fsx refuses"
    for i in "${!NAMES[@]}"; do
      mapfile -t r < <(fsx_refused "${DIRS[$i]}" "${flags[@]}")
      line+=" on ${NAMES[$i]}:$( [ ${#r[@]} -gt 0 ] && flag_names "${r[@]}" || echo ' nothing')"
      refused+=("${r[@]+"${r[@]}"}")
    done
    mapfile -t same < <(printf '%s\n' "${refused[@]+"${refused[@]}"}" | sort -u | grep -v '^$' || true)
    echo "$line"
    echo "$variant: left out on every side:$( [ ${#same[@]} -gt 0 ] && flag_names "${same[@]}" || echo ' nothing'); fsx ${flags[*]} ${same[*]}"
    OPS_PER_RUN=$OPS rounds_loop "${ROUNDS:-1}" "$variant" fsx_run
    print_requests $(( ${ROUNDS:-1} * OPS ))
    echo "$variant: daemon VmHWM faultfs-hs-on $(daemon_hwm hs-on) MiB, faultfs-hs-off $(daemon_hwm hs-off) MiB"
    unmount_faultfs_all
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
      mount_faultfs pjd; read -r f t < <(count "$WORK/pjd/mnt"); rss=$(daemon_hwm pjd); unmount_faultfs pjd
    fi
    echo "pjdfstest on $target: $f failed subtests of $t (daemon VmHWM $rss MiB)"
    grep -E 'Failed|Wstat' "$WORK/prove.txt" | head -60 || true
  done
  ;;
*) sed -n 2,17p "$0" >&2; exit 2 ;;
esac
