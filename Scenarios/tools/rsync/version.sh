#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
rsync --version | head -1 | sed 's/  */ /g'
