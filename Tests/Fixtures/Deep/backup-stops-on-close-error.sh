#!/bin/sh
# A correct backup (issue 29): SQLite's online backup (SQLite ignores a failed close of its files, rightly: the
# bytes stay), the copy and its folder fsynced, then a manifest whose failed close stops the script (Python raises,
# `set -e`): it reports failure and touches nothing else. `try --deep`'s walk of EIO at each close holds.
set -eu
python3 - <<'PY'
import os, sqlite3
store, dest = os.environ["LIFEBOAT_STORE"], os.environ["LIFEBOAT_BACKUP_DIR"]
name = os.path.basename(store)
os.makedirs(dest, exist_ok=True)
target = os.path.join(dest, name)
source, copy = sqlite3.connect(store), sqlite3.connect(target)
source.backup(copy)
copy.close(); source.close()
for path in (target, dest):
    fd = os.open(path, os.O_RDONLY)
    os.fsync(fd)
    os.close(fd)
fd = os.open(os.path.join(dest, "manifest.txt"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
os.write(fd, name.encode() + b"\n")
os.fsync(fd)
os.close(fd)
PY
