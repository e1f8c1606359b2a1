#!/usr/bin/env python3
"""B3 pattern: PRAGMA wal_checkpoint(TRUNCATE) to fold the -wal into the main file, its result row (busy, log,
checkpointed) ignored, then the main file copied alone. With a reader holding a snapshot the checkpoint returns
busy=1 and stops short, and the frames it did not copy stay behind in the -wal."""
import os
import shutil
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(__file__))
from _common import STORE, NAME, copy_support  # noqa: E402

connection = sqlite3.connect(STORE, timeout=0)
busy, log, checkpointed = connection.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
print(f"wal_checkpoint(TRUNCATE): busy={busy} log={log} checkpointed={checkpointed} (not checked)")
connection.close()
shutil.copyfile(STORE, os.path.join(os.environ["LIFEBOAT_BACKUP_DIR"], NAME))
copy_support(os.environ["LIFEBOAT_BACKUP_DIR"])
