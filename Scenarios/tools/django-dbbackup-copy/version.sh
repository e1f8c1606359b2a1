#!/bin/sh
exec sh "$(dirname "$0")/../django-dbbackup/version.sh"
