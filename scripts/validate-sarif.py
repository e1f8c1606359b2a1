#!/usr/bin/env python3
"""Validates SARIF files Lifeboat wrote (`--sarif FILE`) against the OASIS SARIF 2.1.0 JSON Schema
(docs/schemas/sarif-schema-2.1.0.json, with its NOTICE), with Python's jsonschema (Draft 4, formats checked),
and against what GitHub code scanning reads: at most 20 runs per file, 25,000 results per run, 10 MB gzipped,
and (Lifeboat's own promise) a stable partial fingerprint on every result.

    .venv/bin/python scripts/validate-sarif.py FILE...

Exit 0 when every file is valid; 1 with each problem on stderr (file: JSON path: message)."""
import gzip
import json
import os
import sys

import jsonschema

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs", "schemas", "sarif-schema-2.1.0.json")


def problems(path, validator):
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
        log = json.loads(raw)
    except (OSError, ValueError) as error:
        return [f"cannot read it as JSON: {error}"]
    found = []
    for error in sorted(validator.iter_errors(log), key=lambda e: list(e.absolute_path)):
        where = "/".join(str(p) for p in error.absolute_path) or "(root)"
        found.append(f"{where}: {error.message}")
    if found:
        return found
    if len(log["runs"]) > 20:
        found.append(f"runs: {len(log['runs'])} runs; GitHub reads at most 20 per file")
    for index, run in enumerate(log["runs"]):
        results = run.get("results", [])
        if len(results) > 25000:
            found.append(f"runs/{index}/results: {len(results)} results; GitHub reads at most 25,000 per run")
        for number, result in enumerate(results):
            if not result.get("partialFingerprints", {}).get("lifeboatFinding/v1"):
                found.append(f"runs/{index}/results/{number}: no partialFingerprints['lifeboatFinding/v1']")
    if len(gzip.compress(raw)) > 10 * 1000 * 1000:
        found.append("over 10 MB gzipped, GitHub's limit for an upload")
    return found


def main(paths):
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    with open(SCHEMA, encoding="utf-8") as handle:
        schema = json.load(handle)
    validator = jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)
    status = 0
    for path in paths:
        for problem in problems(path, validator):
            print(f"{path}: {problem}", file=sys.stderr)
            status = 1
    if status == 0:
        print(f"validate-sarif: {len(paths)} file(s) valid against SARIF 2.1.0")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
