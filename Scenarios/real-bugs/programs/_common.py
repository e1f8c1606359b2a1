"""Helpers the real-bug programs share: the store's paths from the runner's environment, fsync of a file and its
directory, a copy of the support folder (external data) that skips files deleted meanwhile, and the restore of
the support folder from a backup."""
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


def restore_support(backup, sync=True):
    """Replaces the store's support folder with the one beside the backup's database (none when the backup has
    none); with `sync`, every file and folder of the copy is fsynced. Returns whether the backup had one."""
    backup_support = os.path.join(os.path.dirname(backup), os.path.basename(SUPPORT))
    if os.path.isdir(SUPPORT):
        shutil.rmtree(SUPPORT)
    if not os.path.isdir(backup_support):
        return False
    shutil.copytree(backup_support, SUPPORT)
    if sync:
        for root, dirs, files in os.walk(SUPPORT, topdown=False):
            for name in files:
                fsync_path(os.path.join(root, name))
            fsync_path(root)
    return True
