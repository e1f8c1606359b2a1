#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
borg --version
