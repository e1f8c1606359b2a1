#!/usr/bin/env bash
# The field study (docs/field-study.md): `lifeboat try` on each program vendored under Scenarios/field, in every
# standard situation, over the seeds given. Not part of CI: it runs for about half an hour, and its run folders
# (reports/field-study/, git-ignored) are the evidence the document quotes.
#
#   scripts/field-study.sh                      # every program, seeds 1-3
#   SEEDS=1 scripts/field-study.sh cologler shl  # the programs whose label contains "cologler" or "shl", seed 1
#   DEEP=3m SEEDS=1 scripts/field-study.sh       # `try --deep --budget 3m` instead (reports/field-study-deep/)
#
# LIFEBOAT_BIN (default /work/field-bin) is a COPY of a build's lifeboat, faultfs and libLifeboatSyncShim.so, so
# that a rebuild of the worktree cannot change the binary under a running study. The two programs that declare
# PyPI dependencies run with .venv/field, created here from Scenarios/field/requirements.txt (pinned versions).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${LIFEBOAT_BIN:-/work/field-bin}"
seeds="${SEEDS:-1-3}"
deep="${DEEP:-}"
out="${FIELD_OUT:-$root/reports/field-study${deep:+-deep}}"
field="$root/Scenarios/field"
[ -x "$bin/lifeboat" ] || { echo "field-study: $bin/lifeboat is missing (copy .build/debug/{lifeboat,faultfs,*.so} there)" >&2; exit 2; }
if [ ! -x "$root/.venv/field/bin/python" ]; then
    python3 -m venv "$root/.venv/field"
fi
"$root/.venv/field/bin/pip" install -q -r "$field/requirements.txt"
# superfly/sqlite3-restore is a Go program with no dependency besides Go's standard library (apt: golang-go).
# Without Go its restore adapter exits 127: "not run", an environment error, never a finding.
if command -v go >/dev/null 2>&1; then
    (cd "$field/superfly-sqlite3-restore/upstream" && GOFLAGS=-mod=mod go build -o "$root/.venv/field/bin/sqlite3-restore" .)
fi
mkdir -p "$out"

# label|backup command|restore command (empty: backups only). A label is one program in one configuration.
entries=(
    "dunnesquared-sqlite3backup|sh $field/dunnesquared-sqlite3backup/backup.sh|"
    "purarue-sqlite_backup|sh $field/purarue-sqlite_backup/backup.sh|"
    "efrecon-sqlite-backup|sh $field/efrecon-sqlite-backup/backup.sh|"
    "martin9202-backup-sqlite3-sh|sh $field/martin9202-backup-sqlite3-sh/backup.sh|sh $field/martin9202-backup-sqlite3-sh/restore.sh"
    "jjlin-vaultwarden-backup|sh $field/jjlin-vaultwarden-backup/backup.sh|"
    "smartfinn-vaultwarden-backup|sh $field/smartfinn-vaultwarden-backup/backup.sh|"
    "natlibfi-docker-sqlite-backup|sh $field/natlibfi-docker-sqlite-backup/backup.sh|"
    "danyash-sqlite_backups|sh $field/danyash-sqlite_backups/backup.sh|"
    "wasserpuncher-sqlite-backup-rotator|sh $field/wasserpuncher-sqlite-backup-rotator/backup.sh|"
    "cologler-backup-sqlite3|sh $field/cologler-backup-sqlite3/backup.sh true|sh $field/cologler-backup-sqlite3/restore.sh"
    "cologler-backup-sqlite3-uncompressed|sh $field/cologler-backup-sqlite3/backup.sh false|sh $field/cologler-backup-sqlite3/restore.sh"
    "simonw-sqlite-diffable|sh $field/simonw-sqlite-diffable/backup.sh|sh $field/simonw-sqlite-diffable/restore.sh"
    "simonw-sqlite-utils|sh $field/simonw-sqlite-utils/backup.sh|"
    "selfhosting-lab-sqlbackup|sh $field/selfhosting-lab-sqlbackup/backup.sh|sh $field/selfhosting-lab-sqlbackup/restore.sh"
    "egegunes-hastatakip|sh $field/egegunes-hastatakip/backup.sh|"
    "pavelveter-sqlite-backups|sh $field/pavelveter-sqlite-backups/backup.sh|"
    # A restore program alone: its backup half is the project's own sqlite3 .backup recipe, whose cells in the
    # backup situations are that recipe's (docs/real-tools.md), not this program's.
    "superfly-sqlite3-restore|sh $root/Scenarios/tools/sqlite3-backup/backup.sh|sh $field/superfly-sqlite3-restore/restore.sh"
)

{
    echo "field study started $(date -u +%FT%TZ), seeds $seeds, binary $bin/lifeboat"
    echo "load: $(uptime)"
    echo "sqlite3 $(sqlite3 --version | cut -d' ' -f1), $(python3 --version), $("$root/.venv/field/bin/python" --version)"
} | tee -a "$out/study.log"
for entry in "${entries[@]}"; do
    IFS='|' read -r label backup restore <<< "$entry"
    if [ "$#" -gt 0 ]; then
        wanted=no
        for pattern in "$@"; do case "$label" in *"$pattern"*) wanted=yes ;; esac; done
        [ "$wanted" = yes ] || continue
    fi
    args=(try --backup "$backup" --seeds "$seeds" --reports "$out/$label")
    [ -z "$restore" ] || args+=(--restore "$restore")
    [ -z "$deep" ] || args+=(--deep --budget "$deep")
    echo "== $label ($(date -u +%T), load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$out/study.log"
    status=0
    (cd "$out" && "$bin/lifeboat" "${args[@]}") > "$out/$label.txt" 2>&1 || status=$?
    # try: 0 every situation held, 1 a finding, 2 bad input or a program that could not start, 3 not exercised.
    # try: one line per situation; try --deep: a line per seed ("seed 1: covered ...") and one per finding.
    grep -E '^[a-z-]+ +(held|CAUGHT|not run|not exercised)|^seed [0-9]+: |^  (CAUGHT|held at every point)' "$out/$label.txt" | tee -a "$out/study.log" || true
    echo "exit $status" | tee -a "$out/study.log"
done
echo "field study ended $(date -u +%FT%TZ), load: $(uptime)" | tee -a "$out/study.log"
