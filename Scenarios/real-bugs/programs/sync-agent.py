#!/usr/bin/env python3
"""B21 pattern: a file sync agent (iCloud Drive, Dropbox and the like) that uploads each file of the store on its
own, whenever it notices a change: the .sqlite, the -wal and the -shm each copied at its own random moment into
the agent's mirror ($LIFEBOAT_BACKUP_ROOT/agent). Runs as a sidecar until stopped."""
import os
import random
import shutil
import time

store = os.environ["LIFEBOAT_STORE"]
mirror = os.path.join(os.environ["LIFEBOAT_BACKUP_ROOT"], "agent")
os.makedirs(mirror, exist_ok=True)
files = [store, store + "-wal", store + "-shm"]
seen = {}
while True:
    path = random.choice(files)
    try:
        stamp = os.stat(path).st_mtime_ns
    except FileNotFoundError:
        stamp = None
    if stamp is not None and seen.get(path) != stamp:
        temporary = os.path.join(mirror, os.path.basename(path) + ".upload")
        try:
            shutil.copyfile(path, temporary)
            os.rename(temporary, os.path.join(mirror, os.path.basename(path)))
            seen[path] = stamp
        except FileNotFoundError:
            pass
    time.sleep(random.uniform(0.02, 0.3))
