#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
need restic
restic version | cut -d' ' -f1-2
