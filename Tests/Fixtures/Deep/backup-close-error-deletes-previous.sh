#!/bin/sh
# A naive backup (issue 29): SQLite's online backup, fsynced with its folder, then a manifest beside it. When the
# manifest's close fails it "starts over clean" and deletes every backup under the backups folder, the previous
# good one too, then reports failure. Reporting the failure is right; deleting what it was given is not.
set -eu
python3 - <<'PY'
import os, shutil, sqlite3, sys
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
    # The mistake: the failed close is taken as a sign that every backup is suspect.
    root = os.path.dirname(dest)
    for entry in os.listdir(root):
        shutil.rmtree(os.path.join(root, entry), ignore_errors=True)
    sys.exit(f"backup failed at close: {error}")
PY
