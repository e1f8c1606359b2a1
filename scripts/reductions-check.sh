#!/usr/bin/env bash
# Issue 29, point 2: every reduction of `lifeboat crash-states` finds what the full enumeration finds, on every
# shipped drill and real-bug catalog entry where crash states apply (a FaultFS drill). For each scenario:
# `lifeboat crash-states SCENARIO --compare-reductions` records one run, enumerates its crash states with every
# reduction and with none (every state examined afresh) at the same points, and compares the findings and every
# state's verdict (Sources/Explore/CrashStateReductionCheck.swift). A drill that is not on FaultFS is listed as
# not applicable (exit 3 of the command). Prints one line per scenario and a Markdown table for
# docs/performance.md, with the load before and after; exits 1 when the reductions lost or added a finding.
# Usage: scripts/reductions-check.sh [MAX_POINTS] [SCENARIO...]
#   MAX_POINTS defaults to 12 (the full enumeration examines every state of those points afresh: about 0.1 CPU s
#   a state); scenarios default to Scenarios/*.yaml, Scenarios/real-bugs/b*.yaml and Scenarios/bugs/*.yaml.
#   LIFEBOAT_CONFIG=debug uses the debug build (default release); LIFEBOAT_BIN=path runs that binary instead (no
#   build); SEED (default 1) picks the points.
set -euo pipefail
cd "$(dirname "$0")/.."
points="${1:-12}"
shift || true
config="${LIFEBOAT_CONFIG:-release}"
seed="${SEED:-1}"
if [ "$#" -gt 0 ]; then scenarios=("$@"); else
  scenarios=()
  for f in Scenarios/*.yaml Scenarios/real-bugs/b*.yaml Scenarios/bugs/*.yaml; do
    case "$(basename "$f")" in _*) continue ;; esac
    scenarios+=("$f")
  done
fi
if [ -n "${LIFEBOAT_BIN:-}" ]; then lifeboat="$LIFEBOAT_BIN"; else
  swift build -c "$config" >/dev/null
  lifeboat=".build/$config/lifeboat"
fi
# The children a run spawns (writers, backups) are this same binary.
export LIFEBOAT_EXECUTABLE="$(realpath "$lifeboat")"
scratch="$(mktemp -d "${TMPDIR:-/tmp}/reductions-check.XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
echo "load before: $(uptime)"
table="| scenario | points | states | examined (reduced) | skipped: same operations | skipped: same pages | reduced s | reduced states/s | full s | full states/s | findings (full / reduced) | same |"
table+=$'\n'"|---|---|---|---|---|---|---|---|---|---|---|---|"
status=0
na=()
for f in "${scenarios[@]}"; do
  out="$scratch/out.txt"
  set +e
  "$lifeboat" crash-states "$f" --compare-reductions --max-points "$points" --seed "$seed" \
    --reports "$scratch/reports" --scratch "$scratch/scratch" >"$out" 2>"$scratch/err.txt"
  rc=$?
  set -e
  name="$(basename "$f" .yaml)"
  if [ "$rc" = 3 ]; then na+=("$name"); continue; fi
  if [ "$rc" != 0 ] && [ "$rc" != 1 ]; then
    echo "$name: error (exit $rc): $(tail -3 "$scratch/err.txt" | tr '\n' ' ')"; status=1; continue
  fi
  [ "$rc" = 1 ] && status=1
  grep -v 'crash states: [0-9]*/' "$out" | sed "s|^|$name: |"
  json="$(sed -n 's/^report: //p' "$out")"
  row="$(python3 - "$json" "$name" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
red, full = r["reduced"], r["full"]
same = "yes" if not r["lost"] and not r["added"] and r["statesDiffering"] == 0 and not r["statesMismatched"] else "**NO**"
print(f'| {sys.argv[2]} | {full["pointsChecked"]} | {full["statesChecked"]} | {red["statesExamined"]} | {red["statesSameOperations"]} | '
      f'{red["statesSameContent"]} | {red["seconds"]:.1f} | {red["statesPerSecond"]:.1f} | {full["seconds"]:.1f} | {full["statesPerSecond"]:.1f} | '
      f'{len(r["fullFindings"])} / {len(r["reducedFindings"])} | {same} |')
PY
)"
  table+=$'\n'"$row"
done
echo
echo "$table"
echo
[ "${#na[@]}" -gt 0 ] && echo "not applicable (not FaultFS drills): ${na[*]}"
echo "load after: $(uptime)"
exit "$status"
