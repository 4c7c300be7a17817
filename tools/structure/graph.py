#!/usr/bin/env python3
"""The course's structure in numbers: its import graphs and its largest functions.

    python3 tools/structure/graph.py [--top N]

Prints, for the workspace (crates, from each Cargo.toml's path dependencies) and for the
checker (modules of checker/src, from each file's `crate::` paths):

- rooms (nodes), arrows (edges) and floors (the longest chain of arrows, plus one);
- cycles (strongly connected groups of more than one room);
- back-up arrows: arrows that point to a room on the same floor or a higher one once
  cycles are collapsed, i.e. arrows inside a cycle, and arrows into `main` (the root,
  which only the binary's own modules should be below).

Then the N largest functions of the repository's Rust (brace matching on the committed
tree, outside `lessons/`, which is generated, and outside suites, tests, examples and the
scaffold's template), with their lines and file, and how many are over 50, 100 and 200
lines.

It reads the working tree; it changes nothing.
"""

import argparse
import re
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def tracked(pattern):
    out = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", pattern],
        check=True, capture_output=True, text=True,
    ).stdout
    return [ROOT / line for line in out.splitlines() if line]


def crate_graph():
    """Workspace crates and their path dependencies (normal, dev and build)."""
    names, edges = {}, defaultdict(set)
    # The scaffold's template (xtask/template) holds manifests with placeholders.
    manifests = [
        m for m in tracked("*Cargo.toml")
        if m.parent != ROOT and "template" not in m.relative_to(ROOT).parts
    ]
    for manifest in manifests:
        text = manifest.read_text()
        match = re.search(r'^name = "([^"]+)"', text, re.M)
        if match:
            names[manifest.parent.resolve()] = match.group(1)
    workspace = (ROOT / "Cargo.toml").read_text()
    aliases = {}
    for line in workspace.splitlines():
        match = re.match(r'^([\w-]+) = \{ path = "([^"]+)"', line)
        if match:
            aliases[match.group(1)] = (ROOT / match.group(2)).resolve()
    for manifest in manifests:
        here = manifest.parent.resolve()
        if here not in names:
            continue
        text = manifest.read_text()
        for line in text.splitlines():
            path = re.search(r'path = "([^"]+)"', line)
            if path:
                target = (here / path.group(1)).resolve()
                if target in names:
                    edges[names[here]].add(names[target])
                continue
            workspace_dep = re.match(r'^([\w-]+)(?:\.workspace = true| = \{ workspace)', line)
            if workspace_dep and workspace_dep.group(1) in aliases:
                target = aliases[workspace_dep.group(1)]
                if target in names:
                    edges[names[here]].add(names[target])
    return set(names.values()), edges


def module_graph(src):
    """The modules of one crate (one per file; `a/b.rs` counts as its top-level module
    `a`), and which ones each refers to with `crate::`, unit tests aside."""
    files = sorted(p for p in tracked(str(src.relative_to(ROOT)) + "/*.rs"))
    modules = {}
    for file in files:
        relative = file.relative_to(src).with_suffix("")
        top = relative.parts[0]
        modules[file] = top
    nodes = set(modules.values())
    edges = defaultdict(set)
    for file, module in modules.items():
        # A file's unit tests (at its end, by the course's convention) are not its design.
        text = re.split(r"\n#\[cfg\(test\)\]\nmod tests", file.read_text())[0]
        # Nor are its comments (a doc link to a module is not a use of it).
        text = "\n".join(line.split("//")[0] for line in text.splitlines())
        # `use crate::{a, b::c}` and `crate::a::…` in code.
        for group in re.findall(r"crate::\{([^}]*)\}", text):
            for name in re.findall(r"(?:^|,)\s*(\w+)", group):
                if name in nodes and name != module:
                    edges[module].add(name)
        for name in re.findall(r"crate::(\w+)", text):
            if name in nodes and name != module:
                edges[module].add(name)
    return nodes, edges


def strongly_connected(nodes, edges):
    index, low, on_stack, stack, groups = {}, {}, set(), [], []
    counter = [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for other in edges.get(node, ()):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = set()
            while True:
                other = stack.pop()
                on_stack.discard(other)
                group.add(other)
                if other == node:
                    break
            groups.append(group)

    sys.setrecursionlimit(10000)
    for node in sorted(nodes):
        if node not in index:
            visit(node)
    return groups


def describe(title, nodes, edges, root=None):
    groups = strongly_connected(nodes, edges)
    group_of = {node: i for i, group in enumerate(groups) for node in group}
    # Floors: the longest chain below each collapsed group (depth of what it imports).
    floor = {}

    def height(g):
        if g in floor:
            return floor[g]
        floor[g] = 0
        below = {group_of[o] for n in groups[g] for o in edges.get(n, ()) if group_of[o] != g}
        floor[g] = 1 + max((height(b) for b in below), default=0)
        return floor[g]

    for g in range(len(groups)):
        height(g)
    arrows = sum(len(targets) for targets in edges.values())
    cycles = [sorted(group) for group in groups if len(group) > 1]
    back_up = []
    for source, targets in edges.items():
        for target in targets:
            if group_of[source] == group_of[target] or target == root:
                back_up.append(f"{source} -> {target}")
    print(f"== {title}")
    print(
        f"{len(nodes)} rooms, {max(floor.values(), default=0)} floors, {arrows} arrows, "
        f"{len(back_up)} back-up arrows, {len(cycles)} cycles"
    )
    for cycle in cycles:
        print("  cycle:", " <-> ".join(cycle))
    for arrow in sorted(back_up):
        print("  back-up:", arrow)


def largest_functions(top):
    found = []
    start = re.compile(r"^\s*(?:pub(?:\([^)]*\))?\s+)?(?:const\s+|async\s+|unsafe\s+)*fn\s+(\w+)")
    # As the design review counted them: outside the generated lessons/, the suites, the
    # tests, the examples and the scaffold's template.
    skipped = {"tests", "suite", "examples", "template"}
    for file in tracked("*.rs"):
        relative = file.relative_to(ROOT)
        if relative.parts[0] == "lessons" or skipped & set(relative.parts):
            continue
        lines = file.read_text().splitlines()
        i = 0
        while i < len(lines):
            match = start.match(lines[i])
            if not match:
                i += 1
                continue
            depth, opened, j = 0, False, i
            while j < len(lines):
                code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', lines[j].split("//")[0])
                depth += code.count("{") - code.count("}")
                opened = opened or "{" in code
                if opened and depth <= 0:
                    break
                if not opened and code.rstrip().endswith(";"):
                    break
                j += 1
            if opened:
                found.append((j - i + 1, match.group(1), f"{relative}:{i + 1}"))
            i += 1
    found.sort(reverse=True)
    over = lambda n: sum(1 for length, _, _ in found if length > n)
    print(
        f"== the {top} largest functions (outside lessons/, suites, tests and examples): "
        f"{over(50)} over 50 lines, {over(100)} over 100, {over(200)} over 200"
    )
    for length, name, where in found[:top]:
        print(f"{length:5}  {name:32} {where}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    describe("the workspace's crates", *crate_graph())
    describe("checker/src's modules", *module_graph(ROOT / "checker/src"), root="main")
    largest_functions(args.top)


if __name__ == "__main__":
    main()
