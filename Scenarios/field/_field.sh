# Sourced by every field-study adapter (Scenarios/field/<program>/backup.sh, restore.sh). The adapters reuse the
# tool recipes' helpers (Scenarios/tools/_lib.sh: set -eu, need, tolerate, make_reference_durable, store_dir,
# store_name) so that a missing tool is an environment error (exit 127), never a finding. The vendored program
# lives unchanged in upstream/ beside the adapter; the adapter only maps the env vars `lifeboat try` gives
# (LIFEBOAT_STORE, LIFEBOAT_BACKUP_DIR; LIFEBOAT_BACKUP) onto the program's own arguments, environment or
# file layout (docs/field-study.md, "How a program is adapted").
. "$(dirname "$0")/../../tools/_lib.sh"
upstream="$lifeboat_recipe_dir/upstream"
# The Python that has the PyPI dependencies two of the programs declare (click, logzero; typer, rich,
# portalocker, pyyaml, zstandard): scripts/field-study.sh creates it from Scenarios/field/requirements.txt.
field_python="$lifeboat_root/.venv/field/bin/python"
need_field_python() {
    [ -x "$field_python" ] || { echo "$field_python: not found; run scripts/field-study.sh (it creates .venv/field)" >&2; exit 127; }
}
# Where a program keeps what it makes that is not the store's own file (archives, dumps, profiles): beside the
# backup folder, one per backup, as the restic and borg recipes keep their repositories.
program_area() {
    area="$LIFEBOAT_BACKUP_DIR.$1"
    mkdir -p "$area"
    printf '%s\n' "$area"
}
