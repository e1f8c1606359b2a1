#!/bin/sh
# sqlite-diffable load DB DIR --replace, as its README says for loading a dump over an existing database (each
# dumped table dropped and created again from its schema, then its rows inserted).
. "$(dirname "$0")/../_field.sh"
need_field_python
area="$(dirname "$LIFEBOAT_BACKUP").diffable"
PYTHONPATH="$upstream" "$field_python" -c 'from sqlite_diffable.cli import cli; cli()' load "$LIFEBOAT_STORE" "$area/dump" --replace
