#!/bin/sh
. "$(dirname "$0")/../_lib.sh"
need django-admin python
echo "django-dbbackup $(python -c 'from importlib.metadata import version; print(version("django-dbbackup"), "(Django", version("Django") + ")")')"
