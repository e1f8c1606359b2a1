#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
need sqlite3
echo "sqlite3 $(sqlite3 --version | cut -d' ' -f1)"
