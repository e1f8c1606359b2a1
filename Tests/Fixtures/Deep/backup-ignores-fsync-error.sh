#!/bin/sh
# A naive backup (issue 29): SQLite's online backup, then an fsync of the copy and its folder whose failure is
# ignored ("it is only a flush"), then exit 0. After a failed fsync Linux may drop the file's unsynced pages, so
# the backup that reported success can differ from the store.
set -eu
python3 - <<'PY'
import os, sqlite3
store, dest = os.environ["LIFEBOAT_STORE"], os.environ["LIFEBOAT_BACKUP_DIR"]
name = os.path.basename(store)
os.makedirs(dest, exist_ok=True)
target = os.path.join(dest, name)
source, copy = sqlite3.connect(store), sqlite3.connect(target)
copy.execute("PRAGMA synchronous=OFF")
source.backup(copy)
copy.close(); source.close()
for path in (target, dest):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError:
        pass  # the mistake: the error is ignored and the backup reported as done
    os.close(fd)
PY
