#!/usr/bin/env python3
"""B2 pattern: the database and its -wal copied as two independent file copies, with no lock and no SQLite
handle, a moment apart (LIFEBOAT_COPY_GAP seconds, default 0.3: the window a slow first copy opens); then a
"verification" that only checks the copy is larger than 1 KB, which prints verified: true."""
import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from _common import STORE, NAME, copy_support  # noqa: E402

target = os.path.join(os.environ["LIFEBOAT_BACKUP_DIR"], NAME)
shutil.copyfile(STORE, target)
time.sleep(float(os.environ.get("LIFEBOAT_COPY_GAP", "0.3")))
if os.path.exists(STORE + "-wal"):
    shutil.copyfile(STORE + "-wal", target + "-wal")
copy_support(os.environ["LIFEBOAT_BACKUP_DIR"])
print(json.dumps({"verified": os.path.getsize(target) > 1024}))
