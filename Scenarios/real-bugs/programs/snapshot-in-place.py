#!/usr/bin/env python3
"""B7 pattern: the recovery snapshot lives at one fixed path ($LIFEBOAT_BACKUP_ROOT/snapshot.sqlite) and each new
snapshot is written straight over the previous one, page after page, as a backup loop stepping into the target
file does. A crash in the middle leaves neither the old snapshot nor the new one. The file in LIFEBOAT_BACKUP_DIR
is a hard link to the fixed path: the snapshot the app would fall back to, as it was when this run reported
success. LIFEBOAT_ATOMIC=1 writes a temporary file, syncs it and renames it over the fixed path (the fix the
report suggests), which leaves the previous snapshot's inode untouched."""
import os
import sqlite3
import sys
import time

sys.path.insert(0, os.path.dirname(__file__))
from _common import STORE, NAME, fsync_path  # noqa: E402

root = os.environ["LIFEBOAT_BACKUP_ROOT"]
os.makedirs(root, exist_ok=True)
fixed = os.path.join(root, "snapshot.sqlite")
source = sqlite3.connect(STORE, timeout=30)
memory = sqlite3.connect(":memory:")
source.backup(memory)
source.close()
image = memory.serialize()
memory.close()
page = 4096
pause = float(os.environ.get("LIFEBOAT_STEP_PAUSE", "0.03"))
print(f"snapshot of {len(image)} bytes, written {page} bytes at a time every {pause} s", flush=True)
if os.environ.get("LIFEBOAT_ATOMIC") == "1":
    temporary = fixed + ".partial"
    with open(temporary, "wb") as out:
        for offset in range(0, len(image), page):
            out.write(image[offset:offset + page])
            time.sleep(pause)
        out.flush()
        os.fsync(out.fileno())
    os.rename(temporary, fixed)
else:
    descriptor = os.open(fixed, os.O_WRONLY | os.O_CREAT, 0o644)
    for offset in range(0, len(image), page):
        os.pwrite(descriptor, image[offset:offset + page], offset)
        time.sleep(pause)
    os.ftruncate(descriptor, len(image))
    os.fsync(descriptor)
    os.close(descriptor)
fsync_path(root)
link = os.path.join(os.environ["LIFEBOAT_BACKUP_DIR"], NAME)
os.link(fixed, link)
fsync_path(os.environ["LIFEBOAT_BACKUP_DIR"])
print("snapshot written:", fixed, len(image), "bytes")
