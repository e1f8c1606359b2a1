#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
need borgmatic borg sqlite3
echo "borgmatic $(borgmatic --version) ($(borg --version), sqlite3 $(sqlite3 --version | cut -d' ' -f1))"
