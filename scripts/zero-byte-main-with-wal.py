#!/usr/bin/env python3
"""B15's crash state, built by hand (https://github.com/tursodatabase/turso/pull/4899): a fresh database's first
commit sits in a valid -wal while the main file is still 0 bytes (its page 1 never reached the disk). What does
this machine's SQLite do when it opens that pair? Prints the SQLite version, what a reader sees, and whether the
-wal is still there afterwards. Exit 0 when the committed row is read back, 1 when SQLite discarded it."""
import os
import shutil
import sqlite3
import sys
import tempfile

with tempfile.TemporaryDirectory() as work:
    fresh = os.path.join(work, "fresh.db")
    writer = sqlite3.connect(fresh)
    writer.execute("PRAGMA journal_mode=wal")
    writer.execute("PRAGMA wal_autocheckpoint=0")
    writer.execute("CREATE TABLE t(x)")
    writer.execute("INSERT INTO t VALUES ('acknowledged')")
    writer.commit()
    crashed = os.path.join(work, "crashed.db")
    shutil.copyfile(fresh + "-wal", crashed + "-wal")  # the -wal as it was synced
    open(crashed, "wb").close()                          # the main file as the crash left it: 0 bytes
    wal_bytes = os.path.getsize(crashed + "-wal")
    writer.close()
    reader = sqlite3.connect(crashed)
    try:
        rows = reader.execute("SELECT x FROM t").fetchall()
    except sqlite3.Error as error:
        rows = f"error: {error}"
    reader.close()
    survived = os.path.exists(crashed + "-wal") and os.path.getsize(crashed + "-wal") > 0
    print(f"SQLite {sqlite3.sqlite_version}: a 0-byte main file beside a valid -wal of {wal_bytes} bytes reads as {rows}; "
          f"the -wal {'is still there' if survived else 'is gone after the open'}")
    sys.exit(0 if rows == [("acknowledged",)] else 1)
