#!/usr/bin/env python3
"""The heap one more session costs, from two massif profiles of the same run with FEW and MANY
clients (bench/memory.sh): the mean heap (malloc's overhead included) over the middle of each
run, their difference per added client, and the allocation sites that make it up. Standard
library only (and `swift demangle` when it is on the PATH).

    python3 bench/valgrind/heap.py FEW.massif MANY.massif ADDED [FEW-report.json MANY-report.json]
"""

from __future__ import annotations

import json
import re
import subprocess
import sys

DEPTH = 4  # frames of each allocation site that name it


def snapshots(path: str) -> list[tuple[int, int, str]]:
    """(heap bytes, extra bytes, detailed tree or '') of each snapshot."""
    found = []
    for chunk in open(path).read().split("snapshot=")[1:]:
        heap = int(re.search(r"mem_heap_B=(\d+)", chunk).group(1))
        extra = int(re.search(r"mem_heap_extra_B=(\d+)", chunk).group(1))
        found.append((heap, extra, chunk if "heap_tree=detailed" in chunk or "heap_tree=peak" in chunk else ""))
    return found


def middle(items: list) -> list:
    """The middle of a run: after the first half (start-up, connecting), before its last sixth."""
    return items[len(items) // 2: max(len(items) * 5 // 6, len(items) // 2 + 1)]


def sites(tree: str) -> dict[tuple[str, ...], int]:
    """Bytes by allocation site (the first DEPTH frames under the allocator) in one detailed snapshot."""
    found: dict[tuple[str, ...], int] = {}
    stack: list[str] = []
    for line in tree.splitlines():
        match = re.match(r"(\s*)n(\d+): (\d+) (.*)", line)
        if not match:
            continue
        depth, children, size, rest = len(match.group(1)), int(match.group(2)), int(match.group(3)), match.group(4)
        symbol = re.search(r": (\S+) \(", rest)
        stack = stack[:depth] + [symbol.group(1) if symbol else rest[:60]]
        if depth <= DEPTH and (children == 0 or depth == DEPTH):
            key = tuple(stack[1:])
            found[key] = found.get(key, 0) + size
    return found


def demangle(names: list[str]) -> dict[str, str]:
    try:
        out = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(names),
                             capture_output=True, text=True, check=True).stdout.splitlines()
        return dict(zip(names, out))
    except (OSError, subprocess.CalledProcessError):
        return {name: name for name in names}


def main() -> None:
    if len(sys.argv) not in (4, 6):
        sys.exit("usage: heap.py FEW.massif MANY.massif ADDED [FEW-report.json MANY-report.json]")
    few, many, added = snapshots(sys.argv[1]), snapshots(sys.argv[2]), int(sys.argv[3])
    mean = [sum(h + e for h, e, _ in middle(s)) / len(middle(s)) for s in (few, many)]
    print(f"heap (with malloc's overhead), mean over the middle of each run: {mean[0] / 1024:,.0f} KB "
          f"and {mean[1] / 1024:,.0f} KB; per added session: {(mean[1] - mean[0]) / added / 1024:,.1f} KB")
    if len(sys.argv) == 6:
        for path in sys.argv[4:]:
            generator = json.load(open(path))["generator"]
            print(f"  {path}: {generator['frames_sent']:,} frames sent, healthy: {generator.get('healthy')}")
    trees = [[t for _, _, t in middle(s) if t] or [t for _, _, t in s if t] for s in (few, many)]
    a, b = sites(trees[0][len(trees[0]) // 2]), sites(trees[1][len(trees[1]) // 2])
    rows = sorted((((b.get(k, 0) - a.get(k, 0)) / added, k) for k in set(a) | set(b)), reverse=True)
    rows = [row for row in rows if abs(row[0]) >= 256]
    names = demangle(sorted({name for _, key in rows for name in key}))
    print("per added session, by allocation site (one detailed snapshot of each run; bytes):")
    for size, key in rows[:25]:
        print(f"{size:9,.0f}  " + " <- ".join(names[name][:70] for name in key))


if __name__ == "__main__":
    main()
