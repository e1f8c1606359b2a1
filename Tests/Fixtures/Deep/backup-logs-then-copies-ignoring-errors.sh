#!/bin/sh
# A backup that first logs what it is about to copy, one line (one write) per 4 KiB block of a consistent image of
# the store (SQLite's online backup into memory), then writes the image block by block and carries on past a
# block it could not write (an `except OSError: pass` meant for a full disk): an EIO at a write of the copy leaves
# a hole in a backup reported good. Its writes grow with the store, so a smaller store moves the failing call to
# an earlier N (issue 39 point 4: the shrunk repro's point).
set -eu
python3 - <<'PY'
import os, sqlite3
store, dest = os.environ["LIFEBOAT_STORE"], os.environ["LIFEBOAT_BACKUP_DIR"]
name = os.path.basename(store)
os.makedirs(dest, exist_ok=True)
source, memory = sqlite3.connect(store), sqlite3.connect(":memory:")
source.backup(memory)
source.close()
data = memory.serialize()
memory.close()
blocks = [data[i:i + 4096] for i in range(0, len(data), 4096)]
log = os.open(os.path.join(dest, "copy.log"), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
for index in range(len(blocks)):
    os.write(log, b"block %d\n" % index)
os.fsync(log)
os.close(log)
out = os.open(os.path.join(dest, name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
for index, block in enumerate(blocks):
    try:
        os.pwrite(out, block, index * 4096)
    except OSError:
        pass
os.fsync(out)
os.close(out)
PY
