#!/bin/sh
# Restores the wal-shipper's replica into LIFEBOAT_BACKUP_DIR, as its restore command would: the base snapshot as
# the database and the shipped frames as its -wal (SQLite replays the frames whose salts and checksums chain from
# the -wal header). Waits for the shipper's first position (at most 20 s), then 0.3 s, so what was committed
# before it started has been shipped (and, with
# LIFEBOAT_AFTER_OUTAGE=1, until the B9 choreography has restarted the shipper).
set -eu
waited=0
while [ ! -f "$LIFEBOAT_BACKUP_ROOT/replica/position" ] && [ "$waited" -lt 400 ]; do sleep 0.05; waited=$((waited + 1)); done
if [ "${LIFEBOAT_AFTER_OUTAGE:-0}" = 1 ]; then
    waited=0
    while [ ! -f "$LIFEBOAT_BACKUP_ROOT/replica/outage-over" ] && [ "$waited" -lt 400 ]; do sleep 0.05; waited=$((waited + 1)); done
    sleep 0.5
fi
sleep 0.3
name="$(basename "$LIFEBOAT_STORE")"
replica="$LIFEBOAT_BACKUP_ROOT/replica"
cp "$replica/base.sqlite" "$LIFEBOAT_BACKUP_DIR/$name"
[ -s "$replica/wal" ] && cp "$replica/wal" "$LIFEBOAT_BACKUP_DIR/$name-wal"
exit 0
