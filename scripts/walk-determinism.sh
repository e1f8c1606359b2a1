#!/bin/sh
# How far N names the same operation from run to run: walks the same scenario twice under a scheduler and
# compares the operation hit at each N (op, path, offset, length, writer). Usage:
#   scripts/walk-determinism.sh [free|turns] [MAX_N] [WRITERS]
# Prints how many Ns hit the same operation in both walks. Needs a built lifeboat (scripts/setup.sh).
set -eu
scheduler="${1:-free}"; max="${2:-30}"; writers="${3:-2}"
root="$(cd "$(dirname "$0")/.." && pwd)"
lifeboat="${LIFEBOAT:-$root/.build/debug/lifeboat}"
work="$(mktemp -d "${TMPDIR:-/tmp}/lifeboat-walk-determinism.XXXXXX")"
trap 'rm -rf "$work"' EXIT
cat > "$work/scenario.yaml" <<YAML
name: walk-determinism-$scheduler
seed: 5
store: {objects: 20, blob_fraction: 0, journal_mode: wal}
writers: {count: $writers, transactions: 4, rate: 0, blob_fraction: 0, checkpoint: none, mix: {insert: 60, update: 40, delete: 0, link: 0}}
schedule:
  - backup: backup-api
    after_commits: 2
faults: {mount: true}
invariants: [integrity, wal-content-carried, snapshot-consistent]
scheduler: $scheduler
YAML
for round in 1 2; do
  "$lifeboat" walk "$work/scenario.yaml" --ops write --path '*.sqlite-wal' --max "$max" \
    --directory "$work/walk-$round" --reports "$work/reports" --scratch "$work/scratch" > "$work/out-$round.txt" 2>&1 || true
done
python3 - "$work/walk-1/walk.json" "$work/walk-2/walk.json" "$scheduler" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
def hits(s):
    return {r["n"]: (r.get("hit") or {}) for r in s["rows"] if r["fired"]}
ha, hb = hits(a), hits(b)
common = sorted(set(ha) & set(hb))
key = lambda h: (h.get("op"), h.get("path"), h.get("offset"), h.get("length"), h.get("actor"))
same = [n for n in common if key(ha[n]) == key(hb[n])]
same_actor = [n for n in common if ha[n].get("actor") == hb[n].get("actor")]
print(f"scheduler {sys.argv[3]}: {len(common)} N(s) fired in both walks; same operation at {len(same)} "
      f"({100*len(same)/max(1,len(common)):.0f}%), same writer at {len(same_actor)}; first difference at N="
      f"{next((n for n in common if key(ha[n]) != key(hb[n])), 'none')}")
PY
