#!/usr/bin/env bash
# Renders a suite report's index.html in headless Chromium (Debian's chromium package, installed here when
# missing), checks that every link in the rendered page resolves to a file inside the suite folder (so the
# folder works when CI copies it as an artifact), that both SVG charts and a row per pair are there, and
# writes a screenshot; summary.json is checked against docs/schemas/lifeboat.suite-1.schema.json.
#   scripts/check-suite-html.sh [SUITE_DIR]
# Without SUITE_DIR it first runs a small campaign (two cheap drills x 2 seeds) into a temporary folder.
# SCREENSHOT=FILE chooses where the screenshot goes (default: beside the temporary files, then removed).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/_chromium.sh
ensure_chromium check-suite-html
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
suite=${1:-}
if [ -z "$suite" ]; then
    test -x .build/debug/lifeboat || scripts/setup.sh
    cat > "$work/duplicates.yaml" <<'YAML'
name: html-check-duplicates
scheduler: turns
store: {objects: 40, blob_fraction: 0}
writers: {count: 2, transactions: 15, blob_fraction: 0}
schedule:
  - {backup: migrate, after_commits: 10, destination: reuse, times: 2, every_commits: 5}
invariants: [no-duplicates, integrity]
expect: violation no-duplicates
YAML
    cat > "$work/replace.yaml" <<'YAML'
name: html-check-replace
scheduler: turns
store: {objects: 40, blob_fraction: 0.2, blob_size: 20KiB}
writers: {count: 2, transactions: 15, blob_fraction: 0}
schedule:
  - {backup: replace, after_commits: 10}
expect: pass
YAML
    .build/debug/lifeboat run "$work/duplicates.yaml" "$work/replace.yaml" --seeds 1-2 --reports "$work/reports" \
        --scratch "$work/scratch" > "$work/run.log" || { cat "$work/run.log"; echo "check-suite-html: the campaign failed" >&2; exit 1; }
    suite="$work/reports/$(readlink "$work/reports/latest")"
fi
suite=$(cd "$suite" && pwd)
test -f "$suite/index.html" || { echo "check-suite-html: no index.html in $suite" >&2; exit 1; }
scripts/venv.sh
.venv/bin/check-jsonschema --schemafile docs/schemas/lifeboat.suite-1.schema.json "$suite/summary.json"
screenshot=${SCREENSHOT:-$work/index.png}
browser=(chromium --headless --disable-gpu --no-sandbox --hide-scrollbars --user-data-dir="$work/profile")
"${browser[@]}" --dump-dom "file://$suite/index.html" > "$work/dom.html" 2>"$work/chromium.log"
"${browser[@]}" --window-size=1280,1800 --screenshot="$screenshot" "file://$suite/index.html" >/dev/null 2>>"$work/chromium.log"
test -s "$screenshot" || { cat "$work/chromium.log"; echo "check-suite-html: no screenshot" >&2; exit 1; }
python3 - "$suite" "$work/dom.html" <<'PY'
import html.parser, json, os, sys, urllib.parse
suite, dom = sys.argv[1], sys.argv[2]
class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.links = []; self.svgs = 0; self.rows = 0
    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ("href", "src") and value: self.links.append(value)
        if tag == "svg": self.svgs += 1
        if tag == "tr": self.rows += 1
page = Links(); page.feed(open(dom, encoding="utf-8").read())
summary = json.load(open(os.path.join(suite, "summary.json"), encoding="utf-8"))
problems = []
for link in page.links:
    target = urllib.parse.urlparse(link)
    if target.scheme or target.netloc or link.startswith("/"):
        problems.append(f"not relative to the suite folder: {link}"); continue
    if not target.path: continue
    path = os.path.normpath(os.path.join(suite, urllib.parse.unquote(target.path)))
    if not (path == suite or path.startswith(suite + os.sep)): problems.append(f"leaves the suite folder: {link}")
    elif not os.path.isfile(path): problems.append(f"does not resolve: {link}")
if len(page.links) < 2: problems.append(f"only {len(page.links)} link(s) in the rendered page")
if page.svgs < 2: problems.append(f"{page.svgs} SVG chart(s) rendered, expected 2")
if page.rows < len(summary["entries"]): problems.append(f"{page.rows} table rows for {len(summary['entries'])} pairs")
for problem in problems: print("check-suite-html:", problem, file=sys.stderr)
if problems: sys.exit(1)
print(f"check-suite-html: {len(page.links)} link(s) resolve, {page.svgs} charts, {len(summary['entries'])} pair(s) in {suite}")
PY
echo "check-suite-html: screenshot $screenshot"
