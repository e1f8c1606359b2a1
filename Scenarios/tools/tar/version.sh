#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
need tar
tar --version | head -1
