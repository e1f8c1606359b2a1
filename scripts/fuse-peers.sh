# Shared by scripts/bench-fuse-compare.sh and scripts/conformance-faultfs.sh (sourced, not run): FaultFS mounts
# with chosen daemon options, peers given as NAME=DIR, a description of every target's build, and the
# interleaved rounds loop with per-round ratios and load. Expects HERE and WORK; fills NAMES and DIRS.
# FAULTFS_BEFORE=path/to/another/faultfs (e.g. main's release build) and/or FAULTFS_BEFORE_ARGS (e.g.
# --high-level, this build's libfuse high-level table) add "faultfs-before-*" targets: FaultFS as it was, in the
# same rounds. Every FaultFS daemon's FUSE requests per operation are printed (`requests` in its status; a
# build without that field prints "?"). With OPS_PER_RUN (operations in each run) the rounds loop also prints
# every target's device flushes per operation and each FaultFS daemon's CPU per operation and per round.
FAULTFS=${FAULTFS:-$HERE/.build/release/faultfs}
[ -x "$FAULTFS" ] || FAULTFS=$HERE/.build/debug/faultfs
[ -x "$FAULTFS" ] || { echo "faultfs not built (swift build -c release --product faultfs)" >&2; exit 2; }
declare -A DAEMONS=()
declare -A DAEMON_ARGS=()
declare -A DAEMON_BIN=()
FAULTFS_BEFORE=${FAULTFS_BEFORE:-}
FAULTFS_BEFORE_ARGS=${FAULTFS_BEFORE_ARGS:-}

mount_faultfs() { # $1 = label (its mount is $WORK/LABEL/mnt), then daemon options; env BIN: another faultfs
  local label=$1 bin=${BIN:-$FAULTFS}; shift
  rm -rf "$WORK/$label"; mkdir -p "$WORK/$label/backing" "$WORK/$label/mnt"
  chmod 755 "$WORK" "$WORK/$label"
  DAEMON_BIN[$label]=$bin
  "$bin" mount "$WORK/$label/backing" "$WORK/$label/mnt" --control "$WORK/$label/ctl" --seed 1 "$@" > "$WORK/$label/daemon.out" 2>&1 &
  DAEMONS[$label]=$!; DAEMON_ARGS[$label]="$*"
  for _ in $(seq 200); do grep -q " $WORK/$label/mnt fuse" /proc/mounts && break; sleep 0.05; done
  grep -q " $WORK/$label/mnt fuse" /proc/mounts || { cat "$WORK/$label/daemon.out" >&2; exit 1; }
  chmod 777 "$WORK/$label/mnt"
}
# mount_before LABEL OPTIONS...: FaultFS as it was (FAULTFS_BEFORE, else this build, with FAULTFS_BEFORE_ARGS) as
# target faultfs-before-LABEL, when either variable is set.
mount_before() {
  [ -n "$FAULTFS_BEFORE$FAULTFS_BEFORE_ARGS" ] || return 0
  local label=before-$1; shift
  [ -z "$FAULTFS_BEFORE" ] || [ -x "$FAULTFS_BEFORE" ] || { echo "FAULTFS_BEFORE=$FAULTFS_BEFORE is not an executable" >&2; exit 2; }
  # shellcheck disable=SC2086
  BIN=${FAULTFS_BEFORE:-$FAULTFS} mount_faultfs "$label" "$@" $FAULTFS_BEFORE_ARGS
  NAMES+=("faultfs-$label"); DIRS+=("$WORK/$label/mnt")
}
# print_requests OPERATIONS: FUSE requests per operation of every FaultFS daemon (OPERATIONS done on each).
print_requests() {
  local l n line="FUSE requests per operation ($1 operations on each):"
  for l in $(printf "%s\n" "${!DAEMONS[@]}" | sort); do
    n=$("${DAEMON_BIN[$l]}" ctl "$WORK/$l/ctl" status 2>/dev/null | grep -o '"requests":[0-9]*' | cut -d: -f2 || true)
    line+=" faultfs-$l $( [[ "$n" =~ ^[0-9]+$ ]] && echo "scale=2; $n / $1" | bc || echo '?')"
  done
  echo "$line"
}
daemon_hwm() { awk '/VmHWM/ {print int($2 / 1024)}' "/proc/${DAEMONS[$1]}/status" 2>/dev/null || echo "?"; }
unmount_faultfs() { # $1 = label
  local pid=${DAEMONS[$1]:-}
  if [ -n "$pid" ]; then kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; fi
  fusermount3 -u -z "$WORK/$1/mnt" 2>/dev/null || true
  unset "DAEMONS[$1]"
}
unmount_faultfs_all() { local l; for l in "${!DAEMONS[@]}"; do unmount_faultfs "$l"; done; }

PEERS=()
add_peers() { # NAME=DIR ...: mounts the user started; each run works in DIR/lifeboat-bench
  local arg name dir
  for arg in "$@"; do
    name=${arg%%=*}; dir=${arg#*=}
    [ "$name" != "$arg" ] && [[ "$name" =~ ^[A-Za-z0-9_-]+$ ]] && [ -d "$dir" ] && [ -w "$dir" ] ||
      { echo "bad target $arg (want NAME=WRITABLE_DIRECTORY)" >&2; exit 2; }
    mkdir -p "$dir/lifeboat-bench"; NAMES+=("$name"); DIRS+=("$dir/lifeboat-bench"); PEERS+=("$name=$dir")
  done
}

# The build of every target: FaultFS's (release or debug, options), and for a peer its mount, the daemon
# serving it (found by its command line naming the mount), that binary's compiler note, and BUILD_<NAME>.
describe_targets() {
  local l kind p name dir mnt fstype exe pid var
  kind=debug; case "$FAULTFS" in */release/*) kind=release ;; esac
  echo "target native: $(df --output=fstype "$WORK" | tail -1) at $WORK/native"
  for l in $(printf "%s\n" "${!DAEMONS[@]}" | sort); do
    kind=debug; case "${DAEMON_BIN[$l]}" in */release/*) kind=release ;; esac
    echo "target faultfs-$l: ${DAEMON_BIN[$l]} ($kind build, swift build -c $kind), daemon options: ${DAEMON_ARGS[$l]}"
  done
  for p in "${PEERS[@]+"${PEERS[@]}"}"; do
    name=${p%%=*}; dir=$(cd "${p#*=}" && pwd -P)
    mnt=$(df --output=target "$dir" | tail -1); fstype=$(awk -v m="$mnt" '$2 == m {print $3}' /proc/mounts | tail -1)
    exe=; for pid in $(pgrep -f -- "$mnt" || true); do
      [ "$pid" = $$ ] && continue; exe=$(readlink "/proc/$pid/exe" 2>/dev/null || true); [ -n "$exe" ] && break
    done
    var="BUILD_$name"; var=${var//-/_}
    echo "target $name (the user's mount): $fstype on $mnt; daemon ${exe:-not found}${exe:+ ($(readelf -p .comment "$exe" 2>/dev/null | grep -o 'GCC: .*\|clang version [^ ]*' | head -1))}; build: ${!var:-not given (set $var)}"
  done
}

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# What a run cost besides its time: the device flushes of the disk under WORK (/proc/diskstats' flush requests,
# field 16 of a disk's statistics, counted for the whole disk: other work on the machine adds to it) and, for a
# FaultFS target, its daemon's user and system CPU time (/proc/PID/stat, in clock ticks).
flush_disk() {
  local dev name
  dev=$(df --output=source "$WORK" | tail -1); name=$(basename "$(readlink -f "$dev")")
  [ -e "/sys/class/block/$name/partition" ] && name=$(basename "$(readlink -f "/sys/class/block/$name/..")")
  echo "$name"
}
FLUSH_DISK=
disk_flushes() { awk -v d="$FLUSH_DISK" '$3 == d {print ($19 == "" ? 0 : $19); f = 1} END {if (!f) print 0}' /proc/diskstats; }
daemon_ticks() { # $1 = target directory; prints utime+stime ticks of the FaultFS daemon serving it, or nothing
  local label
  case "$1" in "$WORK"/*/mnt) label=${1#"$WORK"/}; label=${label%/mnt} ;; *) return 0 ;; esac
  local pid=${DAEMONS[$label]:-}
  [ -n "$pid" ] && awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || true
}

# rounds_loop ROUNDS LABEL COMMAND ARGS...: runs COMMAND DIR ARGS... (it prints seconds) on every target per
# round, in order, printing each round's times, ratios to native and load; then the medians.
rounds_loop() {
  local rounds=$1 label=$2; shift 2
  local n i r t nat line summary ratio p pt
  local f0 f1 c0 c1 hz
  [ -n "$FLUSH_DISK" ] || FLUSH_DISK=$(flush_disk)
  for n in "${NAMES[@]}"; do : > "$WORK/$n.times"; : > "$WORK/$n.flushes"; : > "$WORK/$n.ticks"; done
  for r in $(seq "$rounds"); do
    line="$label round $r:"
    for i in "${!NAMES[@]}"; do
      f0=$(disk_flushes); c0=$(daemon_ticks "${DIRS[$i]}")
      if t=$("$@" "${DIRS[$i]}"); then :; else t=nan; fi
      f1=$(disk_flushes); c1=$(daemon_ticks "${DIRS[$i]}")
      echo "$t" >> "$WORK/${NAMES[$i]}.times"
      echo $(( f1 - f0 )) >> "$WORK/${NAMES[$i]}.flushes"
      [ -z "$c0" ] || [ -z "$c1" ] || echo $(( c1 - c0 )) >> "$WORK/${NAMES[$i]}.ticks"
      line+=$(printf ' %s %s s' "${NAMES[$i]}" "$( [ "$t" = nan ] && echo FAILED || printf %.3f "$t")")
    done
    nat=$(tail -1 "$WORK/native.times")
    for n in "${NAMES[@]:1}"; do
      t=$(tail -1 "$WORK/$n.times")
      line+=$( [ "$t" = nan ] || [ "$nat" = nan ] && echo " | $n/native -" || printf ' | %s/native %.2f' "$n" "$(echo "$t / $nat" | bc -l)")
    done
    for p in "${PEERS[@]+"${PEERS[@]}"}"; do # FaultFS against each peer, the comparison issue 21 asks for
      pt=$(tail -1 "$WORK/${p%%=*}.times")
      for n in "${NAMES[@]}"; do
        case "$n" in faultfs-*) t=$(tail -1 "$WORK/$n.times")
          line+=$( [ "$t" = nan ] || [ "$pt" = nan ] && echo " | $n/${p%%=*} -" || printf ' | %s/%s %.2f' "$n" "${p%%=*}" "$(echo "$t / $pt" | bc -l)") ;; esac
      done
    done
    echo "$line | load $(cut -d' ' -f1 /proc/loadavg)"
  done
  summary="$label: native median $(grep -v nan "$WORK/native.times" | median | awk '{printf "%.3f", $1}') s"
  for n in "${NAMES[@]:1}"; do
    ratio=$(paste "$WORK/native.times" "$WORK/$n.times" | awk '$1 != "nan" && $2 != "nan" {printf "%.4f\n", $2 / $1}' | median)
    summary+=$(printf '; %s median %s s, median per-round ratio %s' "$n" "$(grep -v nan "$WORK/$n.times" | median | awk '{printf "%.3f", $1}')" "$(echo "${ratio:-none}" | awk '$1 == "none" {print; next} {printf "%.2f", $1}')")
  done
  for p in "${PEERS[@]+"${PEERS[@]}"}"; do
    for n in "${NAMES[@]}"; do
      case "$n" in faultfs-*)
        ratio=$(paste "$WORK/${p%%=*}.times" "$WORK/$n.times" | awk '$1 != "nan" && $2 != "nan" {printf "%.4f\n", $2 / $1}' | median)
        summary+=$(printf '; %s/%s median per-round ratio %s' "$n" "${p%%=*}" "$(echo "${ratio:-none}" | awk '$1 == "none" {print; next} {printf "%.2f", $1}')") ;;
      esac
    done
  done
  echo "$summary"
  # Per operation (OPS_PER_RUN operations in each run): device flushes (median over rounds) and the daemon's CPU.
  if [ -n "${OPS_PER_RUN:-}" ]; then
    hz=$(getconf CLK_TCK)
    summary="$label per operation ($OPS_PER_RUN per run, device $FLUSH_DISK):"
    for n in "${NAMES[@]}"; do
      summary+=$(printf ' %s %s flushes' "$n" "$(median < "$WORK/$n.flushes" | awk -v o="$OPS_PER_RUN" '{printf "%.2f", $1 / o}')")
      [ -s "$WORK/$n.ticks" ] && summary+=$(printf ', daemon CPU %s us (rounds: %s ms)' \
        "$(median < "$WORK/$n.ticks" | awk -v o="$OPS_PER_RUN" -v hz="$hz" '{printf "%.0f", $1 * 1e6 / hz / o}')" \
        "$(awk -v hz="$hz" '{printf "%s%d", (NR > 1 ? " " : ""), $1 * 1000 / hz}' "$WORK/$n.ticks")")
      summary+=";"
    done
    echo "$summary"
  fi
}
