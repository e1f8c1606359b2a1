#!/usr/bin/env python3
"""Point-in-time restore from programs/pitr-snapshotter.py's snapshots: the newest snapshot that began at or before
LIFEBOAT_RESTORE_TIME is restored over the (stopped) store by programs/restore-clean.py. A snapshot that began at b
holds every transaction acknowledged before b; it equals the store at T when nothing committed between b and T,
which the scenarios arrange by pausing the writers around T (the Litestream reports write every few seconds)."""
import datetime
import os
import subprocess
import sys

moment = datetime.datetime.fromisoformat(os.environ["LIFEBOAT_RESTORE_TIME"].replace("Z", "+00:00")).timestamp()
folder = os.path.join(os.environ["LIFEBOAT_BACKUP_ROOT"], "snapshots")
stamps = sorted(float(name[:-len(".sqlite")]) for name in os.listdir(folder) if name.endswith(".sqlite"))
chosen = [stamp for stamp in stamps if stamp <= moment]
if not chosen:
    sys.exit(f"no snapshot at or before {moment:.3f}")
print(f"restoring the snapshot of {chosen[-1]:.3f} for {moment:.3f} ({moment - chosen[-1]:.3f} s earlier)")
environment = dict(os.environ, LIFEBOAT_BACKUP=os.path.join(folder, f"{chosen[-1]:.6f}.sqlite"))
sys.exit(subprocess.call([sys.executable, os.path.join(os.path.dirname(__file__), "restore-clean.py")], env=environment))
