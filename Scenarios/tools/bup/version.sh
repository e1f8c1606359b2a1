#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
need bup
echo "bup $(bup version)"
