#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
need rdiff-backup
rdiff-backup --version
