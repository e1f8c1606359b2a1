#!/usr/bin/env python3
"""A careful backup program: one snapshot through SQLite's backup API while a second connection holds the write
lock, the attachments hard-linked under the same lock (nothing commits meanwhile, so every file the copy names
is there), every file and folder fsynced, the database renamed into place and its folder fsynced. It changes
nothing in the store's folder. Used by the drill careful-backup-power-cut."""
import os
import sqlite3

store, dest = os.environ["LIFEBOAT_STORE"], os.environ["LIFEBOAT_BACKUP_DIR"]
name = os.path.basename(store)
support = "." + os.path.splitext(name)[0] + "_SUPPORT"
source_support = os.path.join(os.path.dirname(store), support)
target_support = os.path.join(dest, support)


def fsync(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


os.makedirs(dest, exist_ok=True)
temporary = os.path.join(dest, name + ".tmp")
lock = sqlite3.connect(store, timeout=30, isolation_level=None)
lock.execute("BEGIN IMMEDIATE")
source, copy = sqlite3.connect(store, timeout=30), sqlite3.connect(temporary)
source.backup(copy)
copy.close()
source.close()
for root, _, files in os.walk(source_support):
    target = os.path.join(target_support, os.path.relpath(root, source_support))
    os.makedirs(target, exist_ok=True)
    for file in files:
        if file.endswith(".interim"):
            continue  # a save that has not committed: the copy names no such file
        os.link(os.path.join(root, file), os.path.join(target, file))
lock.execute("COMMIT")
lock.close()
fsync(temporary)
for root, _, files in os.walk(target_support, topdown=False):
    for file in files:
        fsync(os.path.join(root, file))
    fsync(root)
os.rename(temporary, os.path.join(dest, name))
fsync(dest)
fsync(os.path.dirname(dest))
