#!/usr/bin/env python3
"""A small WAL-shipping replicator (our own, in the manner of Litestream), run as a sidecar: it takes a base
snapshot of the database, then ships the -wal's new whole frames every 50 ms into a replica
($LIFEBOAT_BACKUP_ROOT/replica: base.sqlite, wal, position). It resumes from the position it saved when it is
restarted. Two mistakes from the public record can be switched on:

- LIFEBOAT_SHIPPER_SALTS=ignore: it never looks at the -wal header's salts, so it does not notice that a checkpoint
  restarted the -wal while it was not running, and appends the new generation's frames after the old ones
  (Litestream issue 752, fixed by salt detection in PR 761). The default, `check`, starts a new generation (a new
  base snapshot) whenever the salts changed or the -wal shrank.
- LIFEBOAT_SHIPPER_BASE=none: the first generation starts without a base snapshot, as if the database had been
  empty when replication began (libsql sqld issue 766, Litestream issue 753).
- LIFEBOAT_SHIPPER_SIZE=grows: it assumes the database only grows and takes a commit frame whose database size
  is smaller than the previous commit's for a corrupt frame, so it stops shipping before it and retries forever:
  after a VACUUM (or auto-vacuum) shrinks the database, replication stalls and no later commit reaches the replica
  (Litestream issue 875, "page number out-of-bounds for commit size"). The default, `any`, ships shrinking
  commits as SQLite writes them (the replay truncates the database to the commit's size)."""
import os
import shutil
import signal
import sqlite3
import struct
import sys
import time

store = os.environ["LIFEBOAT_STORE"]
replica = os.path.join(os.environ["LIFEBOAT_BACKUP_ROOT"], "replica")
os.makedirs(replica, exist_ok=True)
wal_path = store + "-wal"
check_salts = os.environ.get("LIFEBOAT_SHIPPER_SALTS", "check") != "ignore"
base_mode = os.environ.get("LIFEBOAT_SHIPPER_BASE", "snapshot")
state_file = os.path.join(replica, "position")
grows_only = os.environ.get("LIFEBOAT_SHIPPER_SIZE", "any") == "grows"
last_commit_pages = None
stalled_at = None
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))


def header():
    try:
        with open(wal_path, "rb") as f:
            data = f.read(32)
    except FileNotFoundError:
        return None
    return data if len(data) == 32 else None


def new_generation(empty_base):
    """A fresh base snapshot (or an empty one) and an empty shipped -wal."""
    temporary = os.path.join(replica, "base.partial")
    if empty_base:
        open(temporary, "wb").close()
    else:
        source = sqlite3.connect(store, timeout=30)
        destination = sqlite3.connect(temporary)
        source.backup(destination)
        destination.close()
        source.close()
    os.rename(temporary, os.path.join(replica, "base.sqlite"))
    open(os.path.join(replica, "wal"), "wb").close()


def save(position, salts):
    with open(state_file + ".tmp", "w") as f:
        f.write(f"{position} {salts.hex() if salts else '-'}\n")
    os.rename(state_file + ".tmp", state_file)


# Like Litestream, it keeps a connection to the database open while it runs: without one, the app's last connection
# to close checkpoints and deletes the -wal before its newest frames were shipped.
keeper = sqlite3.connect(store, timeout=30)
keeper.execute("SELECT count(*) FROM sqlite_master").fetchall()

if os.path.exists(state_file):
    text = open(state_file).read().split()
    position, salts = int(text[0]), (bytes.fromhex(text[1]) if text[1] != "-" else None)
    print(f"resuming at -wal byte {position}")
    current = header()
    if check_salts and position > 0 and (current is None or current[16:24] != salts
                                         or os.path.getsize(wal_path) < position):
        # The -wal the position belongs to is gone (checkpointed away, or the database was restored meanwhile):
        # frames written since may never be seen, so the replica starts over from a base snapshot.
        print("the -wal is not the one the saved position belongs to: new generation")
        new_generation(empty_base=False)
        salts, position = (current[16:24] if current else None), 0
        if current:
            with open(os.path.join(replica, "wal"), "wb") as out:
                out.write(current)
        save(position, salts)
else:
    # A generation ships the -wal from its first frame (each frame's checksum continues the previous one's, so a
    # replica cannot start in the middle); the frames older than the base snapshot replay to the same pages.
    first = header()
    new_generation(empty_base=(base_mode == "none"))
    salts = first[16:24] if first else None
    position = 0
    if first:
        with open(os.path.join(replica, "wal"), "wb") as out:
            out.write(first)
    save(position, salts)

while True:
    # When this pass began: a restore that waits for a pass begun after its own start has every frame committed
    # before it (programs/replica-restore.sh).
    began = time.time()
    current = header()
    if current is not None:
        size = os.path.getsize(wal_path)
        restarted = salts is not None and current[16:24] != salts
        if check_salts and (restarted or size < position):
            last_commit_pages = None
            print(f"-wal restarted (salts or size changed at byte {position}): new generation")
            new_generation(empty_base=False)
            with open(os.path.join(replica, "wal"), "wb") as out:
                out.write(current)
            salts, position = current[16:24], 0
            save(position, salts)
            continue
        if salts is None:
            salts = current[16:24]
            with open(os.path.join(replica, "wal"), "wb") as out:
                out.write(current)
            position = 32
        page_size = struct.unpack(">I", current[8:12])[0]
        frame = 24 + page_size
        start = max(position, 32)
        whole = (size - start) // frame
        if grows_only and whole > 0:
            # Each frame's header holds, on a transaction's last frame, the database's size in pages after it.
            with open(wal_path, "rb") as source:
                source.seek(start)
                batch = source.read(whole * frame)
            for index in range(whole):
                pages = struct.unpack(">I", batch[index * frame + 4:index * frame + 8])[0]
                if pages == 0:
                    continue
                if last_commit_pages is not None and pages < last_commit_pages:
                    if stalled_at != start + index * frame:
                        stalled_at = start + index * frame
                        print(f"page number out-of-bounds for commit size: commit of {pages} pages after "
                              f"{last_commit_pages}; not shipping from -wal byte {stalled_at}")
                    whole = index
                    break
                last_commit_pages = pages
        if whole > 0:
            with open(wal_path, "rb") as source, open(os.path.join(replica, "wal"), "ab") as out:
                source.seek(start)
                out.write(source.read(whole * frame))
                out.flush()
                os.fsync(out.fileno())
            position = start + whole * frame
            save(position, salts)
    with open(os.path.join(replica, "polled.tmp"), "w") as f:
        f.write(f"{began}\n")
    os.rename(os.path.join(replica, "polled.tmp"), os.path.join(replica, "polled"))
    time.sleep(0.05)
