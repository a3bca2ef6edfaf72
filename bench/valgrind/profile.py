#!/usr/bin/env python3
"""The functions of a bench/instructions.sh profile by their own instructions per frame sent,
demangled (with `swift demangle` when it is on the PATH). Standard library only.

    python3 bench/valgrind/profile.py DIALECT [TOP]
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent.parent / ".build-bench" / "instructions"


def self_costs(annotated: str) -> dict[str, int]:
    """Function → its own instructions, from `callgrind_annotate --inclusive=no` text."""
    costs: dict[str, int] = {}
    for line in annotated.splitlines():
        parts = line.split(None, 1)
        if len(parts) != 2 or not parts[0].replace(",", "").isdigit():
            continue
        count, rest = int(parts[0].replace(",", "")), parts[1]
        if rest.startswith("("):
            rest = rest.split(")", 1)[1].strip()
        if rest.startswith("PROGRAM TOTALS"):
            continue
        name = rest.split(" [", 1)[0]
        if ":" in name and name.startswith(("???:", "./", "/")):
            name = name.split(":", 1)[1]
        costs[name] = costs.get(name, 0) + count
    return costs


def demangle(names: list[str]) -> list[str]:
    try:
        out = subprocess.run(["swift", "demangle", "--simplified", "--compact"], input="\n".join(names),
                             capture_output=True, text=True, check=True).stdout.splitlines()
        return out if len(out) == len(names) else names
    except (OSError, subprocess.CalledProcessError):
        return names


def main(argv: list[str]) -> int:
    if not argv:
        print(__doc__, file=sys.stderr)
        return 2
    dialect, top = argv[0], int(argv[1]) if len(argv) > 1 else 40
    frames = json.loads((OUT / dialect / "report.json").read_text())["generator"]["frames_sent"]
    annotated = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", str(OUT / f"{dialect}.callgrind")],
                               capture_output=True, text=True, check=True).stdout
    rows = sorted(self_costs(annotated).items(), key=lambda row: -row[1])
    total = sum(cost for _, cost in rows)
    print(f"{dialect}: {total / frames:,.0f} instructions per frame ({frames:,} frames)")
    for (name, cost), shown in zip(rows[:top], demangle([name for name, _ in rows[:top]])):
        print(f"{cost / frames:9,.0f}  {100 * cost / total:5.1f} %  {shown[:150]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
