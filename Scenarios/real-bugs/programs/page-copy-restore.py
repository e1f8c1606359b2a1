#!/usr/bin/env python3
"""A restore that copies the backup page by page, as page-level replication tools do (LTX files carry pages by
number), into a temporary file that is synced and renamed over the store; the live -wal and -shm are removed
first. Pages of zeros (free pages a store keeps after deletes) are skipped, leaving holes.

SQLite never uses the lock-byte page, the page holding byte 0x40000000, so the copier leaves it out of its stream
of pages. LIFEBOAT_LOCK_PAGE=shift is B13's mistake (superfly/ltx PR 51, https://github.com/superfly/ltx/pull/51):
page N is written at the slot of the N-th page emitted instead of at (N-1) * page size, so from the lock page on
every page lands one slot early and the copy is one page short. Without it each page goes to its own offset.
Our own small program, not the tool's code.

Usage: as a restore command (LIFEBOAT_BACKUP, LIFEBOAT_STORE from the runner), or `page-copy-restore.py SOURCE
DESTINATION` to copy one database file page by page (scripts/bench-lock-page.sh)."""
import os
import struct
import sys


def copy_pages(source, destination, shift):
    """Copies `source` page by page to `destination` (synced); returns (pages emitted, page size, lock page)."""
    with open(source, "rb") as f:
        size = struct.unpack(">H", f.read(100)[16:18])[0] or 65536
    lock_page = 0x40000000 // size + 1
    pages = os.path.getsize(source) // size
    zero = bytes(size)
    with open(source, "rb") as src, open(destination, "wb") as out:
        emitted = 0
        for number in range(1, pages + 1):
            data = src.read(size)
            if number == lock_page:
                continue
            slot = emitted if shift else number - 1
            emitted += 1
            if data != zero:
                out.seek(slot * size)
                out.write(data)
        out.truncate((emitted if shift else pages) * size)
        out.flush()
        os.fsync(out.fileno())
    return emitted, size, lock_page


shift = os.environ.get("LIFEBOAT_LOCK_PAGE") == "shift"
if len(sys.argv) == 3:
    copy_pages(sys.argv[1], sys.argv[2], shift)
    sys.exit(0)

sys.path.insert(0, os.path.dirname(__file__))
from _common import STORE, fsync_path  # noqa: E402

for suffix in ("-wal", "-shm", "-journal"):
    if os.path.exists(STORE + suffix):
        os.remove(STORE + suffix)
temporary = STORE + ".restoring"
emitted, size, lock_page = copy_pages(os.environ["LIFEBOAT_BACKUP"], temporary, shift)
os.rename(temporary, STORE)
fsync_path(os.path.dirname(STORE))
print(f"restored {emitted} pages of {size} bytes (lock page {lock_page}{', shifted' if shift else ''})")
