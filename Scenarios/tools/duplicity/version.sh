#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
need duplicity
duplicity --version
