#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
need python
python -c 'import apsw; print("apsw", apsw.apsw_version(), "(SQLite", apsw.sqlite_lib_version() + ")")'
