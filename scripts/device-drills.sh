#!/bin/sh
# Device-profile drills over several seeds: for each seed, a torn-crash fault walk over the -wal writes of
# Scenarios/devices/_wal-commits.yaml on each profile. SQLite's documentation predicts (docs/devices.md):
#   hdd-512        (no powersafe overwrite)  some N loses an acknowledged transaction (durable-after-crash)
#   hdd-512-psow   (powersafe overwrite)     every N holds
#   ssd-4k-atomic  (atomic 4 KiB, psow)      every N holds
# Usage: scripts/device-drills.sh [SEEDS] [TRANSACTIONS]   (default 10 seeds, 2 transactions per seed)
# Prints one line per seed and profile and a summary; exits 1 when a profile did not do what was predicted.
set -eu
seeds="${1:-10}"; transactions="${2:-2}"
root="$(cd "$(dirname "$0")/.." && pwd)"
lifeboat="${LIFEBOAT:-$root/.build/debug/lifeboat}"
work="$(mktemp -d "${TMPDIR:-/tmp}/lifeboat-device-drills.XXXXXX")"
trap 'rm -rf "$work"' EXIT
bad=0; started=$(date +%s)
for seed in $(seq 1 "$seeds"); do
  for profile in hdd-512 hdd-512-psow ssd-4k-atomic; do
    cat > "$work/s$seed-$profile.yaml" <<YAML
name: wal-on-$profile-seed-$seed
extends: $root/Scenarios/devices/_wal-commits.yaml
seed: $seed
writers: {transactions: $transactions}
faults: {device: $profile}
YAML
    stop=""; [ "$profile" = hdd-512 ] && stop="--stop-at-failure"
    "$lifeboat" walk "$work/s$seed-$profile.yaml" --ops write --path '*.sqlite-wal' --action 'crash torn' $stop \
      --directory "$work/walk-$seed-$profile" --reports "$work/reports" --scratch "$work/scratch" > "$work/out.txt" 2>&1 || true
    line="$(python3 -c 'import json,sys; s=json.load(open(sys.argv[1])); f=[r for r in s["rows"] if r["outcome"]=="violated"]; e=[r for r in s["rows"] if r["outcome"]=="error"]; print(len(s["rows"]), f[0]["n"] if f else "none", ",".join(sorted({v for r in f for v in r["violated"]})) or "-", len(e))' "$work/walk-$seed-$profile/walk.json")"
    set -- $line
    verdict=ok
    if [ "$profile" = hdd-512 ]; then [ "$2" != none ] && [ "$3" = durable-after-crash ] || verdict=UNEXPECTED
    else [ "$2" = none ] && [ "$4" = 0 ] || verdict=UNEXPECTED; fi
    [ "$verdict" = ok ] || bad=$((bad + 1))
    echo "seed $seed $profile: $1 run(s), first failing N: $2 ($3), errors $4 -> $verdict"
  done
done
echo "device drills: $seeds seed(s), $bad unexpected, $(( $(date +%s) - started )) s"
[ "$bad" = 0 ]
