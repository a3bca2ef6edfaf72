#!/usr/bin/env python3
"""vload benchmark harness (issue 8); standard library only.

For each dialect it starts `vload serve` in its own process, then steps the session count of a
load against it, one load at a time:

1. vload (`vload run` with bench/scenarios/bench-DIALECT.yaml): a 1-session baseline, then each
   of --steps, stopping after the first step the generator declares invalid whose send-lag p99
   is also above --max-send-lag-ms;
2. the peer (bench/peer.py, a hand-written Python asyncio `websockets` driver): a 1-session
   baseline, then each of --peer-steps, stopping after the first step whose send-lag p99 is
   above --max-send-lag-ms.

Per step it records sessions, send-lag p50/p99, the tester's and the simulator's CPU in the
steady window (user+sys seconds per second from /proc/PID/stat, sampled at the end of the
warm-up and 0.5 s before the end of the load), RSS per session (the tester's VmRSS at the end of
the steady window minus the 1-session baseline's, over N), the first-audio error (p50/p99 of
first_audio_from_end_ms minus the injected reply latency, signed), how late the simulator
started its replies (p50/p99/max over the whole step, from the line `vload serve` prints when it
stops: each step has a simulator of its own) and the verdict. Before each
step it measures the idle machine for 2 s (how late 1 ms sleeps wake: p99, max, count over 5 ms),
so figures taken while the host was contended can be told apart. It writes
bench/results/<stamp>-<dialect>.json (every figure) and bench/results/<stamp>.md (the table),
and prints the table.

    python3 bench/run.py --steps 50,100 --duration 20 --warmup 5 --ramp-up 5
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from peer import percentile  # nearest rank; peer.py imports websockets only when it runs

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
CLIP = ROOT / "scenarios" / "audio" / "hello.wav"
DIALECTS = ("openai-realtime", "deepgram-agent", "pipecat-webrtc", "openai-realtime-webrtc")
#: Dialects carried over WebRTC: `vload serve` answers their SDP offers over HTTP, and
#: bench/peer.py (a WebSocket peer) does not speak them.
WEBRTC_DIALECTS = ("pipecat-webrtc", "openai-realtime-webrtc")
BASELINE_SESSIONS = 1
SAMPLE_BEFORE_END_S = 0.5

# ---------------------------------------------------------------------------------------------
# Pure parts (bench/test_run.py)


def parse_proc_stat(text: str) -> int:
    """utime + stime, in clock ticks, from the text of /proc/PID/stat (fields 14 and 15; the
    command name in parentheses may hold spaces and parentheses, so fields count from the last ')')."""
    fields = text[text.rindex(")") + 2:].split()
    # fields[0] is field 3 (state): field n is fields[n - 3].
    return int(fields[14 - 3]) + int(fields[15 - 3])


def parse_vm_rss_kb(text: str) -> int | None:
    """VmRSS in kB from the text of /proc/PID/status; None when absent (a zombie)."""
    match = re.search(r"^VmRSS:\s+(\d+)\s+kB", text, re.MULTILINE)
    return int(match.group(1)) if match else None


def cpu_cores(ticks_start: int, ticks_end: int, seconds: float, clock_ticks_per_s: int) -> float | None:
    """CPU used between two samples, in cores (CPU seconds per second)."""
    if seconds <= 0:
        return None
    return (ticks_end - ticks_start) / clock_ticks_per_s / seconds


def rss_per_session_kb(rss_kb: int | None, baseline_rss_kb: int | None, sessions: int) -> float | None:
    """(VmRSS at N sessions − VmRSS of the 1-session baseline) / N; None without both samples or for the baseline itself."""
    if rss_kb is None or baseline_rss_kb is None or sessions <= BASELINE_SESSIONS:
        return None
    return (rss_kb - baseline_rss_kb) / sessions


def signed_error(value_ms: float | None, injected_ms: float) -> float | None:
    return None if value_ms is None else value_ms - injected_ms


def parse_speech_end_ms(validate_output: str) -> float | None:
    """The speech end `vload validate` reports for the clip ("speech 0.32–3.59 s"), in ms."""
    match = re.search(r"speech\s+([\d.]+)\s*[–-]\s*([\d.]+)\s*s", validate_output)
    return float(match.group(2)) * 1000.0 if match else None


def parse_reply_timing(serve_output: str) -> dict:
    """How late `vload serve` started its replies, from the line it prints when it stops
    ("reply timing: N replies started late by p50 A ms, p99 B ms, max C ms …"); Nones when the
    build prints no such line."""
    match = re.search(r"reply timing: (\d+) replies started late by p50 ([\d.]+) ms, p99 ([\d.]+) ms, "
                      r"max ([\d.]+) ms", serve_output)
    if not match:
        return {"simulator_replies": None, "simulator_late_p50_ms": None, "simulator_late_p99_ms": None,
                "simulator_late_max_ms": None}
    return {"simulator_replies": int(match.group(1)), "simulator_late_p50_ms": float(match.group(2)),
            "simulator_late_p99_ms": float(match.group(3)), "simulator_late_max_ms": float(match.group(4))}


def vload_verdict(exit_code: int | None, report: dict | None) -> tuple[str, bool]:
    """The generator's verdict on a vload step and whether the step counts as invalid."""
    generator = (report or {}).get("generator") or {}
    problems = generator.get("problems") or []
    if exit_code == 3:
        return ("invalid (exit 3): " + "; ".join(problems)) if problems else "invalid (exit 3)", True
    if report is None:
        return f"failed (exit {exit_code}, no report)", True
    if generator.get("healthy") is False:
        return "unhealthy: " + "; ".join(problems), True
    if exit_code not in (0, 1):
        return f"exit {exit_code}", False
    return "healthy", False


def peer_verdict(exit_code: int | None, result: dict | None, max_lag_ms: float) -> tuple[str, bool]:
    """The peer's verdict (it has no self-check: the send-lag bound is the verdict) and whether it failed."""
    if result is None:
        return f"failed (exit {exit_code}, no result)", True
    p99 = (result.get("send_lag_ms") or {}).get("p99")
    if p99 is None:
        return "no send-lag samples", True
    if p99 > max_lag_ms:
        return f"send-lag p99 > {max_lag_ms:g} ms", True
    return "ok", False


def with_errors(verdict: str, errors: int | None) -> str:
    return verdict if not errors else f"{verdict}, {errors} errors"


def idle_lateness(lates_ms: list[float]) -> dict:
    """How late the idle machine woke 1 ms sleeps: p99, max and the count over 5 ms."""
    return {"idle_late_p99_ms": percentile(sorted(lates_ms), 99),
            "idle_late_max_ms": max(lates_ms) if lates_ms else None,
            "idle_late_over_5ms": sum(1 for late in lates_ms if late > 5.0)}


def _cell(value, digits: int, signed: bool = False) -> str:
    if value is None:
        return "—"
    return f"{value:+.{digits}f}" if signed else f"{value:.{digits}f}"


TABLE_HEADER = (
    "| tool | dialect | sessions | send-lag p50 ms | send-lag p99 ms | receive-lag p99 ms | tester CPU (cores) | simulator CPU (cores) "
    "| RSS/session KB | first-audio error p50 ms | first-audio error p99 ms | simulator replies late p99 ms "
    "| idle machine late p99 ms | verdict |"
)


def markdown_table(header: str, rows_of_cells: list[list[str]]) -> str:
    """`header` ("| a | b |"), its rule, and a line per row of cells ("|" in a cell becomes "/")."""
    lines = [header, "|" + "---|" * (header.count(" | ") + 1)]
    lines += ["| " + " | ".join(cell.replace("|", "/") for cell in cells) + " |" for cells in rows_of_cells]
    return "\n".join(lines)


def format_table(rows: list[dict]) -> str:
    """The rows as a Markdown table (— for a figure that is missing)."""
    return markdown_table(TABLE_HEADER, [[
            row["tool"], row["dialect"], str(row["sessions"]),
            _cell(row.get("send_lag_p50_ms"), 2), _cell(row.get("send_lag_p99_ms"), 2),
            _cell(row.get("receive_lag_p99_ms"), 2),
            _cell(row.get("tester_cpu_cores"), 2), _cell(row.get("simulator_cpu_cores"), 2),
            _cell(row.get("rss_per_session_kb"), 1),
            _cell(row.get("first_audio_error_p50_ms"), 1, signed=True),
            _cell(row.get("first_audio_error_p99_ms"), 1, signed=True),
            _cell(row.get("simulator_late_p99_ms"), 2),
            _cell(row.get("idle_late_p99_ms"), 2),
            row.get("verdict", ""),
        ] for row in rows])


def highest_passing(rows: list[dict], passed) -> tuple[int | None, bool]:
    """The most sessions of a step in `rows` for which `passed(row)` holds, and whether it is only a
    lower bound (no larger step was run, or every larger one passed too); None when none passed."""
    passing = [row["sessions"] for row in rows if passed(row)]
    if not passing:
        return None, False
    best = max(passing)
    return best, not any(row["sessions"] > best for row in rows)


def bounded_ratio(numerator: float | None, numerator_open: bool, denominator: float | None,
                  denominator_open: bool, digits: int = 1, unit: str = "×") -> str:
    """numerator ÷ denominator where either may be only a lower bound: "≥ r" over an exact
    denominator, "≤ r" from an exact numerator over a lower bound, "n/a" when both are lower
    bounds (no bound at all) or a figure is missing."""
    if numerator is None or not denominator or (numerator_open and denominator_open):
        return "n/a"
    value = f"{numerator / denominator:.{digits}f}{unit}"
    return f"≥ {value}" if numerator_open else (f"≤ {value}" if denominator_open else value)


def largest_within(rows: list[dict], tool: str, dialect: str, max_lag_ms: float) -> tuple[int | None, bool]:
    """The largest N of `tool` on `dialect` whose send-lag p99 is within the bound, and whether
    it is only a lower bound (no larger step was run, or every larger one was within it too)."""
    mine = [row for row in rows if row["tool"] == tool and row["dialect"] == dialect]
    return highest_passing(mine, lambda row: row.get("send_lag_p99_ms") is not None
                           and row["send_lag_p99_ms"] <= max_lag_ms)


def summary_line(rows: list[dict], dialect: str, max_lag_ms: float) -> str:
    """`dialect: largest N with send-lag p99 ≤ B ms: vload A, peer B; vload/peer = R×` (≥ where a tool never failed)."""
    vload_n, vload_open = largest_within(rows, "vload", dialect, max_lag_ms)
    peer_n, peer_open = largest_within(rows, "peer", dialect, max_lag_ms)

    def shown(n: int | None, open_ended: bool) -> str:
        return "none" if n is None else (f"≥ {n}" if open_ended else str(n))

    ratio = bounded_ratio(vload_n, vload_open, peer_n, peer_open)
    return (f"{dialect}: largest N with send-lag p99 ≤ {max_lag_ms:g} ms: vload {shown(vload_n, vload_open)}, "
            f"peer {shown(peer_n, peer_open)}; vload/peer = {ratio}")


def should_stop_vload(rows: list[dict], max_lag_ms: float) -> bool:
    """Stop after the first step that is both invalid and beyond the send-lag bound of the
    comparison (--max-send-lag-ms): the table then shows where vload's own check trips
    (--vload-max-lag-ms, or vload's default bound) and where the load passes the comparison bound."""
    last = rows[-1]
    p99 = last.get("send_lag_p99_ms")
    return last["invalid"] and (p99 is None or p99 > max_lag_ms)


# ---------------------------------------------------------------------------------------------
# Processes


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def sample(pid: int) -> dict | None:
    """CPU ticks and VmRSS of a live process, with the time; None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat_file:
            ticks = parse_proc_stat(stat_file.read())
        with open(f"/proc/{pid}/status") as status_file:
            rss = parse_vm_rss_kb(status_file.read())
    except (OSError, ValueError, IndexError):
        return None
    return {"t": time.monotonic(), "ticks": ticks, "rss_kb": rss}


def cores_between(first: dict | None, second: dict | None) -> float | None:
    if first is None or second is None:
        return None
    return cpu_cores(first["ticks"], second["ticks"], second["t"] - first["t"], CLOCK_TICKS)


def stop_process(process: subprocess.Popen, first_signal: int = signal.SIGINT, wait_s: float = 10.0) -> None:
    """Ends a child this harness started: `first_signal`, then SIGKILL after `wait_s`."""
    if process.poll() is not None:
        return
    process.send_signal(first_signal)
    try:
        process.wait(timeout=wait_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def supports_option(vload: str, subcommand: str, option: str) -> bool:
    """Whether this vload's `subcommand` has `option` (older builds, for before/after runs, lack some)."""
    help_text = subprocess.run([vload, subcommand, "--help"], capture_output=True, text=True).stdout
    return option in help_text


class Simulator:
    """`vload serve` in its own process on a free port of 127.0.0.1."""

    def __init__(self, args: argparse.Namespace, dialect: str, log_dir: Path) -> None:
        self.args, self.dialect, self.log_dir = args, dialect, log_dir
        self.process: subprocess.Popen | None = None
        self.port = 0
        self.starts = 0

    @property
    def url(self) -> str:
        scheme = "http" if self.dialect in WEBRTC_DIALECTS else "ws"
        return f"{scheme}://127.0.0.1:{self.port}/"

    def start(self) -> None:
        self.port = free_port()
        self.starts += 1
        command = [self.args.vload, "serve", "--dialect", self.dialect, "--port", str(self.port),
                   "--sim-reply-latency", str(self.args.reply_latency_ms)]
        if self.args.sim_threads_supported:
            command += ["--threads", str(self.args.sim_threads)]
        command = pinned(command, self.args.pin_simulator)
        self.log_path = self.log_dir / f"simulator-{self.dialect}-{self.starts}.log"
        log = open(self.log_path, "w")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        log.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"bench: the simulator exited at once ({self.process.returncode}): {' '.join(command)}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                return
            except OSError:
                time.sleep(0.1)
        stop_process(self.process)
        raise SystemExit(f"bench: the simulator did not listen on port {self.port} within 10 s")

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def stop(self) -> None:
        if self.process is not None:
            stop_process(self.process)

    def reply_timing(self) -> dict:
        """How late this simulator started its replies, from what it printed when it stopped."""
        try:
            return parse_reply_timing(self.log_path.read_text(errors="replace"))
        except (AttributeError, OSError):
            return parse_reply_timing("")


def wait_for_text(path: Path, text: str, timeout_s: float, process: subprocess.Popen) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            if text in path.read_text(errors="replace"):
                return True
        except OSError:
            pass
        if process.poll() is not None:
            return False
        time.sleep(0.02)
    return False


def measure_idle_lateness(seconds: float = 2.0, period_s: float = 0.001) -> dict:
    """The machine's own stalls, measured just before a step while no load runs: sleeps to
    absolute deadlines 1 ms apart, as a paced sender does, and how late each wake-up was. A
    contended host (other VMs on it) shows here as late wake-ups that no tester could avoid,
    so a step's figures are read against it."""
    lates_ms: list[float] = []
    deadline = time.monotonic()
    end = deadline + seconds
    while deadline + period_s <= end:
        deadline += period_s
        sleep_until(deadline)
        lates_ms.append(max(0.0, time.monotonic() - deadline) * 1000)
    return idle_lateness(lates_ms)


def pinned(command: list[str], cpus: str | None) -> list[str]:
    """`command` under `taskset -c CPUS` (when given): the tester and the simulator each on a core of its own."""
    return ["taskset", "-c", cpus] + command if cpus else command


def sleep_until(moment: float) -> None:
    delay = moment - time.monotonic()
    if delay > 0:
        time.sleep(delay)


def run_load(command: list[str], step_dir: Path, simulator: Simulator, args: argparse.Namespace,
             start_marker: str | None, limit_s: float) -> dict:
    """Runs one load to its end, sampling the tester and the simulator over the steady window.
    The load's clock starts at launch, or when `start_marker` shows on its stderr."""
    return run_loads([command], [step_dir], simulator, args, start_marker, limit_s)[0]


def run_loads(commands: list[list[str]], step_dirs: list[Path], simulator: Simulator, args: argparse.Namespace,
              start_marker: str | None, limit_s: float) -> list[dict]:
    """Starts the testers together (one per command, each with its own folder for stdout.txt and
    stderr.txt) and runs them to their end, sampling each and the simulator over the steady window
    (args.warmup to 0.5 s before args.duration). The clock starts at launch, or when every tester
    has shown `start_marker` on its stderr; a tester still running `limit_s` later is stopped."""
    processes: list[subprocess.Popen] = []
    paths: list[tuple[Path, Path]] = []
    try:
        for command, step_dir in zip(commands, step_dirs):
            step_dir.mkdir(parents=True, exist_ok=True)
            paths.append((step_dir / "stdout.txt", step_dir / "stderr.txt"))
            with open(paths[-1][0], "w") as stdout, open(paths[-1][1], "w") as stderr:
                processes.append(subprocess.Popen(command, stdout=stdout, stderr=stderr, cwd=ROOT))
        t0 = time.monotonic()
        if start_marker is not None and all(wait_for_text(stderr_path, start_marker, 30, process)
                                            for process, (_, stderr_path) in zip(processes, paths)):
            t0 = time.monotonic()
        sim_pid = simulator.process.pid if simulator.process else -1
        sleep_until(t0 + args.warmup)
        testers_a, sim_a = [sample(process.pid) for process in processes], sample(sim_pid)
        sleep_until(t0 + args.duration - SAMPLE_BEFORE_END_S)
        testers_b, sim_b = [sample(process.pid) for process in processes], sample(sim_pid)
        deadline = time.monotonic() + limit_s
        exit_codes: list[int | None] = []
        for process in processes:
            try:
                exit_codes.append(process.wait(timeout=max(0.0, deadline - time.monotonic())))
            except subprocess.TimeoutExpired:
                stop_process(process, signal.SIGTERM, 5)
                exit_codes.append(None)
    except BaseException:
        for process in processes:
            stop_process(process, signal.SIGTERM, 5)
        raise
    simulator_cores = cores_between(sim_a, sim_b)
    return [{
        "command": command, "exit_code": exit_code,
        "tester_cpu_cores": cores_between(tester_a, tester_b),
        "simulator_cpu_cores": simulator_cores,
        "tester_rss_kb": tester_b["rss_kb"] if tester_b else None,
        "stdout": stdout_path.read_text(errors="replace"),
        "stderr_tail": stderr_path.read_text(errors="replace")[-2000:],
    } for command, exit_code, tester_a, tester_b, (stdout_path, stderr_path)
        in zip(commands, exit_codes, testers_a, testers_b, paths)]


# ---------------------------------------------------------------------------------------------
# Steps


def step_row(tool: str, dialect: str, sessions: int, lag: dict, first_audio: dict, load: dict, args) -> dict:
    """The figures every step has, whichever tool made the load."""
    return {
        "tool": tool, "dialect": dialect, "sessions": sessions,
        "send_lag_p50_ms": lag.get("p50"), "send_lag_p99_ms": lag.get("p99"), "send_lag_count": lag.get("count"),
        "tester_cpu_cores": load["tester_cpu_cores"], "simulator_cpu_cores": load["simulator_cpu_cores"],
        "tester_rss_kb": load["tester_rss_kb"],
        "first_audio_count": first_audio.get("count"),
        "first_audio_p50_ms": first_audio.get("p50"), "first_audio_p99_ms": first_audio.get("p99"),
        "first_audio_error_p50_ms": signed_error(first_audio.get("p50"), args.reply_latency_ms),
        "first_audio_error_p99_ms": signed_error(first_audio.get("p99"), args.reply_latency_ms),
    }


def vload_command(args, dialect: str, sessions: int, url: str, report_dir: Path, threads: int | None,
                  segment: str | None = None) -> list[str]:
    """`vload run` of bench/scenarios/bench-DIALECT.yaml: `sessions` clients (the whole load when
    `segment` is "i/n"), ramped up over args.ramp_up (at once for the 1-session baseline), for
    args.duration with args.warmup left out, its reports in `report_dir`."""
    command = [args.vload, "run", "--scenario", str(BENCH / "scenarios" / f"bench-{dialect}.yaml"),
               "--url", url, "--dialect", dialect, "--clients", str(sessions),
               "--ramp-up", f"{args.ramp_up if sessions > BASELINE_SESSIONS else 0}s",
               "--duration", f"{args.duration}s", "--drain", "0s", "--warmup", f"{args.warmup}s",
               "--quiet", "--out", str(report_dir)]
    if threads is not None:
        command += ["--threads", str(threads)]
    if dialect == "openai-realtime-webrtc":
        command += ["--token", "sk-vload-simulator"]  # the simulator wants a key, any key (docs/webrtc.md)
    if segment is not None:
        command += ["--segment", segment]
    if args.vload_max_lag_ms is not None:
        command += [args.vload_lag_option, str(args.vload_max_lag_ms)]
    return command


def read_report(report_path: Path) -> dict | None:
    """A vload report.json; None when the run wrote none."""
    return json.loads(report_path.read_text()) if report_path.exists() else None


def run_vload_step(args, dialect: str, sessions: int, simulator: Simulator, work: Path) -> dict:
    out = work / f"vload-{dialect}-{sessions}"
    command = vload_command(args, dialect, sessions, simulator.url, out / "report",
                            args.threads if args.threads_supported else None)
    load = run_load(pinned(command, args.pin_tester), out, simulator, args, None, args.duration + 60)
    report_path = out / "report" / "report.json"
    report = read_report(report_path)
    generator = (report or {}).get("generator") or {}
    lag = generator.get("send_lag_ms") or {}
    receive_lag = generator.get("receive_lag_ms") or {}
    first_audio = ((report or {}).get("metrics") or {}).get("first_audio_from_end_ms") or {}
    errors = ((report or {}).get("errors") or {}).get("total")
    verdict, invalid = vload_verdict(load["exit_code"], report)
    return {
        **step_row("vload", dialect, sessions, lag, first_audio, load, args),
        "receive_lag_p50_ms": receive_lag.get("p50"), "receive_lag_p99_ms": receive_lag.get("p99"),
        "receive_lag_count": receive_lag.get("count"),
        "errors": errors, "generator_cpu_seconds": generator.get("cpu_seconds"),
        "generator_healthy": generator.get("healthy"), "generator_problems": generator.get("problems"),
        "exit_code": load["exit_code"], "invalid": invalid, "verdict": with_errors(verdict, errors),
        "report": str(report_path), "command": " ".join(command),
        "stderr_tail": None if load["exit_code"] in (0, 1, 3) else load["stderr_tail"],
    }


def run_peer_step(args, dialect: str, sessions: int, simulator: Simulator, work: Path, speech_end_ms) -> dict:
    out = work / f"peer-{dialect}-{sessions}"
    command = [args.python, str(BENCH / "peer.py"), "--url", simulator.url, "--dialect", dialect,
               "--sessions", str(sessions),
               "--ramp-up", str(args.ramp_up if sessions > BASELINE_SESSIONS else 0),
               "--duration", str(args.duration), "--warmup", str(args.warmup), "--wav", str(CLIP)]
    if speech_end_ms is not None:
        command += ["--speech-end-ms", f"{speech_end_ms:g}"]
    load = run_load(pinned(command, args.pin_tester), out, simulator, args, "peer: start", args.duration + 30)
    result = None
    for line in reversed(load["stdout"].splitlines()):
        if line.startswith("{"):
            try:
                result = json.loads(line)
            except ValueError:
                pass
            break
    lag = (result or {}).get("send_lag_ms") or {}
    first_audio = (result or {}).get("first_audio_from_end_ms") or {}
    errors = ((result or {}).get("errors") or {}).get("total")
    verdict, failed = peer_verdict(load["exit_code"], result, args.max_send_lag_ms)
    return {
        **step_row("peer", dialect, sessions, lag, first_audio, load, args),
        "send_lag_max_ms": lag.get("max"),
        "errors": errors, "error_kinds": ((result or {}).get("errors") or {}).get("by_kind"),
        "sessions_ready": (result or {}).get("sessions_ready"),
        "exit_code": load["exit_code"], "invalid": failed, "verdict": with_errors(verdict, errors),
        "command": " ".join(command), "stderr_tail": None if result else load["stderr_tail"],
    }


def measured_step(label: str, run_step, log) -> dict:
    """run_step() after 2 s of measuring the idle machine (its figures join the row)."""
    idle = measure_idle_lateness()
    log(f"bench: {label} (idle machine: late p99 {_cell(idle['idle_late_p99_ms'], 2)} ms, "
        f"{idle['idle_late_over_5ms']} wake-ups over 5 ms) …")
    row = run_step()
    row.update(idle)
    return row


def simulated_step(simulator: Simulator, label: str, run_step, log) -> dict:
    """A step against a simulator of its own: what it prints when it stops (how late its replies
    started) is this step's alone. The row gets those figures, and says so when it died."""
    simulator.start()
    try:
        row = measured_step(label, run_step, log)
    except BaseException:
        simulator.stop()
        raise
    if not simulator.alive():
        row["verdict"] += " (the simulator died during the step)"
        row["simulator_died"] = True
    simulator.stop()
    row.update(simulator.reply_timing())
    return row


def step_tool(name: str, steps: list[int], run_step, stop_after, simulator: Simulator, args, log) -> list[dict]:
    """The 1-session baseline then `steps`, in order, until `stop_after(rows)`; RSS per session
    against the baseline; a fresh simulator for every step."""
    rows: list[dict] = []
    baseline_rss = None
    for sessions in [BASELINE_SESSIONS] + steps:
        row = simulated_step(simulator, f"{name} {simulator.dialect} {sessions} sessions",
                             lambda: run_step(sessions), log)
        if sessions == BASELINE_SESSIONS:
            baseline_rss = row["tester_rss_kb"]
        row["baseline_rss_kb"] = baseline_rss
        row["rss_per_session_kb"] = rss_per_session_kb(row["tester_rss_kb"], baseline_rss, sessions)
        rows.append(row)
        log(f"bench:   {row['verdict']}; send-lag p99 {row['send_lag_p99_ms']} ms; "
            f"CPU {_cell(row['tester_cpu_cores'], 2)} cores")
        if sessions != BASELINE_SESSIONS and stop_after([r for r in rows if r["sessions"] != BASELINE_SESSIONS]):
            break
        time.sleep(args.pause)
    return rows


def machine() -> dict:
    model = None
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "cpu_model": model, "kernel": platform.release(),
            "python": platform.python_version()}


def int_list(text: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"'{text}' is not a comma-separated list of integers")
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"'{text}': every step must be at least 1")
    return values


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vload", default=str(ROOT / ".build" / "release" / "vload"))
    parser.add_argument("--dialects", default=",".join(DIALECTS))
    parser.add_argument("--tools", default="vload,peer", help="vload, peer or both")
    parser.add_argument("--steps", type=int_list,
                        default=int_list("25,50,100,150,200,250,300,400,500,600,750,1000,1500,2000"))
    parser.add_argument("--peer-steps", type=int_list, default=int_list("25,50,100,150,200,300,400,600,800"))
    parser.add_argument("--duration", type=int, default=40, help="seconds of each load (ramp-up and warm-up included)")
    parser.add_argument("--warmup", type=int, default=15, help="seconds left out of the figures")
    parser.add_argument("--ramp-up", type=int, default=10, help="seconds over which a step's sessions start")
    parser.add_argument("--threads", type=int, default=1, help="event-loop threads of `vload run` (when it has --threads)")
    parser.add_argument("--sim-threads", type=int, default=1, help="event-loop threads of `vload serve` (when it has --threads)")
    parser.add_argument("--reply-latency-ms", type=int, default=700, help="the simulator's injected reply latency")
    parser.add_argument("--max-send-lag-ms", type=float, default=5.0, help="the send-lag p99 bound")
    parser.add_argument("--vload-max-lag-ms", "--vload-max-send-lag-ms", dest="vload_max_lag_ms", type=float, default=None,
                        help="passed to `vload run --max-lag-ms`: the lag p99 above which vload calls its own run "
                             "invalid (default: not passed, so vload's own default bound judges)")
    parser.add_argument("--pin", default="0,1", metavar="TESTER,SIMULATOR",
                        help="taskset CPU lists for the tester and the simulator, e.g. 0,1 (the default); 'none' pins nothing")
    parser.add_argument("--pause", type=float, default=2.0, help="seconds between steps")
    parser.add_argument("--python", default=sys.executable, help="the interpreter of the peer (with websockets)")
    parser.add_argument("--results", default=str(BENCH / "results"), help="where the JSON and Markdown results go")
    parser.add_argument("--work", default=str(ROOT / ".build-bench" / "runs"), help="where each step's reports and logs go")
    args = parser.parse_args(argv)
    args.dialects = [d.strip() for d in args.dialects.split(",") if d.strip()]
    args.tools = [t.strip() for t in args.tools.split(",") if t.strip()]
    if args.pin == "none":
        args.pin_tester = args.pin_simulator = None
    else:
        cpus = args.pin.split(",")
        if len(cpus) != 2 or not all(cpu.strip().isdigit() for cpu in cpus):
            parser.error(f"--pin: want TESTER,SIMULATOR CPU numbers such as 0,1, or none (got '{args.pin}')")
        args.pin_tester, args.pin_simulator = (cpu.strip() for cpu in cpus)
    for dialect in args.dialects:
        if dialect not in DIALECTS:
            parser.error(f"--dialects: '{dialect}' is not one of {', '.join(DIALECTS)}")
    for tool in args.tools:
        if tool not in ("vload", "peer"):
            parser.error(f"--tools: '{tool}' is not vload or peer")
    webrtc = [d for d in args.dialects if d in WEBRTC_DIALECTS]
    if "peer" in args.tools and webrtc:
        parser.error(f"--tools peer: bench/peer.py speaks WebSocket only, not {', '.join(webrtc)} (use --tools vload)")
    if not (0 <= args.warmup < args.duration - SAMPLE_BEFORE_END_S) or args.ramp_up < 0:
        parser.error("need --duration > --warmup + 0.5 s, --warmup ≥ 0 and --ramp-up ≥ 0")
    if not os.access(args.vload, os.X_OK):
        parser.error(f"--vload: {args.vload} is not an executable (build it: swift build -c release --product vload)")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    args.threads_supported = supports_option(args.vload, "run", "--threads")
    args.sim_threads_supported = supports_option(args.vload, "serve", "--threads")
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d-%H%M%S")
    results, work = Path(args.results), Path(args.work) / stamp
    results.mkdir(parents=True, exist_ok=True)
    work.mkdir(parents=True, exist_ok=True)

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    version = subprocess.run([args.vload, "--version"], capture_output=True, text=True).stdout.strip()
    settings = {
        "command": "bench/run.py " + " ".join(argv), "vload": args.vload, "vload_version": version,
        "duration_s": args.duration, "warmup_s": args.warmup, "ramp_up_s": args.ramp_up,
        "threads": args.threads if args.threads_supported else "unsupported by this vload",
        "sim_threads": args.sim_threads if args.sim_threads_supported else "unsupported by this vload",
        "reply_latency_ms": args.reply_latency_ms, "max_send_lag_ms": args.max_send_lag_ms,
        "vload_max_lag_ms": args.vload_max_lag_ms, "pin": args.pin,
        "steps": args.steps, "peer_steps": args.peer_steps, "frame_ms": 20, "clip": str(CLIP.relative_to(ROOT)),
    }
    args.vload_lag_option = "--max-lag-ms" if supports_option(args.vload, "run", "--max-lag-ms") else "--max-send-lag-ms"
    if args.vload_max_lag_ms is not None and not supports_option(args.vload, "run", args.vload_lag_option):
        log("bench: this vload has no --max-lag-ms or --max-send-lag-ms; its runs are judged by its own check")
        args.vload_max_lag_ms = None
        settings["vload_max_lag_ms"] = "unsupported by this vload"
    for name in ("threads", "sim_threads"):
        if not getattr(args, f"{name}_supported"):
            log(f"bench: this vload has no --threads for {'run' if name == 'threads' else 'serve'}; not passed")
    all_rows: list[dict] = []
    for dialect in args.dialects:
        scenario = BENCH / "scenarios" / f"bench-{dialect}.yaml"
        validated = subprocess.run([args.vload, "validate", str(scenario)], capture_output=True, text=True, cwd=ROOT)
        speech_end_ms = parse_speech_end_ms(validated.stdout)
        simulator = Simulator(args, dialect, work)
        rows: list[dict] = []
        try:
            if "vload" in args.tools:
                rows += step_tool(
                    "vload", args.steps, lambda n: run_vload_step(args, dialect, n, simulator, work),
                    lambda done: should_stop_vload(done, args.max_send_lag_ms) or done[-1]["exit_code"] in (2, 4),
                    simulator, args, log)
            if "peer" in args.tools:
                rows += step_tool(
                    "peer", args.peer_steps,
                    lambda n: run_peer_step(args, dialect, n, simulator, work, speech_end_ms),
                    lambda done: done[-1]["invalid"], simulator, args, log)
        finally:
            simulator.stop()
        all_rows += rows
        document = {"stamp": stamp, "dialect": dialect, "machine": machine(), "settings": settings,
                    "speech_end_ms": speech_end_ms, "simulator_starts": simulator.starts, "rows": rows,
                    "summary": summary_line(rows, dialect, args.max_send_lag_ms)}
        (results / f"{stamp}-{dialect}.json").write_text(json.dumps(document, indent=2) + "\n")

    info = machine()
    lines = [f"# vload benchmark {stamp}", "",
             f"Machine: {info['cpus']} CPUs ({info['cpu_model']}), Linux {info['kernel']}. "
             f"{version}; threads run={settings['threads']}, serve={settings['sim_threads']}; "
             f"pinned (tester,simulator): {args.pin}.",
             f"Command: `{settings['command']}` (duration {args.duration} s, warm-up {args.warmup} s, "
             f"ramp-up {args.ramp_up} s, injected reply latency {args.reply_latency_ms} ms, 20 ms frames).", "",
             format_table(all_rows), ""]
    lines += [summary_line(all_rows, dialect, args.max_send_lag_ms) for dialect in args.dialects]
    text = "\n".join(lines) + "\n"
    (results / f"{stamp}.md").write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
