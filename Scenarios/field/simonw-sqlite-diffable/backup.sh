#!/bin/sh
# sqlite-diffable dump DB DIR --all, as its README says: each table's rows as newline-delimited JSON with a
# metadata file (columns, schema), one table after another. The module has no __main__, so its click group is
# called as the console script sqlite-diffable would call it. The reference copy the harness checks is that
# folder loaded into a new file by the program's own `load` (as restore.sh does), made durable by the adapter.
. "$(dirname "$0")/../_field.sh"
need_field_python
area="$(program_area diffable)"
PYTHONPATH="$upstream" "$field_python" -c 'from sqlite_diffable.cli import cli; cli()' dump "$LIFEBOAT_STORE" "$area/dump" --all
PYTHONPATH="$upstream" "$field_python" -c 'from sqlite_diffable.cli import cli; cli()' load "$LIFEBOAT_BACKUP_DIR/$store_name" "$area/dump"
make_reference_durable "$LIFEBOAT_BACKUP_DIR"
