#!/usr/bin/env python3
"""B13's mistake, for scripts/bench-lock-page.sh (superfly/ltx PR 51, https://github.com/superfly/ltx/pull/51):
a page-by-page copier that leaves the lock-byte page out of its stream of pages (right: SQLite never uses it) and
then writes page N at the offset of the N-th page it emitted, not at (N-1) * page_size, so from the lock page on
every page lands one slot early and the copy is one page short. Our own small program, not the tool's code.
Usage: lock-page-shift-copy.py SOURCE DESTINATION"""
import os
import struct
import sys

source, destination = sys.argv[1], sys.argv[2]
with open(source, "rb") as f:
    size = struct.unpack(">H", f.read(100)[16:18])[0] or 65536
lock_page = 0x40000000 // size + 1
pages = os.path.getsize(source) // size
with open(source, "rb") as src, open(destination, "wb") as out:
    emitted = 0
    for number in range(1, pages + 1):
        data = src.read(size)
        if number == lock_page:
            continue
        out.seek(emitted * size)
        out.write(data)
        emitted += 1
    out.flush()
    os.fsync(out.fileno())
