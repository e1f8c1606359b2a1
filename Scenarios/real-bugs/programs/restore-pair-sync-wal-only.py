#!/usr/bin/env python3
"""B15's pattern (https://github.com/tursodatabase/turso/pull/4899): a restore into an empty directory that
writes the database file and its -wal from a backup pair, then fsyncs the -wal (where the newest commits are)
and the directory, but never the database file. A power failure after it reported success keeps the directory
entries and the -wal but not the database file's bytes: a 0-byte database beside a valid -wal, which SQLite
opens as a new, empty database, deleting the -wal. LIFEBOAT_SYNC_BOTH=1 is the correct counterpart: every file
it wrote is fsynced, then the directory."""
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import STORE, restore_support, fsync_path  # noqa: E402

backup = os.environ["LIFEBOAT_BACKUP"]
directory = os.path.dirname(STORE)
sync_both = os.environ.get("LIFEBOAT_SYNC_BOTH") == "1"
# The store's directory is emptied of the old store first: the restore starts from nothing, as on a new device.
for suffix in ("", "-wal", "-shm", "-journal"):
    if os.path.exists(STORE + suffix):
        os.remove(STORE + suffix)
written = []
for suffix in ("", "-wal"):
    if os.path.exists(backup + suffix):
        shutil.copyfile(backup + suffix, STORE + suffix)
        written.append(STORE + suffix)
for path in written:
    if sync_both or path.endswith("-wal"):
        fsync_path(path)
restore_support(backup)
fsync_path(directory)
