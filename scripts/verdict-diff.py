#!/usr/bin/env python3
"""Every verdict that changed between two runs of the same drills, catalog or matrix.

    scripts/verdict-diff.py suite OLD/summary.json NEW/summary.json
        Two `lifeboat run` campaigns (their summary.json): for each (scenario, seed) run by both, whether it showed
        what it expects and the status of each invariant both builds judge. Prints one Markdown row per pair whose
        verdicts differ; an invariant only one build has is counted apart (added or removed, not changed).

    scripts/verdict-diff.py table OLD.md NEW.md [--ignore COLUMN ...]
        Two generated pages (docs/real-tools.md from `lifeboat matrix --out`, docs/real-bugs.md from
        `lifeboat run --catalog`): every table cell, keyed by its row's first cell and its column's header, with
        links and repro paths left out. Timing columns are left out with --ignore (a header's start).

Exit 0 when nothing changed, 1 when something did (the rows are printed), 2 for bad input. Used for the
before/after table of docs/architecture.md's engine change (docs/performance.md says how to run it).
"""
import json
import re
import sys


def fail(message):
    print(f"verdict-diff: {message}", file=sys.stderr)
    sys.exit(2)


def load_suite(path):
    try:
        with open(path, encoding="utf-8") as f:
            suite = json.load(f)
    except (OSError, ValueError) as error:
        fail(f"{path}: {error}")
    pairs = {}
    for entry in suite.get("entries", []):
        if entry.get("status") != "ran":
            continue
        statuses = {v["invariant"]: v["status"] for v in entry.get("verdicts", [])}
        pairs[(entry["scenario"], entry["seed"])] = (entry.get("expectationMet"), statuses)
    return pairs


def describe(statuses):
    bad = sorted(name for name, status in statuses.items() if status not in ("held", "skipped", "not-applicable"))
    return ", ".join(f"{name} {statuses[name]}" for name in bad) or "all held"


def diff_suites(old_path, new_path):
    old, new = load_suite(old_path), load_suite(new_path)
    rows = []
    added, dropped = {}, {}
    for key in sorted(set(old) & set(new)):
        (old_met, old_v), (new_met, new_v) = old[key], new[key]
        # An invariant one build has and the other lacks is counted apart: it is new (or gone), not a changed verdict.
        for name in set(new_v) - set(old_v):
            added.setdefault(name, {}).setdefault(new_v[name], 0)
            added[name][new_v[name]] += 1
        for name in set(old_v) - set(new_v):
            dropped.setdefault(name, {}).setdefault(old_v[name], 0)
            dropped[name][old_v[name]] += 1
        changed = sorted(name for name in set(old_v) & set(new_v) if old_v[name] != new_v[name])
        if old_met == new_met and not changed:
            continue
        detail = "; ".join(f"{name}: {old_v.get(name, '—')} → {new_v.get(name, '—')}" for name in changed)
        rows.append(f"| {key[0]} | {key[1]} | {old_met} → {new_met} | {detail or 'expectation only'} |")
    only_old = sorted(set(old) - set(new))
    only_new = sorted(set(new) - set(old))
    print(f"{len(set(old) & set(new))} pairs in both; {len(rows)} changed; "
          f"{len(only_old)} only in the old run; {len(only_new)} only in the new run")
    for label, keys in (("only in the old run", only_old), ("only in the new run", only_new)):
        if keys:
            print(f"{label}: " + ", ".join(f"{s} seed {n}" for s, n in keys))
    for label, names in (("invariants only the new build judges", added), ("invariants only the old build judged", dropped)):
        for name, counts in sorted(names.items()):
            print(f"{label}: {name} (" + ", ".join(f"{status} in {n}" for status, n in sorted(counts.items())) + ")")
    if rows:
        print("\n| scenario | seed | as expected | invariants changed |\n|---|---|---|---|")
        print("\n".join(rows))
    return 1 if rows else 0


LINK = re.compile(r"\(\[repro\]\([^)]*\)\)|\[([^\]]*)\]\([^)]*\)")


def clean(cell):
    cell = LINK.sub(lambda m: m.group(1) or "", cell)
    return re.sub(r"\s+", " ", cell.replace("**", "")).strip()


def load_tables(path, ignore):
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as error:
        fail(f"{path}: {error}")
    cells, header, table = {}, None, 0
    for line in lines:
        if not line.startswith("|"):
            header = None
            continue
        parts = [p.strip() for p in line.strip().strip("|").split("|")]
        if header is None:
            header, table = parts, table + 1
            continue
        if all(re.fullmatch(r":?-+:?", p) for p in parts):
            continue
        key = clean(parts[0])
        for column, value in zip(header[1:], parts[1:]):
            if any(column.startswith(prefix) for prefix in ignore):
                continue
            cells[(table, header[0], key, column)] = clean(value)
    return cells


def diff_tables(old_path, new_path, ignore):
    old, new = load_tables(old_path, ignore), load_tables(new_path, ignore)
    rows = [f"| {k[2]} | {k[3]} | {old[k]} | {new[k]} |" for k in sorted(set(old) & set(new)) if old[k] != new[k]]
    added = sorted(set(new) - set(old))
    removed = sorted(set(old) - set(new))
    print(f"{len(set(old) & set(new))} cells in both; {len(rows)} changed; {len(removed)} only in the old page; "
          f"{len(added)} only in the new page")
    for label, keys in (("only in the old page", removed), ("only in the new page", added)):
        if keys:
            print(f"{label}: " + ", ".join(f"{k[2]} / {k[3]}" for k in keys))
    if rows:
        print("\n| row | column | before | after |\n|---|---|---|---|")
        print("\n".join(rows))
    return 1 if rows else 0


def main(argv):
    if len(argv) < 3 or argv[0] not in ("suite", "table"):
        fail("usage: verdict-diff.py suite OLD/summary.json NEW/summary.json | table OLD.md NEW.md [--ignore COLUMN ...]")
    if argv[0] == "suite":
        if len(argv) != 3:
            fail("suite takes two summary.json files")
        return diff_suites(argv[1], argv[2])
    ignore, rest = [], argv[3:]
    while rest:
        if rest[0] != "--ignore" or len(rest) < 2:
            fail(f"unexpected argument {rest[0]!r} (only --ignore COLUMN)")
        ignore.append(rest[1])
        rest = rest[2:]
    return diff_tables(argv[1], argv[2], ignore)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
