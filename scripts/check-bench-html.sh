#!/usr/bin/env bash
# Renders a bench report's bench.html in headless Chromium (Debian's chromium package, installed here when
# missing), as a person would look at it, and checks what the page must show: the verdict line, a bar chart of
# time and one of peak memory, each strategy's memory over its run, the measurements with the "output vs
# store" column, every SVG well-formed (a missing quote once swallowed a legend label), and writes a screenshot.
#   scripts/check-bench-html.sh [BENCH_DIR]
# Without BENCH_DIR it first benches migrate and replace on a small generated store (--store, one round).
# SCREENSHOT=FILE chooses where the screenshot goes (default: beside the temporary files, then removed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/_chromium.sh
ensure_chromium check-bench-html
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bench=${1:-}
if [ -z "$bench" ]; then
    test -x .build/debug/lifeboat || scripts/setup.sh
    .build/debug/lifeboat generate --size 20MB --out "$work/store" > "$work/generate.log"
    .build/debug/lifeboat bench --store "$work/store/Library.sqlite" --strategies migrate,replace --rounds 1 \
        --reports "$work/reports" --cache "$work/cache" > "$work/bench.log" || { cat "$work/bench.log"; echo "check-bench-html: the bench failed" >&2; exit 1; }
    bench="$work/reports/$(readlink "$work/reports/latest")"
fi
bench=$(cd "$bench" && pwd)
test -f "$bench/bench.html" || { echo "check-bench-html: no bench.html in $bench" >&2; exit 1; }
screenshot=${SCREENSHOT:-$work/bench.png}
browser=(chromium --headless --disable-gpu --no-sandbox --hide-scrollbars --user-data-dir="$work/profile")
"${browser[@]}" --dump-dom "file://$bench/bench.html" > "$work/dom.html" 2>"$work/chromium.log"
"${browser[@]}" --window-size=1400,1600 --screenshot="$screenshot" "file://$bench/bench.html" >/dev/null 2>>"$work/chromium.log"
test -s "$screenshot" || { cat "$work/chromium.log"; echo "check-bench-html: no screenshot" >&2; exit 1; }
python3 - "$bench" "$work/dom.html" <<'PY'
import json, os, re, sys, xml.dom.minidom
bench, dom = sys.argv[1], sys.argv[2]
page = open(dom, encoding="utf-8").read()
report = json.load(open(os.path.join(bench, "bench.json"), encoding="utf-8"))
problems = []
svgs = re.findall(r"<svg.*?</svg>", page, re.S)
labels = []
for svg in svgs:
    try:
        labels.append(xml.dom.minidom.parseString(svg).documentElement.getAttribute("aria-label"))
    except Exception as error:
        problems.append(f"an SVG does not parse: {error}: {svg[:120]}")
for wanted in ["Wall time (median)", "Peak memory (median RSS)"]:
    if wanted not in labels: problems.append(f"no chart '{wanted}' (charts: {labels})")
sampled = any(r.get("memorySamples") for result in report["results"] for r in result["rounds"])
if sampled and not any(label.startswith("Memory over time") for label in labels): problems.append("no memory-over-time chart")
if len(report["configuration"]["sizes"]) > 1 and not any("vs store size" in label for label in labels):
    problems.append("several sizes but no chart against store size")
if 'class="verdict"' not in page: problems.append("no verdict line")
if "output vs store" not in page: problems.append("no 'output vs store' column")
strategies = [r["strategy"] for r in report["results"]]
for strategy in set(strategies):
    if f">{strategy}</text>" not in page and f">{strategy}<" not in page: problems.append(f"strategy {strategy} not drawn")
for problem in problems: print("check-bench-html:", problem, file=sys.stderr)
if problems: sys.exit(1)
print(f"check-bench-html: {len(svgs)} charts ({', '.join(labels)}), verdict and measurements in {bench}")
PY
echo "check-bench-html: screenshot $screenshot"
