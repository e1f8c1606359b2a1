#!/usr/bin/env python3
"""Page-level equality of two SQLite database files (a backup and its source, or a restore and its backup).

Compares page by page. Skipped, as SQLite skips them: the lock-byte page (the page holding byte offset 0x40000000,
which SQLite never reads or writes, so its content is whatever the file system had there), and in page 1 the
fields a copy rewrites by design (file change counter at 24..27; schema cookie at 40..43, which sqlite3_backup
sets to the destination's old cookie + 1 so that its connections reload the schema; version-valid-for at 92..95
and SQLite version at 96..99). Both files must be checkpointed (no -wal content), as `lifeboat backup`/`restore` leave them.
Exit 0 when every compared page is equal, 1 with the first differing pages otherwise, 2 for bad input.
Usage: page-compare.py A B"""
import os
import struct
import sys

LOCK_BYTE = 0x40000000
SKIPPED_HEADER = [(24, 28), (40, 44), (92, 100)]


def page_size(path):
    with open(path, "rb") as f:
        header = f.read(100)
    if len(header) < 100 or not header.startswith(b"SQLite format 3\x00"):
        sys.exit(f"{path}: not an SQLite database")
    size = struct.unpack(">H", header[16:18])[0]
    return 65536 if size == 1 else size


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    a, b = sys.argv[1], sys.argv[2]
    size = page_size(a)
    if page_size(b) != size:
        print(f"page sizes differ: {size} and {page_size(b)}")
        return 1
    pages_a, pages_b = os.path.getsize(a) // size, os.path.getsize(b) // size
    lock_page = LOCK_BYTE // size + 1
    differing = []
    compared = 0
    with open(a, "rb") as fa, open(b, "rb") as fb:
        for number in range(1, max(pages_a, pages_b) + 1):
            x, y = fa.read(size), fb.read(size)
            if number == lock_page:
                continue
            if number == 1:
                for start, end in SKIPPED_HEADER:
                    x = x[:start] + bytes(end - start) + x[end:]
                    y = y[:start] + bytes(end - start) + y[end:]
            compared += 1
            if x != y:
                differing.append(number)
    crosses = max(pages_a, pages_b) >= lock_page
    print(f"{a}: {pages_a} pages; {b}: {pages_b} pages; page size {size}; lock-byte page {lock_page}"
          f" ({'inside both files, skipped' if crosses else 'beyond the files'}); {compared} pages compared")
    if pages_a != pages_b:
        print(f"page counts differ: {pages_a} and {pages_b}")
    if differing:
        print(f"{len(differing)} page(s) differ, first: {differing[:10]}")
        return 1
    if pages_a != pages_b:
        return 1
    print("every page equal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
