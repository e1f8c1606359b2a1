#!/bin/sh
# borgmatic: `borgmatic create` with the SQLite hook (_borgmatic.yaml): the store dumped with `.dump` into an archive
# of a local Borg repository (created on first use), one archive per backup named after it. The dump is then
# restored with `borgmatic restore --restore-path` into LIFEBOAT_BACKUP_DIR, so the harness checks what the
# archive holds.
. "$(dirname "$0")/../_lib.sh"
config="$(dirname "$0")/_borgmatic.yaml"
export LIFEBOAT_ARCHIVE="$(basename "$LIFEBOAT_BACKUP_DIR")"
[ -d "$LIFEBOAT_BACKUP_ROOT/borgmatic-repo" ] || borgmatic --config "$config" repo-create --encryption none
borgmatic --config "$config" create
borgmatic --config "$config" restore --archive latest --restore-path "$LIFEBOAT_BACKUP_DIR/$store_name"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
