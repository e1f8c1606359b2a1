"""Helpers the real-bug programs share: the store's paths from the runner's environment, fsync of a file and its
directory, and a copy of the support folder (external data) that skips files deleted meanwhile."""
import os
import shutil

STORE = os.environ.get("LIFEBOAT_STORE", "")
NAME = os.path.basename(STORE)
SUPPORT = os.path.join(os.path.dirname(STORE), "." + NAME.rsplit(".", 1)[0] + "_SUPPORT")


def fsync_path(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def copy_support(target_dir):
    """Copies .<Store>_SUPPORT into target_dir, skipping files that vanish during the copy (as rsync does)."""
    if not os.path.isdir(SUPPORT):
        return
    for root, _, files in os.walk(SUPPORT):
        destination = os.path.join(target_dir, os.path.relpath(root, os.path.dirname(SUPPORT)))
        os.makedirs(destination, exist_ok=True)
        for name in files:
            try:
                shutil.copyfile(os.path.join(root, name), os.path.join(destination, name))
            except FileNotFoundError:
                print("vanished:", name)
