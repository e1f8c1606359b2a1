#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
need rsync
rsync --version | head -1 | sed 's/  */ /g'
