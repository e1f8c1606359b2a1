#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
need rclone
RCLONE_CONFIG=/dev/null rclone version | head -1
