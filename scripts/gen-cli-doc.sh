#!/bin/sh
# Regenerates docs/cli.md from the commands' own --help (CLIReferenceTests fails when it is stale).
set -eu
cd "$(dirname "$0")/.."
swift build --product lifeboat >/dev/null
.build/debug/lifeboat cli-reference > docs/cli.md
echo "wrote docs/cli.md"
