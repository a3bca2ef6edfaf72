#!/usr/bin/env python3
"""vload scaling benchmark: how the healthy load grows with the cores vload is given; standard library only.

For T = 1, 2, 4 … up to half the CPUs this process may use (--thread-counts), with the tester on
the first T of them and `vload serve --threads H` on the other half (H CPUs, a fresh simulator
for every load), it steps the sessions per thread (--steps) and at every step runs, one after
another, the same whole load three ways:

1. threads: one `vload run --threads T` pinned to CPUs 0..T−1 (T × the step's sessions);
2. processes: T processes `vload run --threads 1 --segment i/T` of that load, process i pinned to
   CPU i−1, started together: what T one-thread vloads do without sharing a process;
3. floor: T writers of bench/floor/floor.c, as many connections in all, writer i pinned to CPU
   i−1 and its sink on the simulator's CPUs: what the kernel charges for the writes alone.

A vload load is healthy when every process of it exits 0 with report.json's generator healthy
(send- and receive-lag p99 within --max-lag-ms) and no session errors; a floor load when every
writer's send-lag p99 over its steady window is within --max-lag-ms. Each of the three series
stops after its second unhealthy step. Before the steps of each T, a 1-session run of
`vload run --threads T` gives the baseline for RSS per session.

Per T it prints the highest healthy session count of each series, threads ÷ processes (what
vload's sharing of one process costs), the scaling efficiency healthy(T) ÷ (T × healthy(1)),
CPU µs per frame (vload: its report's cpu_seconds ÷ frames_sent, the whole run; floor: the
writers' CPU over the steady window ÷ its frames) and RSS per session, at each series' highest
healthy step. It writes bench/results/<stamp>-scale.json (every figure) and
bench/results/<stamp>-scale.md (the tables), and prints the tables.

    python3 bench/scale.py --steps 100,200,400 --duration 20 --warmup 10 --ramp-up 5
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import run
from run import BASELINE_SESSIONS, BENCH, DIALECTS, ROOT, _cell

SERIES = ("threads", "processes", "floor")
UNHEALTHY_STEPS_TO_STOP = 2
# A client frame with its WebSocket header (BENCHMARKS.md, "The floor"): an openai-realtime
# append of 960 audio bytes in base64 JSON; a deepgram-agent binary frame of 640 bytes.
FLOOR_FRAME_BYTES = {"openai-realtime": 1300, "deepgram-agent": 648}

# ---------------------------------------------------------------------------------------------
# Pure parts (bench/test_run.py)


def thread_counts(cpus: int) -> list[int]:
    """1, 2, 4 … up to half of `cpus`, and half itself when it is no power of two."""
    half = cpus // 2
    counts: list[int] = []
    count = 1
    while count <= half:
        counts.append(count)
        count *= 2
    if counts and counts[-1] != half:
        counts.append(half)
    return counts


def core_plan(allowed: list[int], threads: int) -> tuple[list[int], list[int]]:
    """The tester's CPUs (the first `threads` of the allowed ones) and the simulator's (the second half)."""
    half = len(allowed) // 2
    if not 1 <= threads <= half:
        raise ValueError(f"{threads} threads need {2 * threads} CPUs; {len(allowed)} allowed")
    return allowed[:threads], allowed[half:]


def cpu_list(cpus: list[int]) -> str:
    """A taskset CPU list: [0, 1, 2, 5] → "0-2,5"."""
    parts: list[str] = []
    ordered = sorted(cpus)
    start = 0
    for i in range(1, len(ordered) + 1):
        if i == len(ordered) or ordered[i] != ordered[i - 1] + 1:
            first, last = ordered[start], ordered[i - 1]
            parts.append(str(first) if first == last else f"{first}-{last}")
            start = i
    return ",".join(parts)


def segment_shares(total: int, parts: int) -> list[int]:
    """How `total` sessions split over `parts` segments: client k goes to segment k mod parts + 1
    (docs/distributed.md), so the first total mod parts segments get one more."""
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def cpu_us_per_frame(cpu_seconds: float | None, frames: int | None) -> float | None:
    if cpu_seconds is None or not frames:
        return None
    return cpu_seconds * 1e6 / frames


def worst(values) -> float | None:
    present = [value for value in values if value is not None]
    return max(present) if present else None


def vload_health(exit_code: int | None, report: dict | None) -> tuple[str, bool]:
    """One vload process's verdict and whether it is healthy: exit 0, the generator healthy
    (run.vload_verdict) and no session errors."""
    verdict, invalid = run.vload_verdict(exit_code, report)
    errors = ((report or {}).get("errors") or {}).get("total")
    if invalid:
        return run.with_errors(verdict, errors), False
    if exit_code != 0:
        return run.with_errors(f"exit {exit_code}", errors), False
    if errors:
        return f"{errors} session errors", False
    return "healthy", True


def combined_health(verdicts: list[tuple[str, bool]]) -> tuple[str, bool]:
    """The verdict of a load made by several processes: healthy only when every one is; else
    each unhealthy one's verdict, named by its segment."""
    if len(verdicts) == 1:
        return verdicts[0]
    bad = [f"segment {i}/{len(verdicts)}: {verdict}" for i, (verdict, healthy) in enumerate(verdicts, 1)
           if not healthy]
    return ("; ".join(bad), False) if bad else ("healthy", True)


def vload_figures(reports: list[dict | None]) -> dict:
    """The figures of one load from its processes' report.json files: CPU seconds and frames sent
    summed (None unless every process wrote a report), the worst p99 of send and receive lag, and
    session errors summed."""
    generators = [(report or {}).get("generator") or {} for report in reports]
    complete = all(report is not None for report in reports)
    cpu_seconds = sum(g.get("cpu_seconds") or 0.0 for g in generators) if complete else None
    frames = sum(g.get("frames_sent") or 0 for g in generators) if complete else None
    return {
        "send_lag_p99_ms": worst((g.get("send_lag_ms") or {}).get("p99") for g in generators),
        "receive_lag_p99_ms": worst((g.get("receive_lag_ms") or {}).get("p99") for g in generators),
        "cpu_seconds": cpu_seconds, "frames_sent": frames,
        "cpu_us_per_frame": cpu_us_per_frame(cpu_seconds, frames),
        "errors": sum(((report or {}).get("errors") or {}).get("total") or 0 for report in reports),
    }


FLOOR_LINE = re.compile(
    r"sessions (\d+) .*?writer ([\d.]+) cores \(([\d.]+) us/frame\)\s+sink ([\d.-]+) cores .*?"
    r"steady: lag p99 ([\d.]+) ms, late>5ms (\d+) of (\d+)")


def parse_floor_line(text: str) -> dict | None:
    """The figures of the line bench/floor/floor.c prints; None without one."""
    match = FLOOR_LINE.search(text)
    if not match:
        return None
    return {"connections": int(match.group(1)), "writer_cores": float(match.group(2)),
            "writer_us_per_frame": float(match.group(3)), "sink_cores": float(match.group(4)),
            "lag_p99_ms": float(match.group(5)), "late_over_5ms": int(match.group(6)),
            "steady_frames": int(match.group(7))}


def floor_figures(lines: list[dict | None], max_lag_ms: float) -> dict:
    """One floor load from its writers' lines: healthy when every writer printed one with its
    send-lag p99 within `max_lag_ms`; CPU per frame and the share of frames over 5 ms late over
    all writers' steady frames."""
    if not lines or any(line is None for line in lines):
        missing = sum(1 for line in lines if line is None)
        return {"healthy": False, "verdict": f"failed: {missing} of {len(lines)} writers printed no figures",
                "send_lag_p99_ms": None, "cpu_us_per_frame": None, "late_over_5ms_percent": None,
                "tester_cpu_cores": None, "simulator_cpu_cores": None}
    frames = sum(line["steady_frames"] for line in lines)
    writer_cpu_us = sum(line["writer_us_per_frame"] * line["steady_frames"] for line in lines)
    lag_p99 = max(line["lag_p99_ms"] for line in lines)
    over = [i for i, line in enumerate(lines, 1) if line["lag_p99_ms"] > max_lag_ms]
    verdict = "healthy" if not over else (
        f"send-lag p99 {lag_p99:g} ms above {max_lag_ms:g} ms (writer {', '.join(map(str, over))})")
    return {"healthy": not over, "verdict": verdict, "send_lag_p99_ms": lag_p99,
            "cpu_us_per_frame": writer_cpu_us / frames if frames else None,
            "late_over_5ms_percent": 100.0 * sum(line["late_over_5ms"] for line in lines) / frames if frames else None,
            "tester_cpu_cores": sum(line["writer_cores"] for line in lines),
            "simulator_cpu_cores": sum(line["sink_cores"] for line in lines)}


def series_done(rows: list[dict]) -> bool:
    """Whether a series has had its second unhealthy step."""
    return sum(1 for row in rows if not row["healthy"]) >= UNHEALTHY_STEPS_TO_STOP


def steps_of(rows: list[dict], threads: int, series: str) -> list[dict]:
    """The steps of one series at one thread count."""
    return [row for row in rows if row["threads"] == threads and row["series"] == series]


def summarize(rows: list[dict]) -> list[dict]:
    """Per thread count: each series' highest healthy sessions (and whether that is only a lower
    bound), threads ÷ processes, healthy(T) ÷ (T × healthy(1)) for each series, and CPU per frame
    and RSS per session at each series' highest healthy step."""
    counts = sorted({row["threads"] for row in rows})
    best = {(t, s): run.highest_passing(steps_of(rows, t, s), lambda row: row["healthy"])
            for t in counts for s in SERIES}
    summary = []
    for t in counts:
        entry: dict = {"thread_count": t}
        for series in SERIES:
            sessions, open_ended = best[(t, series)]
            at_best = next((row for row in steps_of(rows, t, series) if row["sessions"] == sessions), {})
            one, one_open = best.get((1, series), (None, False))
            entry[series] = {
                "ran": bool(steps_of(rows, t, series)), "highest_healthy": sessions, "lower_bound": open_ended,
                "efficiency": ("1.00" if sessions is not None else "n/a") if t == 1 else
                run.bounded_ratio(sessions, open_ended, None if one is None else t * one, one_open, 2, ""),
                "cpu_us_per_frame": at_best.get("cpu_us_per_frame"),
                "rss_per_session_kb": at_best.get("rss_per_session_kb"),
            }
        entry["threads_over_processes"] = run.bounded_ratio(*best[(t, "threads")], *best[(t, "processes")], 2, "")
        summary.append(entry)
    return summary


def _count(figure: dict) -> str:
    sessions = figure["highest_healthy"]
    if not figure["ran"]:
        return "not run"
    return "none" if sessions is None else (f"≥ {sessions}" if figure["lower_bound"] else str(sessions))


SUMMARY_HEADER = (
    "| T | vload --threads T: highest healthy | T processes: highest healthy | threads ÷ processes "
    "| efficiency threads | efficiency processes | floor, T writers: highest healthy | efficiency floor "
    "| CPU µs/frame threads | CPU µs/frame processes | CPU µs/frame floor "
    "| RSS/session KB threads | RSS/session KB processes |"
)


def format_summary(summary: list[dict]) -> str:
    """The per-T table (— for a figure that is missing)."""
    def cells(entry: dict) -> list[str]:
        threads, processes, floor = entry["threads"], entry["processes"], entry["floor"]
        return [str(entry["thread_count"]), _count(threads), _count(processes), entry["threads_over_processes"],
                threads["efficiency"], processes["efficiency"], _count(floor), floor["efficiency"],
                _cell(threads["cpu_us_per_frame"], 1), _cell(processes["cpu_us_per_frame"], 1),
                _cell(floor["cpu_us_per_frame"], 1),
                _cell(threads["rss_per_session_kb"], 1), _cell(processes["rss_per_session_kb"], 1)]
    return run.markdown_table(SUMMARY_HEADER, [cells(entry) for entry in summary])


STEPS_HEADER = (
    "| T | series | sessions per thread | sessions | send-lag p99 ms | receive-lag p99 ms | tester CPU (cores) "
    "| simulator / sink CPU (cores) | CPU µs/frame | RSS/session KB | frames over 5 ms late % "
    "| simulator late p99 ms | idle machine late p99 ms | verdict |"
)


def format_steps(rows: list[dict]) -> str:
    """Every load, in the order run (the worst process's lag where there are several)."""
    return run.markdown_table(STEPS_HEADER, [
        [str(row["threads"]), row["series"], str(row["per_thread"]), str(row["sessions"]),
         _cell(row.get("send_lag_p99_ms"), 2), _cell(row.get("receive_lag_p99_ms"), 2),
         _cell(row.get("tester_cpu_cores"), 2), _cell(row.get("simulator_cpu_cores"), 2),
         _cell(row.get("cpu_us_per_frame"), 1), _cell(row.get("rss_per_session_kb"), 1),
         _cell(row.get("late_over_5ms_percent"), 2), _cell(row.get("simulator_late_p99_ms"), 2),
         _cell(row.get("idle_late_p99_ms"), 2), row["verdict"]]
        for row in rows])


# ---------------------------------------------------------------------------------------------
# Loads


def vload_load(args, series: str, threads: int, sessions: int, plan: tuple[list[int], list[int]],
               simulator: run.Simulator, work: Path) -> dict:
    """One vload load of `sessions` in all: one process with `threads` threads on the tester's
    CPUs, or `threads` one-thread segment processes, one per CPU."""
    tester_cpus = plan[0]
    out = work / f"T{threads}-{series}-{sessions}"
    if series == "threads":
        commands = [run.pinned(run.vload_command(args, args.dialect, sessions, simulator.url, out / "report", threads),
                               cpu_list(tester_cpus))]
        step_dirs = [out]
    else:
        step_dirs = [out / f"segment-{i}" for i in range(1, threads + 1)]
        commands = [run.pinned(run.vload_command(args, args.dialect, sessions, simulator.url, step_dir / "report", 1,
                                                 f"{i}/{threads}"), str(cpu))
                    for i, (step_dir, cpu) in enumerate(zip(step_dirs, tester_cpus), 1)]
    loads = run.run_loads(commands, step_dirs, simulator, args, None, args.duration + 60)
    report_paths = [step_dir / "report" / "report.json" for step_dir in step_dirs]
    reports = [run.read_report(path) for path in report_paths]
    verdict, healthy = combined_health([vload_health(load["exit_code"], report)
                                        for load, report in zip(loads, reports)])
    rss = [load["tester_rss_kb"] for load in loads]
    cores = [load["tester_cpu_cores"] for load in loads]
    return {
        **vload_figures(reports), "healthy": healthy, "verdict": verdict,
        "exit_codes": [load["exit_code"] for load in loads],
        "tester_cpu_cores": None if None in cores else sum(cores),
        "simulator_cpu_cores": loads[0]["simulator_cpu_cores"],
        "tester_rss_kb": None if None in rss else sum(rss),
        "reports": [str(path) for path in report_paths], "commands": [" ".join(c) for c in commands],
        "stderr_tails": [load["stderr_tail"] for load in loads if load["exit_code"] not in (0, 1, 3)],
    }


def floor_load(args, threads: int, sessions: int, plan: tuple[list[int], list[int]], work: Path) -> dict:
    """T floor writers of `sessions` connections in all, writer i on tester CPU i, every sink on
    the simulator's CPUs; each bounded by its own seconds plus a minute."""
    tester_cpus, simulator_cpus = plan
    out = work / f"T{threads}-floor-{sessions}"
    out.mkdir(parents=True, exist_ok=True)
    commands = [run.pinned([str(args.floor), str(share), str(args.floor_bytes), str(args.floor_seconds),
                            str(args.floor_warmup), str(args.floor_tick_us), cpu_list(simulator_cpus)], str(cpu))
                for share, cpu in zip(segment_shares(sessions, threads), tester_cpus)]
    processes = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=ROOT)
                 for command in commands]
    outputs: list[str] = []
    try:
        deadline = time.monotonic() + args.floor_seconds + 60
        for process in processes:
            try:
                outputs.append(process.communicate(timeout=max(0.0, deadline - time.monotonic()))[0])
            except subprocess.TimeoutExpired:
                run.stop_process(process, signal.SIGTERM, 5)
                outputs.append("")
    finally:
        for process in processes:
            run.stop_process(process, signal.SIGTERM, 5)
    (out / "floor.txt").write_text("".join(outputs))
    lines = [parse_floor_line(output) for output in outputs]
    return {**floor_figures(lines, args.max_lag_ms), "floor_lines": [output.strip() for output in outputs],
            "commands": [" ".join(command) for command in commands]}


def run_thread_count(args, threads: int, allowed: list[int], rows: list[dict], baselines: dict, work: Path, log) -> None:
    """The baseline and the steps of one thread count, appending a row per load to `rows`."""
    plan = core_plan(allowed, threads)
    simulator_args = argparse.Namespace(**vars(args))
    simulator_args.pin_simulator, simulator_args.sim_threads = cpu_list(plan[1]), len(plan[1])
    simulator = run.Simulator(simulator_args, args.dialect, work)
    label = f"T={threads} (tester CPUs {cpu_list(plan[0])}, simulator CPUs {cpu_list(plan[1])})"

    def record(series: str, per_thread: int | str, sessions: int, row: dict) -> dict:
        row.update({"threads": threads, "series": series, "per_thread": per_thread, "sessions": sessions})
        rows.append(row)
        log(f"bench:   {row['verdict']}; send-lag p99 {_cell(row.get('send_lag_p99_ms'), 2)} ms; "
            f"CPU {_cell(row.get('cpu_us_per_frame'), 1)} µs/frame")
        time.sleep(args.pause)
        return row

    baseline = record("baseline", "—", BASELINE_SESSIONS, run.simulated_step(
        simulator, f"{label}: baseline, 1 session",
        lambda: vload_load(args, "threads", threads, BASELINE_SESSIONS, plan, simulator, work), log))
    baselines[threads] = baseline["tester_rss_kb"]
    # T one-thread processes each hold what one 1-session process (the baseline of T = 1) holds.
    process_baseline = None if baselines.get(1) is None else threads * baselines[1]
    for per_thread in args.steps:
        sessions = per_thread * threads
        for series in args.series:
            if series_done(steps_of(rows, threads, series)):
                continue
            if series == "floor":
                row = run.measured_step(f"{label}: floor, {sessions} connections",
                                        lambda: floor_load(args, threads, sessions, plan, work), log)
            else:
                row = run.simulated_step(simulator, f"{label}: {series}, {sessions} sessions",
                                         lambda: vload_load(args, series, threads, sessions, plan, simulator, work), log)
                row["baseline_rss_kb"] = baselines[threads] if series == "threads" else process_baseline
                row["rss_per_session_kb"] = run.rss_per_session_kb(row["tester_rss_kb"], row["baseline_rss_kb"],
                                                                   sessions)
            record(series, per_thread, sessions, row)
        if all(series_done(steps_of(rows, threads, series)) for series in args.series):
            break


def build_floor(path: Path) -> None:
    source = BENCH / "floor" / "floor.c"
    if path.exists() and path.stat().st_mtime >= source.stat().st_mtime:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cc", "-O2", "-o", str(path), str(source)], check=True)


def parse_args(argv: list[str], allowed: list[int]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--vload", default=str(ROOT / ".build" / "release" / "vload"))
    parser.add_argument("--dialect", default="openai-realtime", choices=DIALECTS)
    parser.add_argument("--steps", type=run.int_list, default=run.int_list("50,100,200,300,400,500,600,800,1000,1500"),
                        help="sessions per thread, in order (each load has T times as many)")
    parser.add_argument("--thread-counts", type=run.int_list, default=None,
                        help="T, from 1 (default: 1, 2, 4 … up to half the CPUs this process may use)")
    parser.add_argument("--series", default=",".join(SERIES), help="threads, processes, floor, or some of them")
    parser.add_argument("--duration", type=int, default=32, help="seconds of each vload load (ramp-up and warm-up included)")
    parser.add_argument("--warmup", type=int, default=16, help="seconds of a vload load left out of its figures")
    parser.add_argument("--ramp-up", type=int, default=10, help="seconds over which a vload load's sessions start")
    parser.add_argument("--reply-latency-ms", type=int, default=700, help="the simulator's injected reply latency")
    parser.add_argument("--max-lag-ms", type=float, default=2.0,
                        help="the lag p99 bound: passed to `vload run --max-lag-ms` (2 is vload's default) and "
                             "applied to the floor's send lag")
    parser.add_argument("--floor-bytes", type=int, default=None,
                        help="bytes of a floor frame (default: the dialect's client frame with its header, "
                             + ", ".join(f"{d} {b}" for d, b in FLOOR_FRAME_BYTES.items()) + ")")
    parser.add_argument("--floor-tick-us", type=int, default=250,
                        help="the floor writers' least gap between wake-ups (250: vload's pacer, BENCHMARKS.md)")
    parser.add_argument("--floor-seconds", type=int, default=None,
                        help="seconds of each floor load (default: --floor-warmup plus the vload loads' steady "
                             "window, --duration − --warmup, so that a host stall weighs as much in both p99s)")
    parser.add_argument("--floor-warmup", type=int, default=4, help="seconds of a floor load left out of its figures")
    parser.add_argument("--pause", type=float, default=2.0, help="seconds between loads")
    parser.add_argument("--results", default=str(BENCH / "results"), help="where the JSON and Markdown results go")
    parser.add_argument("--work", default=str(ROOT / ".build-bench" / "runs"), help="where each load's reports and logs go")
    args = parser.parse_args(argv)
    args.series = [s.strip() for s in args.series.split(",") if s.strip()]
    for series in args.series:
        if series not in SERIES:
            parser.error(f"--series: '{series}' is not one of {', '.join(SERIES)}")
    if len(allowed) < 2:
        parser.error(f"need at least 2 CPUs (the tester's half and the simulator's); this process may use {len(allowed)}")
    if args.thread_counts is None:
        args.thread_counts = thread_counts(len(allowed))
    if args.thread_counts[0] != 1 or args.thread_counts != sorted(set(args.thread_counts)):
        parser.error("--thread-counts: ascending, from 1 (the efficiency is measured against T = 1)")
    if args.thread_counts[-1] > len(allowed) // 2:
        parser.error(f"--thread-counts: at most {len(allowed) // 2}, half of the {len(allowed)} CPUs this process may use")
    if not (0 <= args.warmup < args.duration - run.SAMPLE_BEFORE_END_S) or args.ramp_up < 0:
        parser.error("need --duration > --warmup + 0.5 s, --warmup ≥ 0 and --ramp-up ≥ 0")
    if args.floor_seconds is None:
        args.floor_seconds = args.floor_warmup + args.duration - args.warmup
    if not 0 <= args.floor_warmup < args.floor_seconds or not 0 <= args.floor_tick_us <= 20_000:
        parser.error("need --floor-seconds > --floor-warmup ≥ 0 and 0 ≤ --floor-tick-us ≤ 20000")
    if args.floor_bytes is None:
        args.floor_bytes = FLOOR_FRAME_BYTES[args.dialect]
    if not os.access(args.vload, os.X_OK):
        parser.error(f"--vload: {args.vload} is not an executable (build it: swift build -c release --product vload)")
    return args


def main(argv: list[str]) -> int:
    allowed = sorted(os.sched_getaffinity(0))
    args = parse_args(argv, allowed)
    for subcommand, option in (("run", "--segment"), ("run", "--threads"), ("run", "--max-lag-ms"), ("serve", "--threads")):
        if not run.supports_option(args.vload, subcommand, option):
            raise SystemExit(f"bench: this vload's {subcommand} has no {option}, which the scaling benchmark needs")
    args.sim_threads_supported = True
    args.vload_max_lag_ms, args.vload_lag_option = args.max_lag_ms, "--max-lag-ms"
    args.floor = ROOT / ".build-bench" / "floor"
    build_floor(args.floor)
    stamp = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d-%H%M%S")
    results, work = Path(args.results), Path(args.work) / f"{stamp}-scale"
    results.mkdir(parents=True, exist_ok=True)
    work.mkdir(parents=True, exist_ok=True)

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    version = subprocess.run([args.vload, "--version"], capture_output=True, text=True).stdout.strip()
    load_before = os.getloadavg()
    started = time.monotonic()
    rows: list[dict] = []
    baselines: dict[int, int | None] = {}
    for threads in args.thread_counts:
        run_thread_count(args, threads, allowed, rows, baselines, work, log)
    load_after = os.getloadavg()
    summary = summarize(rows)
    info = run.machine()
    settings = {
        "command": "bench/scale.py " + " ".join(argv), "vload": args.vload, "vload_version": version,
        "dialect": args.dialect, "steps_per_thread": args.steps, "thread_counts": args.thread_counts,
        "series": args.series, "duration_s": args.duration, "warmup_s": args.warmup, "ramp_up_s": args.ramp_up,
        "reply_latency_ms": args.reply_latency_ms, "max_lag_ms": args.max_lag_ms, "floor_bytes": args.floor_bytes,
        "floor_tick_us": args.floor_tick_us, "floor_seconds": args.floor_seconds, "floor_warmup_s": args.floor_warmup,
        "frame_ms": 20, "allowed_cpus": cpu_list(allowed),
    }
    document = {"stamp": stamp, "machine": info, "settings": settings, "load_average_before": load_before,
                "load_average_after": load_after, "minutes": (time.monotonic() - started) / 60,
                "rows": rows, "summary": summary}
    (results / f"{stamp}-scale.json").write_text(json.dumps(document, indent=2) + "\n")
    lines = [f"# vload scaling benchmark {stamp}", "",
             f"Machine: {info['cpus']} CPUs ({info['cpu_model']}), Linux {info['kernel']}; this process may use "
             f"CPUs {cpu_list(allowed)}. {version}, dialect {args.dialect}.",
             f"Command: `{settings['command']}` (vload loads: duration {args.duration} s, warm-up {args.warmup} s, "
             f"ramp-up {args.ramp_up} s; floor: {args.floor_seconds} s, warm-up {args.floor_warmup} s, "
             f"{args.floor_bytes}-byte frames, wake-ups ≥ {args.floor_tick_us} µs apart; injected reply latency "
             f"{args.reply_latency_ms} ms, 20 ms frames, lag bound {args.max_lag_ms:g} ms).",
             f"Load average (1, 5, 15 min) before: {', '.join(f'{x:.2f}' for x in load_before)}; after: "
             f"{', '.join(f'{x:.2f}' for x in load_after)}; {document['minutes']:.1f} minutes.", "",
             format_summary(summary), "", format_steps(rows), ""]
    text = "\n".join(lines)
    (results / f"{stamp}-scale.md").write_text(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
