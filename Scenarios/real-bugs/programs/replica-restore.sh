#!/bin/sh
# Restores the wal-shipper's replica into LIFEBOAT_BACKUP_DIR, as its restore command would: the base snapshot as
# the database and the shipped frames as its -wal (SQLite replays the frames whose salts and checksums chain from
# the -wal header). Waits first for the shipper's first position and, with LIFEBOAT_AFTER_OUTAGE=1, until the B9
# choreography has restarted the shipper (at most 20 s each).
set -eu
waited=0
while [ ! -f "$LIFEBOAT_BACKUP_ROOT/replica/position" ] && [ "$waited" -lt 400 ]; do sleep 0.05; waited=$((waited + 1)); done
if [ "${LIFEBOAT_AFTER_OUTAGE:-0}" = 1 ]; then
    waited=0
    while [ ! -f "$LIFEBOAT_BACKUP_ROOT/replica/outage-over" ] && [ "$waited" -lt 400 ]; do sleep 0.05; waited=$((waited + 1)); done
fi
# Then until the shipper has finished a pass that began after this point, so every frame committed before it
# has been shipped (at most 20 s).
now="$(date +%s.%N)"
waited=0
while ! awk -v now="$now" '{ exit !($1 > now) }' "$LIFEBOAT_BACKUP_ROOT/replica/polled" 2>/dev/null && [ "$waited" -lt 400 ]; do
    sleep 0.05; waited=$((waited + 1))
done
name="$(basename "$LIFEBOAT_STORE")"
replica="$LIFEBOAT_BACKUP_ROOT/replica"
cp "$replica/base.sqlite" "$LIFEBOAT_BACKUP_DIR/$name"
[ -s "$replica/wal" ] && cp "$replica/wal" "$LIFEBOAT_BACKUP_DIR/$name-wal"
exit 0
