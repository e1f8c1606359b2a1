#!/usr/bin/env bash
# A store past 1 GiB, where SQLite's lock-byte page sits (the page holding byte offset 0x40000000, which SQLite
# never reads or writes): backups and a restore compared page by page (scripts/page-compare.py, which skips the
# lock-byte page as SQLite does), and B13's mistake (Scenarios/real-bugs/programs/page-copy-restore.py with LIFEBOAT_LOCK_PAGE=shift, a page copier that drops the
# lock page and shifts every later page one slot down) shown to be caught by the same comparison and by
# integrity_check. Too slow for CI (minutes of I/O): run by hand; docs/real-bugs-lock-page.md has the figures.
#
#   scripts/bench-lock-page.sh [STORE]     STORE: an existing store past 1 GiB (else one of ~1.1 GiB is generated)
set -euo pipefail
cd "$(dirname "$0")/.."
lifeboat=.build/debug/lifeboat
[ -x "$lifeboat" ] || swift build
work="${TMPDIR:-/tmp}/bench-lock-page"
rm -rf "$work" && mkdir -p "$work"
trap 'rm -rf "$work"' EXIT
seconds() { local start=$SECONDS; "$@" >"$work/last.log" 2>&1 || { cat "$work/last.log"; return 1; }; echo "$((SECONDS - start)) s"; }

store="${1:-}"
if [ -z "$store" ]; then
    echo "generating a store of ~1.1 GiB (12,000 objects, a 96 KiB attachment stored inline in each note)..."
    echo "  $(seconds "$lifeboat" generate --objects 12000 --blob-fraction 1 --blob-size 96KiB --out "$work/source")"
    store="$work/source/Library.sqlite"
fi
bytes=$(stat -c %s "$store")
echo "store: $store, $bytes bytes ($(python3 -c "print(f'{$bytes / 2**30:.2f}')") GiB)"
[ "$bytes" -gt $((1 << 30)) ] || { echo "the store must be larger than 1 GiB"; exit 2; }
name="$(basename "$store")"

for strategy in backup-api file-copy-full; do
    echo "backup $strategy: $(seconds "$lifeboat" backup --strategy "$strategy" "$store" "$work/backup-$strategy")"
    echo "  $(python3 scripts/page-compare.py "$store" "$work/backup-$strategy/$name" | tr '\n' ' ')"
done

mkdir -p "$work/live"
cp "$store" "$work/live/$name"
echo "restore file-copy-over (from the backup-api backup): $(seconds "$lifeboat" restore --strategy file-copy-over "$work/backup-backup-api/$name" "$work/live/$name")"
echo "  $(python3 scripts/page-compare.py "$work/backup-backup-api/$name" "$work/live/$name" | tr '\n' ' ')"
rm -rf "$work/backup-file-copy-full" "$work/live"

echo "B13 mistake, page-copy-restore.py with LIFEBOAT_LOCK_PAGE=shift: $(seconds env LIFEBOAT_LOCK_PAGE=shift python3 Scenarios/real-bugs/programs/page-copy-restore.py "$store" "$work/shifted.sqlite")"
echo "  $(python3 scripts/page-compare.py "$store" "$work/shifted.sqlite" | tr '\n' ' ')"
echo "  integrity_check: $(sqlite3 "$work/shifted.sqlite" 'PRAGMA integrity_check(3);' 2>&1 | tr '\n' ' ' | cut -c1-300)"
status=0
"$lifeboat" check "$work/shifted.sqlite" >"$work/check.log" 2>&1 || status=$?
echo "  lifeboat check: exit $status, $(grep -m1 -i 'integrity\|finding\|error' "$work/check.log" | cut -c1-200)"
