"""Prints, at the end of a run, how many message types of each SDK were checked against vload."""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import vload_wire  # noqa: E402


def pytest_terminal_summary(terminalreporter):
    if not vload_wire.CHECKED:
        return
    terminalreporter.section("message types checked against vload, per SDK")
    for sdk in sorted(vload_wire.CHECKED):
        terminalreporter.write_line(f"{sdk}: {len(vload_wire.CHECKED[sdk])} message types")
