#!/usr/bin/env python3
"""The async functions of a binary by the size of their frame (their "async context"), largest
first. A suspended async function keeps its frame in its task's allocator until it returns, so
a virtual client waiting in a scenario step holds the frames of every async function on its way
there, for as long as it waits. Standard library only (and `nm`, `readelf`, `swift demangle`).

    python3 bench/valgrind/async_frames.py BINARY [PATTERN] [TOP]

Each async function has an "async function pointer" (a symbol ending in `Tu`): a 32-bit relative
address, then the 32-bit size of the context its caller allocates for it.
"""

from __future__ import annotations

import re
import struct
import subprocess
import sys


def sections(binary: str) -> list[tuple[int, int, int]]:
    """(address, file offset, size) of each section with contents."""
    out = subprocess.run(["readelf", "-SW", binary], capture_output=True, text=True, check=True).stdout
    found = []
    for line in out.splitlines():
        match = re.match(r"\s*\[\s*\d+\]\s+(\S+)\s+(\S+)\s+([0-9a-f]+)\s+([0-9a-f]+)\s+([0-9a-f]+)", line)
        if match and match.group(2) != "NOBITS":
            found.append((int(match.group(3), 16), int(match.group(4), 16), int(match.group(5), 16)))
    return found


def frame_sizes(binary: str) -> list[tuple[int, str]]:
    """(context size in bytes, mangled name) of every async function pointer in `binary`."""
    data = open(binary, "rb").read()
    spans = sections(binary)
    sizes = []
    for line in subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        parts = line.split()
        if len(parts) != 3 or not parts[2].endswith("Tu"):
            continue
        address = int(parts[0], 16)
        for start, offset, size in spans:
            if start <= address < start + size:
                sizes.append((struct.unpack_from("<I", data, offset + address - start + 4)[0], parts[2]))
                break
    return sizes


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit("usage: async_frames.py BINARY [PATTERN] [TOP]")
    pattern = re.compile(sys.argv[2] if len(sys.argv) > 2 else "VirtualClient|Swarm")
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    sizes = frame_sizes(sys.argv[1])
    names = subprocess.run(["swift", "demangle", "--simplified"], input="\n".join(n for _, n in sizes),
                           capture_output=True, text=True, check=True).stdout.splitlines()
    rows = sorted(((size, name.removeprefix("async function pointer to "))
                   for (size, _), name in zip(sizes, names) if pattern.search(name)), reverse=True)
    for size, name in rows[:top]:
        print(f"{size:7,}  {name[:130]}")


if __name__ == "__main__":
    main()
