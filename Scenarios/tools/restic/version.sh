#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
restic version | cut -d' ' -f1-2
