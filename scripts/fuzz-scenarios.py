#!/usr/bin/env python3
"""Mutates the shipped scenarios and feeds every mutant to lifeboat: the "no input crashes Lifeboat" measure.

Each mutant (an extreme number, a wrong type or garbage in place of a value, a line deleted, duplicated or
replaced by garbage, the file cut short; the same kinds as Tests/LifeboatTestSupport/ScenarioMutation.swift)
goes through `lifeboat run --dry-run`; the first valid ones also through a full, bounded `lifeboat run`. A crash is an exit
other than 0, 1, 2 or 130 (or a signal); a hang is no exit within the bound; exit 1 or 2 without a message
counts as silent. The input files are hashed before and after: none may change.

Usage: scripts/fuzz-scenarios.py [--mutants 1000] [--runs 20] [--seed 1]   (after `swift build`)
"""
import argparse, hashlib, os, random, shutil, subprocess, sys, tempfile, time

EXTREMES = ["1e30", "-1", "0", "9223372036854775807", "-9223372036854775808", "18446744073709551616",
            "9223372036854775808", ".inf", "-.inf", ".nan", "1e-300", "1:1:1:1:1:1:1:1:1:1:1:1:1",
            "0x7fffffffffffffff", "0b1111", "0o777", "[]", "{}", "~", '""', "true", "[1, 2, 3]", "{a: b}", "9e18GB",
            "1e30KiB", "-5MB", "2147483648", "4294967296", "!!float 1e400", "!!binary AAAA", '"\\u0000"', "'%s%n%x'",
            "*undefined_alias", "&anchor x", "1_000_000_000_000_000_000"]
GARBAGE = ["- [", "  : :", "\t\tkey: value", "{{{{", "]]]", "key: [unclosed", "---", "...", "? complex",
           "!!python/object:os.system", "<<: *nothing", "%YAML 9.9", "\x01\x02", "x" * 5000, "writers: {count: 1e30}"]


def mutate(text, rng):
    lines = text.split("\n")
    for _ in range(rng.randint(1, 3)):
        if not lines:
            lines = [""]
        i = rng.randrange(len(lines))
        kind = rng.randrange(7)
        if kind <= 2:
            line = lines[i]
            if ":" in line:
                lines[i] = line[: line.index(":") + 1] + " " + rng.choice(EXTREMES)
            elif "-" in line:
                lines[i] = line[: line.index("-") + 1] + " " + rng.choice(EXTREMES)
            else:
                lines[i] = rng.choice(EXTREMES)
        elif kind == 3:
            del lines[i]
        elif kind == 4:
            lines.insert(i, rng.choice(GARBAGE))
        elif kind == 5:
            lines.insert(i, lines[i])
        else:
            joined = "\n".join(lines)
            lines = joined[: rng.randrange(max(1, len(joined)))].split("\n")
    return "\n".join(lines)


def digest(root):
    result = {}
    for folder, _, names in os.walk(root):
        for name in names:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                result[os.path.relpath(path, root)] = hashlib.sha256(f.read()).hexdigest()
    return result


def run(command, bound):
    started = time.monotonic()
    try:
        done = subprocess.run(command, capture_output=True, timeout=bound)
    except subprocess.TimeoutExpired:
        return None, b"", time.monotonic() - started
    return done.returncode, done.stdout + done.stderr, time.monotonic() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mutants", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=20, help="valid mutants also run for real (bounded), the first N")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    lifeboat = os.path.join(repo, ".build", "debug", "lifeboat")
    work = tempfile.mkdtemp(prefix="lifeboat-fuzz-")
    scenarios = os.path.join(work, "Scenarios")
    shutil.copytree(os.path.join(repo, "Scenarios"), scenarios)
    targets = sorted(os.path.relpath(os.path.join(d, n), scenarios) for d, _, ns in os.walk(scenarios)
                     for n in ns if n.endswith(".yaml") and not n.startswith("_"))
    before = digest(scenarios)
    rng = random.Random(args.seed)
    counts = {"valid": 0, "refused": 0, "crash": 0, "hang": 0, "silent": 0}
    problems = []
    runs = {"0": 0, "1": 0, "2": 0, "130": 0, "crash": 0, "hang": 0}
    ran = 0
    for n in range(args.mutants):
        target = rng.choice(targets)
        with open(os.path.join(scenarios, target), encoding="utf-8") as f:
            text = f.read()
        mutant_text = mutate(text, rng)
        mutant = os.path.join(os.path.dirname(os.path.join(scenarios, target)), "fuzz-mutant.yaml")
        with open(mutant, "w", encoding="utf-8") as f:
            f.write(mutant_text)
        code, output, _ = run([lifeboat, "run", "--dry-run", mutant], 30)
        if code is None:
            counts["hang"] += 1; problems.append(("hang (dry run)", target, mutant_text))
        elif code == 0:
            counts["valid"] += 1
        elif code in (1, 2):
            counts["refused"] += 1
            if not output.strip():
                counts["silent"] += 1; problems.append(("silent", target, mutant_text))
        else:
            counts["crash"] += 1; problems.append((f"exit {code} (dry run)", target, mutant_text))
        if code == 0 and ran < args.runs:
            ran += 1
            code, output, seconds = run([lifeboat, "run", mutant, "--reports", os.path.join(work, "reports"),
                                         "--scratch", os.path.join(work, "scratch")], 400)
            key = "hang" if code is None else str(code) if str(code) in runs else "crash"
            runs[key] += 1
            if key in ("hang", "crash"):
                problems.append((f"run {key} {code}", target, mutant_text))
        with open(mutant, "rb") as f:
            if f.read() != mutant_text.encode("utf-8"):
                problems.append(("mutant changed", target, mutant_text))
        os.remove(mutant)
    changed = [name for name, h in digest(scenarios).items() if before.get(name) != h]
    print(f"{args.mutants} mutants (seed {args.seed}): {counts['valid']} valid, {counts['refused']} refused with exit 1/2, "
          f"{counts['crash']} crashes, {counts['hang']} hangs, {counts['silent']} refused without a message")
    print(f"{ran} valid mutants also run: " + ", ".join(f"{k}: {v}" for k, v in runs.items()))
    print(f"input files changed: {len(changed)}")
    for kind, target, text in problems[:10]:
        print(f"--- {kind}: mutant of {target}\n{text[:600]}")
    shutil.rmtree(work, ignore_errors=True)
    return 1 if problems or changed else 0


if __name__ == "__main__":
    sys.exit(main())
