#!/bin/sh
# A naive backup (issue 29): SQLite's online backup, fsynced with its folder, then a manifest beside it. When the
# manifest's close fails it "resets" the live store by emptying its -wal (so the next backup "starts from a
# checkpointed store"), which throws away commits the app has not checkpointed yet, then reports failure.
# Reporting the failure is right; changing the live store is not.
set -eu
python3 - <<'PY'
import os, sqlite3, sys
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
try:
    os.close(fd)
except OSError as error:
    # The mistake: the live store's -wal is emptied under the app.
    if os.path.exists(store + "-wal"):
        os.truncate(store + "-wal", 0)
    sys.exit(f"backup failed at close: {error}")
PY
