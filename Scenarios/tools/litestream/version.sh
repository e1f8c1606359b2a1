#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
echo "litestream $(litestream version)"
