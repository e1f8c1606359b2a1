#!/usr/bin/env bash
# Renders `lifeboat try`'s page (matrix.html) and one run report it links to (report.html) in headless Chromium
# (Debian's chromium, installed here when missing) and fails when a section a person needs is missing: the page
# titled for the program, its Findings with cause and fix, every link resolving inside the try folder; the run
# report's verdict, Findings, Timeline (its SVG parsed as XML, with a legend), Invariants and the syscall table
# last. Writes a screenshot of each.
#   scripts/check-try-html.sh [TRY_DIR]
# Without TRY_DIR it first runs `try` on a script that copies the database alone (live-wal and crash-after-backup,
# seed 1) into a temporary folder. SCREENSHOT_DIR=DIR keeps the screenshots (default: removed with the folder).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/_chromium.sh
ensure_chromium check-try-html
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
folder=${1:-}
if [ -z "$folder" ]; then
    test -x .build/debug/lifeboat || scripts/setup.sh
    lifeboat=$PWD/.build/debug/lifeboat
    printf '#!/bin/sh\ncp "$LIFEBOAT_STORE" "$LIFEBOAT_BACKUP_DIR/"\n' > "$work/copy-backup.sh"
    status=0
    (cd "$work" && "$lifeboat" try --backup 'sh copy-backup.sh' --situations live-wal,crash-after-backup \
        --reports "$work/reports" --scratch "$work/scratch" > "$work/try.log") || status=$?
    [ "$status" -eq 1 ] || { cat "$work/try.log"; echo "check-try-html: try exited $status, expected 1 (caught)" >&2; exit 1; }
    folder="$work/reports/$(readlink "$work/reports/latest")"
fi
folder=$(cd "$folder" && pwd)
test -f "$folder/matrix.html" || { echo "check-try-html: no matrix.html in $folder" >&2; exit 1; }
shots=${SCREENSHOT_DIR:-$work}
mkdir -p "$shots"
browser=(chromium --headless --disable-gpu --no-sandbox --hide-scrollbars --user-data-dir="$work/profile")
run_report=$(python3 - "$folder/matrix.html" <<'PY'
import html.parser, sys, urllib.parse, os
class Links(html.parser.HTMLParser):
    def __init__(self): super().__init__(); self.links = []
    def handle_starttag(self, tag, attrs):
        self.links += [v for k, v in attrs if k == "href" and v and v.endswith("report.html")]
page = Links(); page.feed(open(sys.argv[1], encoding="utf-8").read())
# The last run linked: the crash situation's (a FaultFS run, with the syscall table and the -wal's curve).
print(os.path.join(os.path.dirname(sys.argv[1]), urllib.parse.unquote(page.links[-1])) if page.links else "")
PY
)
[ -n "$run_report" ] && [ -f "$run_report" ] || { echo "check-try-html: matrix.html links to no run report" >&2; exit 1; }
for page in "$folder/matrix.html" "$run_report"; do
    name=$(basename "$(dirname "$page")")-$(basename "$page" .html)
    "${browser[@]}" --dump-dom "file://$page" > "$work/$name.dom.html" 2>>"$work/chromium.log"
    "${browser[@]}" --window-size=1280,2200 --screenshot="$shots/$name.png" "file://$page" >/dev/null 2>>"$work/chromium.log"
    test -s "$shots/$name.png" || { cat "$work/chromium.log"; echo "check-try-html: no screenshot of $page" >&2; exit 1; }
done
python3 - "$folder" "$work/$(basename "$folder")-matrix.dom.html" "$run_report" "$work/$(basename "$(dirname "$run_report")")-report.dom.html" <<'PY'
import html.parser, os, re, sys, urllib.parse
import xml.etree.ElementTree as ET
folder, matrix_dom, report_file, report_dom = sys.argv[1:5]
class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.links = []; self.headings = []; self.title = ""; self._in = None
    def handle_starttag(self, tag, attrs):
        self.links += [v for k, v in attrs if k == "href" and v]
        if tag in ("h1", "h2", "title"): self._in = tag; self.headings.append([tag, ""])
    def handle_endtag(self, tag):
        if tag == self._in: self._in = None
    def handle_data(self, data):
        if self._in: self.headings[-1][1] += data
problems = []
matrix = Page(); matrix.feed(open(matrix_dom, encoding="utf-8").read())
titles = " ".join(text for tag, text in matrix.headings if tag in ("title", "h1"))
if "copy-backup.sh" not in titles and "program" not in titles.lower():
    problems.append(f"try's page is not titled for the program: {titles!r}")
text = open(matrix_dom, encoding="utf-8").read()
for needed in ("Findings", "Cause:", "Fix:"):
    if needed not in text: problems.append(f"try's page has no {needed!r}")
for link in matrix.links:
    target = urllib.parse.urlparse(link)
    if target.scheme or link.startswith("/"): problems.append(f"not relative: {link}"); continue
    path = os.path.normpath(os.path.join(folder, urllib.parse.unquote(target.path)))
    if not path.startswith(folder + os.sep) or not os.path.exists(path): problems.append(f"does not resolve inside the try folder: {link}")
report = Page(); report.feed(open(report_dom, encoding="utf-8").read())
order = [text.strip() for tag, text in report.headings if tag == "h2"]
for needed in ("Findings", "Timeline", "Invariants", "Operations"):
    if needed not in order: problems.append(f"the run report has no {needed!r} section (has {order})")
if all(n in order for n in ("Findings", "Timeline", "Invariants")):
    if not order.index("Findings") < order.index("Timeline") < order.index("Invariants"):
        problems.append(f"the run report's sections are out of order: {order}")
# The syscall table (a FaultFS run's) comes last.
if "Fault coverage" in order and order[-1] != "Fault coverage": problems.append(f"the syscall table is not last: {order}")
source = open(report_file, encoding="utf-8").read()
svgs = re.findall(r"<svg.*?</svg>", source, re.S)
if not svgs: problems.append("the run report has no SVG")
for svg in svgs:
    try: ET.fromstring(svg)
    except ET.ParseError as error: problems.append(f"an SVG does not parse: {error}")
if "the cause's operation" not in source and "fault or crash" not in source: problems.append("the timeline has no legend")
if "UNEXPECTED" not in source and "AS EXPECTED" not in source: problems.append("the run report opens with no verdict")
for problem in problems: print("check-try-html:", problem, file=sys.stderr)
if problems: sys.exit(1)
print(f"check-try-html: try's page ({len(matrix.links)} link(s) resolve) and {os.path.basename(os.path.dirname(report_file))}/report.html ({' > '.join(order)}) render")
PY
echo "check-try-html: screenshots in $shots"
