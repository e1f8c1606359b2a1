#!/usr/bin/env bash
# The tool versions the recipes pin (Scenarios/tools/<recipe>/_versions.yaml: a PyPI `package:` and its
# `versions:`), each in a virtual environment of its own, .venv/tools/<package>-<version>/, so that
# `lifeboat matrix Scenarios/tools --versions` and the real-bug scenarios can run an older release beside the
# default one in .venv/bin (docs/recipes.md, "Pinned versions"). Idempotent and quick when every version is
# there (a version counts as installed once its folder holds the `.installed` mark, written last).
# Called by scripts/venv.sh (and so by scripts/setup.sh and CI); needs .venv (its pip, and ruamel.yaml, which
# check-jsonschema brings, to read the files).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/pip ] || { echo "tool-versions: .venv is missing; run scripts/venv.sh" >&2; exit 2; }
# One "package version" line per pinned version of every recipe (every scalar read as text: 1.10 stays 1.10).
pins="$(.venv/bin/python - Scenarios/tools/*/_versions.yaml <<'PY'
import sys
from ruamel.yaml import YAML
for path in sys.argv[1:]:
    data = YAML(typ="base").load(open(path)) or {}
    package, versions = data.get("package"), data.get("versions") or []
    if not package or not versions:
        sys.exit(f"{path}: needs `package:` and `versions:` (lifeboat matrix explains)")
    for version in versions:
        print(package, version)
PY
)"
[ -n "$pins" ] || exit 0
while read -r package version; do
    folder=".venv/tools/$package-$version"
    [ -f "$folder/.installed" ] && continue
    echo "setup: installing $package $version into $folder"
    rm -rf "$folder"
    # A venv without pip of its own (2 s, not 10): the project's pip installs into it.
    python3 -m venv --without-pip "$folder"
    .venv/bin/pip --python "$folder/bin/python" install -q --disable-pip-version-check "$package==$version"
    touch "$folder/.installed"
done <<<"$pins"
