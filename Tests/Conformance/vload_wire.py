"""Drives `vload wire`: one dialect's client codec, outside any socket.

Every test of the suite talks to vload through this module: it sends a script of actions
(what the client sends, frames it receives) and gets back, for each, the frames the codec
wrote or the normalized events it decoded. The binary is $VLOAD_BIN, else the test build.
"""
import base64
import json
import math
import os
import struct
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


#: The generator's lateness bound (`--max-lag-ms`) of the suite's `vload run`s. These runs check that
#: vload and a real server understand each other; the latencies they check have tolerances of
#: 100 ms and more. The default 2 ms bound is for load measurements: on a 2-core host where the
#: Python server and its VAD compete with vload for the cores, even one session crosses it
#: (seen: send_lag_ms p99 2.2-5.6 ms, three attempts in a row), which says nothing about the
#: protocol. The TLS, secrets and merge end-to-end suites use the same bound for the same reason.
RUN_MAX_LAG_MS = "20"


def vload_binary() -> str:
    return os.environ.get("VLOAD_BIN") or str(ROOT / ".build-tests" / "release" / "vload")


def run(dialect, actions, scenario=None, dialect_file=None, timeout=60):
    """Runs the script `actions` (dicts) through `dialect`'s codec; returns one answer per action."""
    command = [vload_binary(), "wire", "--dialect", dialect]
    if scenario is not None:
        command += ["--scenario", str(scenario)]
    if dialect_file is not None:
        command += ["--dialect-file", str(dialect_file)]
    script = "".join(json.dumps(action) + "\n" for action in actions)
    done = subprocess.run(command, input=script, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    if done.returncode != 0:
        raise RuntimeError(f"vload wire exited {done.returncode}: {done.stderr.strip()}")
    answers = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(answers) == len(actions), f"{len(actions)} actions, {len(answers)} answers"
    for action, answer in zip(actions, answers):
        assert "error" not in answer, f"vload wire refused {action}: {answer['error']}"
    return answers


def tone_pcm16(samples: int, rate: int) -> bytes:
    """Real PCM16 little-endian audio: a 440 Hz tone of `samples` samples at `rate` Hz."""
    return b"".join(struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * n / rate))) for n in range(samples))


def receive_text(text):
    return {"receive": {"text": text}}


def receive_binary(data: bytes):
    return {"receive": {"binary": base64.b64encode(data).decode()}}


def frame_text(frame):
    """The text of a frame vload wrote (a text frame, or JSON in a binary one)."""
    if "text" in frame:
        return frame["text"]
    return base64.b64decode(frame["binary"]).decode("utf-8")


def frame_bytes(frame) -> bytes:
    return base64.b64decode(frame["binary"]) if "binary" in frame else frame["text"].encode()


def event_names(answer):
    return [event["event"] for event in answer["events"]]


def write_scenario(directory: Path, name: str, dialect: str, session=None, extra_yaml="") -> Path:
    """A minimal scenario file whose `session:` block is `session` (written as JSON, which is YAML)."""
    path = directory / f"{name}.yaml"
    lines = [f"name: {name}", f"dialect: {dialect}"]
    if session is not None:
        lines.append("session: " + json.dumps(session))
    lines.append(extra_yaml.strip() if extra_yaml.strip() else "steps:\n  - connect")
    path.write_text("\n".join(lines) + "\n")
    return path


# Which message types of which SDK were checked against vload; conftest.py prints the counts.
CHECKED: dict = {}


def checked(sdk: str, message_type: str) -> None:
    """Records that `message_type` of `sdk` went through vload and was checked."""
    CHECKED.setdefault(sdk, set()).add(message_type)
