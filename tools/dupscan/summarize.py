#!/usr/bin/env python3
"""Prints a jscpd JSON report (scan.sh makes it) as totals and a breakdown by cluster.

    python3 summarize.py [--top N] RAW_REPORT [--maintained REPORT]

RAW_REPORT covers the whole tree; the optional second report leaves out the generated
stubs (lessons/*/src), and gives the "maintained" columns (without it they are the raw
ones). Standard library only.

Each clone (one fragment found in two places) is counted in the first cluster below whose
rule it meets, so the clusters' duplicated lines add up to the total. A cluster's "lines"
are those of the files its patterns name (the clusters overlap there: lesson 06's sources
are in the first two).
"""
import argparse
import json
from fnmatch import fnmatch

STUBS = ("lessons/*/src/*",)
SOLUTIONS = ("solutions/*/src/*",)
LESSON_06 = ("lessons/06-*/src/*", "solutions/06-*/src/*")
CHARTS = ("lessons/*/examples/*", "solutions/*/examples/*", "figures/*")
SUITES = ("solutions/*/suite/*", "harness/*", "lessons/*/tests/*", "solutions/*/tests/*")
TOOLING = ("checker/src/*", "xtask/src/*", "manifest/src/*")


def within(path, patterns):
    return any(fnmatch(path, p) for p in patterns)


def stub_and_solution(a, b):
    return (within(a, STUBS) and within(b, SOLUTIONS)) or (within(a, SOLUTIONS) and within(b, STUBS))


def inside_one_lesson_06_tree(a, b):
    """Both copies in lesson 06's stub, or both in its solution: the model repeating itself."""
    return any(fnmatch(a, p) and fnmatch(b, p) for p in LESSON_06)


# (name, the files it covers, the rule a clone between files a and b must meet)
CLUSTERS = [
    ("lessons/*/src vs solutions/*/src", STUBS + SOLUTIONS, stub_and_solution),
    ("lesson 06 src, within itself", LESSON_06, inside_one_lesson_06_tree),
    ("charts: examples, figures/", CHARTS, lambda a, b: within(a, CHARTS) or within(b, CHARTS)),
    ("suites, harness, tests", SUITES, lambda a, b: within(a, SUITES) or within(b, SUITES)),
    ("checker/src, xtask/src, manifest", TOOLING, lambda a, b: within(a, TOOLING) and within(b, TOOLING)),
    ("everything else", None, lambda a, b: True),
]


def load(path):
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    lines = {name: stat["lines"]
             for fmt in report["statistics"]["formats"].values()
             for name, stat in fmt["sources"].items()}
    clones = []
    for d in report["duplicates"]:
        a, b = d["firstFile"], d["secondFile"]
        # jscpd's own count, so that the clusters add up to its total.
        size = a["end"] - a["start"]
        cluster = next(name for name, _, rule in CLUSTERS if rule(a["name"], b["name"]))
        clones.append((size, cluster, f"{a['name']}:{a['start']}-{a['end']}",
                       f"{b['name']}:{b['start']}-{b['end']}"))
    clones.sort(key=lambda c: (-c[0], c[2]))
    return report["statistics"]["total"], lines, clones


def cluster_lines(lines):
    """Lines of the files each cluster covers; "everything else" covers the rest."""
    covered = {name: sum(n for f, n in lines.items() if within(f, patterns))
               for name, patterns, _ in CLUSTERS if patterns}
    rest = sum(n for f, n in lines.items()
               if not any(patterns and within(f, patterns) for _, patterns, _ in CLUSTERS))
    covered[CLUSTERS[-1][0]] = rest
    return covered


def per_cluster(clones):
    dup = {name: [0, 0] for name, _, _ in CLUSTERS}
    for size, cluster, _, _ in clones:
        dup[cluster][0] += size
        dup[cluster][1] += 1
    return dup


def pct(part, whole):
    return f"{100 * part / whole:.1f}%" if whole else "-"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("raw")
    parser.add_argument("--maintained")
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()

    raw_total, lines, raw_clones = load(args.raw)
    if args.maintained:
        kept_total, _, kept_clones = load(args.maintained)
        print("lessons/*/src are generated from solutions/*/src (cargo xtask stubs): "
              "'maintained' leaves them out")
    else:
        kept_total, kept_clones = raw_total, raw_clones
        print("lessons/*/src are written by hand here: 'maintained' is the raw count")
    for label, t in (("raw", raw_total), ("maintained", kept_total)):
        print(f"{label:>10}: {t['sources']} files, {t['lines']} lines, {t['duplicatedLines']} "
              f"duplicated ({pct(t['duplicatedLines'], t['lines'])}), {t['clones']} clones")

    covered = cluster_lines(lines)
    raw, kept = per_cluster(raw_clones), per_cluster(kept_clones)
    print(f"\n{'cluster':<34} {'lines':>6}  {'raw dup':>7} {'clones':>6}  "
          f"{'maintained dup':>14} {'clones':>6}")
    for name, _, _ in CLUSTERS:
        print(f"{name:<34} {covered[name]:>6}  {raw[name][0]:>7} {raw[name][1]:>6}  "
              f"{kept[name][0]:>14} {kept[name][1]:>6}")

    if args.top > 0:
        print(f"\nthe {min(args.top, len(kept_clones))} largest maintained clones "
              f"(lines, cluster, first copy, second copy):")
        for size, cluster, a, b in kept_clones[:args.top]:
            print(f"{size:>5}  {cluster:<34} {a}  {b}")


if __name__ == "__main__":
    main()
