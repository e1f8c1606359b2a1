#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
cp --version | head -1
