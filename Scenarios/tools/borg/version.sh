#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
need borg
borg --version
