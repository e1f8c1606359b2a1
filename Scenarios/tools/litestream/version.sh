#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
need litestream
echo "litestream $(litestream version)"
