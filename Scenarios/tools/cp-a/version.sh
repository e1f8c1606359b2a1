#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
need cp
cp --version | head -1
