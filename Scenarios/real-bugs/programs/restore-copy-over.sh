#!/bin/sh
# B4 pattern: restore by writing the backup's database over the live file (cp), leaving the live store's -wal
# and -shm where they are. The next open replays that -wal's frames onto the restored file.
set -eu
cp "$LIFEBOAT_BACKUP" "$LIFEBOAT_STORE"
