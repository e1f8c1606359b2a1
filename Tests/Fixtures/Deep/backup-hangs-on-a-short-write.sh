#!/bin/sh
# A backup that hangs at one point only (issue 39, point 5): SQLite's online backup into a temporary file, the
# file fsynced, renamed into place, the folder fsynced, then a one-line manifest written with one write(2); when
# that write comes back short it waits for good (as a script that retries a lock or a mount forever would). Only a
# short write does that: an error (EIO, ENOSPC, the frozen volume after a crash) stops it with a traceback.
# `lifeboat try --deep` stops that point at its time limit, names it HUNG with the write its fault fired on, and
# searches every other point.
set -eu
python3 - <<'PY'
import os, sqlite3, time
store, dest = os.environ["LIFEBOAT_STORE"], os.environ["LIFEBOAT_BACKUP_DIR"]
name = os.path.basename(store)
os.makedirs(dest, exist_ok=True)
temporary = os.path.join(dest, name + ".partial")
source, copy = sqlite3.connect(store), sqlite3.connect(temporary)
source.backup(copy)
copy.close(); source.close()
fd = os.open(temporary, os.O_RDONLY)
os.fsync(fd)
os.close(fd)
os.rename(temporary, os.path.join(dest, name))
fd = os.open(dest, os.O_RDONLY)
os.fsync(fd)
os.close(fd)
line = ("%s %d\n" % (name, os.path.getsize(os.path.join(dest, name)))).encode()
fd = os.open(os.path.join(dest, "manifest.txt"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
if os.write(fd, line) != len(line):
    while True:
        time.sleep(3600)
os.fsync(fd)
os.close(fd)
PY
