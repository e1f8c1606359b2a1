#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
tar --version | head -1
