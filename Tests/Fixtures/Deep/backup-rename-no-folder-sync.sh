#!/bin/sh
# A naive backup (issue 29): SQLite's online backup into a temporary file, the file fsynced, then renamed into
# place. The folder that names the backup is never fsynced, so a power failure after "done" can undo the rename:
# `lifeboat try --deep` catches it with the rename as the operation the crash dropped.
set -eu
python3 - <<'PY'
import os, sqlite3
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
PY
