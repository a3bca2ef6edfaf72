"""End to end: vload (`twilio-media-streams`) against a real, local Pipecat 1.14 Twilio bot.

The bot is pipecat_server.py (FastAPI + FastAPIWebsocketTransport + TwilioFrameSerializer +
Silero VAD + Pipecat's user-turn processor, answering each turn with a WAV). It runs as a
subprocess on a free 127.0.0.1 port; vload runs the way a user runs it:

    vload run --url ws://127.0.0.1:PORT/ws --dialect twilio-media-streams \
              --scenario Tests/Conformance/scenarios/pipecat-*.yaml --clients 1 --out DIR

Each scenario runs once per module (about 6 s and 10 s of real-time audio); the tests read
report.json, turns.csv and sessions.csv. The server log is printed under a failing test.

A second server, started with --twilio-auth-token, checks each upgrade's X-Twilio-Signature
with the twilio package's RequestValidator: vload's `--twilio-auth-token` must pass it with the
right token and be refused (HTTP 403) with a wrong one, without ever writing the token out.
"""
import csv
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import wave
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import vload_wire  # noqa: E402

HERE = Path(__file__).resolve().parent
ROOT = vload_wire.ROOT
SCENARIOS = HERE / "scenarios"
REPLY_WAV = ROOT / "scenarios" / "audio" / "thanks.wav"
SERVER_READY_TIMEOUT_S = 60
VLOAD_RUN_TIMEOUT_S = 60
#: How long to wait for the vload binary when it is missing or does not start (it may be
#: being rebuilt): polled every 5 s.
VLOAD_BINARY_WAIT_S = float(os.environ.get("VLOAD_BINARY_WAIT_S", "60"))
#: The one-question session must end within this long after the agent's last audio.
SESSION_END_SLACK_S = 0.5


def wav_seconds(path: Path) -> float:
    with wave.open(str(path), "rb") as wav:
        return wav.getnframes() / wav.getframerate()


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class PipecatServer:
    """A Pipecat bot script (pipecat_server.py by default) as a subprocess: started on a free port,
    stopped with SIGTERM."""

    def __init__(self, directory: Path, extra_args=(), script="pipecat_server.py"):
        self.directory = directory
        self.script = script
        self.extra_args = list(extra_args)
        self.log_path = directory / "pipecat-server.log"
        self.process = None
        self.port = None
        self.stdout_lines = []

    def start(self):
        errors = []
        for _ in range(3):  # a port taken between free_port() and the bind: try another
            self.port = free_port()
            command = [
                sys.executable, str(HERE / self.script), "--port", str(self.port),
                "--reply-wav", str(REPLY_WAV), "--log-file", str(self.log_path),
                "--max-lifetime-s", "240", "--call-timeout-s", "60", *self.extra_args,
            ]
            env = dict(os.environ, PYTHONUNBUFFERED="1")
            self.process = subprocess.Popen(
                command, cwd=HERE, env=env, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            )
            ready = threading.Event()

            def read(process=self.process):
                for line in process.stdout:
                    self.stdout_lines.append(line.rstrip("\n"))
                    if line.startswith("ready on port"):
                        ready.set()
                ready.set()  # EOF: the process is gone

            threading.Thread(target=read, daemon=True).start()
            ready.wait(SERVER_READY_TIMEOUT_S)
            if self.process.poll() is None and any(l.startswith("ready on port") for l in self.stdout_lines):
                return
            self.stop()
            errors.append(f"port {self.port}: exit {self.process.returncode}\n" + "\n".join(self.stdout_lines[-30:]))
            self.stdout_lines = []
        raise RuntimeError(f"{self.script} did not become ready:\n" + "\n".join(errors) + "\n" + self.log())

    def stop(self, timeout=10) -> int:
        if self.process is None:
            return 0
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        return self.process.returncode

    def log(self) -> str:
        text = self.log_path.read_text() if self.log_path.exists() else "(no server log)"
        return f"--- {self.log_path} ---\n{text}--- server stdout ---\n" + "\n".join(self.stdout_lines)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    instance = PipecatServer(tmp_path_factory.mktemp("pipecat-server"))
    instance.start()
    yield instance
    instance.stop()


#: The fixtures that are PipecatServers, in this module and the modules that import show_server_log.
SERVER_FIXTURES = ("server", "signed_server", "telephony_server")


@pytest.fixture(autouse=True)
def show_server_log(request):
    """Prints the server log after each test; pytest shows it only under a failing test."""
    yield
    for name in SERVER_FIXTURES:
        if name in request.fixturenames:
            print(request.getfixturevalue(name).log())


def vload_binary() -> str:
    binary = vload_wire.vload_binary()
    deadline = time.monotonic() + VLOAD_BINARY_WAIT_S
    while True:
        problem = None
        if not Path(binary).exists():
            problem = "missing"
        else:
            try:
                done = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=20)
                if done.returncode != 0:
                    problem = f"--version exited {done.returncode}: {done.stderr.strip()}"
            except (OSError, subprocess.TimeoutExpired) as error:
                problem = repr(error)
        if problem is None:
            return binary
        if time.monotonic() > deadline:
            pytest.fail(f"vload binary {binary}: {problem} (waited {VLOAD_BINARY_WAIT_S:.0f} s)")
        time.sleep(5)


#: A run vload declares invalid (exit 3: it fell behind, as when other work stalls a small
#: host) measured the host, not the server: it is run again, at most this many times in all.
VLOAD_RUN_ATTEMPTS = 3


class Run:
    """One `vload run` and what it wrote (the last attempt, when vload declared earlier ones invalid)."""

    def __init__(self, scenario: Path, server: PipecatServer, out: Path, extra_args=(),
                 dialect="twilio-media-streams", path="/ws"):
        self.scenario = scenario
        self.out = out
        log_before = server.log_path.read_text() if server.log_path.exists() else ""
        command = [
            vload_binary(), "run", "--url", f"ws://127.0.0.1:{server.port}{path}",
            "--dialect", dialect, "--scenario", str(scenario),
            "--clients", "1", "--out", str(out), "--quiet", "--max-lag-ms", vload_wire.RUN_MAX_LAG_MS, *extra_args,
        ]
        env = {key: value for key, value in os.environ.items() if key != "TWILIO_AUTH_TOKEN"}
        for attempt in range(1, VLOAD_RUN_ATTEMPTS + 1):
            started = time.monotonic()
            done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True,
                                  timeout=VLOAD_RUN_TIMEOUT_S)
            self.wall_s = time.monotonic() - started
            if done.returncode != 3 or attempt == VLOAD_RUN_ATTEMPTS:
                break
            verdict = [line for line in done.stdout.splitlines() if line.startswith("verdict:")]
            print(f"attempt {attempt} of {scenario.name} invalid, run again: {' '.join(verdict)}")
        self.returncode = done.returncode
        self.stdout, self.stderr = done.stdout, done.stderr
        self.output = f"$ {' '.join(command)}\nexit {done.returncode}\n{done.stdout}\n{done.stderr}"
        report = out / "report.json"
        self.report = json.loads(report.read_text()) if report.exists() else None
        log_after = server.log_path.read_text() if server.log_path.exists() else ""
        #: What the server logged during this run.
        self.server_log = log_after[len(log_before):]
        self.turns = self._csv("turns.csv")
        self.sessions = self._csv("sessions.csv")

    def _csv(self, name):
        path = self.out / name
        if not path.exists():
            return []
        with path.open(newline="") as handle:
            return list(csv.DictReader(handle))

    def turn(self, label):
        rows = [row for row in self.turns if row["label"] == label]
        assert len(rows) == 1, f"turns.csv rows labelled {label!r}: {rows}\n{self.output}"
        return rows[0]

    def metric(self, name):
        return self.report["metrics"].get(name, {"count": 0})


@pytest.fixture(scope="module")
def one_question(server, tmp_path_factory):
    return Run(SCENARIOS / "pipecat-one-question.yaml", server, tmp_path_factory.mktemp("one-question") / "out")


@pytest.fixture(scope="module")
def barge_in(server, tmp_path_factory):
    return Run(SCENARIOS / "pipecat-barge-in.yaml", server, tmp_path_factory.mktemp("barge-in") / "out")


def assert_clean_run(run: Run):
    assert run.report is not None, f"no report.json\n{run.output}"
    assert run.returncode == 0, run.output
    report = run.report
    assert report["sessions"]["started"] == 1 and report["sessions"]["completed"] == 1, (report["sessions"], run.output)
    assert report["sessions"]["failed"] == 0
    assert report["unknown_events"] == 0, f"vload met {report['unknown_events']} unknown events\n{run.output}"
    errors = report["errors"]
    assert errors["total"] == 0, json.dumps(errors, indent=1)
    assert errors["by_category"].get("protocol_violation", 0) == 0
    assert report["generator"]["healthy"], report["generator"]
    [session] = run.sessions
    assert session["outcome"] == "completed" and session["error_class"] == "", session


def test_one_question_completes(one_question, server):
    run = one_question
    assert_clean_run(run)
    assert run.report["turns"] == {"completed": 1}, run.report["turns"]
    row = run.turn("question")
    assert row["outcome"] == "completed"
    first_audio = run.metric("first_audio_from_end_ms")
    assert first_audio["count"] == 1, first_audio
    # Silero stop_secs 0.2 + Pipecat's 0.6 s speech timeout: about 0.8 s on an idle machine.
    assert 200 < float(row["first_audio_from_end_ms"]) < 3000, row
    assert run.metric("turn_duration_ms")["count"] == 1
    # The server side: Pipecat's parser recognised the Twilio handshake, the bot replied once.
    log = server.log()
    assert "handshake (twilio): stream_sid=MZ" in log and "call_sid=CA" in log, log
    assert "reply 1" in log
    print(f"one question: first_audio_from_end_ms={float(row['first_audio_from_end_ms']):.1f}, "
          f"turn_duration_ms={float(row['turn_duration_ms']):.1f}")
    for message_type in ("connected", "start", "media", "stop"):
        vload_wire.checked("pipecat", message_type)


def test_one_question_session_ends_with_the_last_audio(one_question):
    """vload must close the call right after the agent's answer has played (plus the scenario's
    quiet_ms, which ends a Twilio turn): Twilio sends `stop` and closes; Pipecat answers `stop`
    with nothing, so any wait for an end-of-session event holds the call open."""
    run = one_question
    assert run.report is not None, run.output
    row = run.turn("question")
    [session] = run.sessions
    connect_s = float(session["connect_ms"]) / 1000
    speech_end_s = float(row["speech_end_offset_ms"]) / 1000
    first_audio_s = float(row["first_audio_from_end_ms"]) / 1000
    reply_s = wav_seconds(REPLY_WAV)
    # From the run's start: connect, then the question streams from its first frame.
    first_agent_audio_at = connect_s + speech_end_s + first_audio_s
    expected_audio_end = first_agent_audio_at + reply_s
    last_chunk_at = first_agent_audio_at + float(row["turn_duration_ms"]) / 1000
    audio_end = max(expected_audio_end, last_chunk_at)
    session_s = run.report["duration_s"]
    quiet_s = run.report["config"]["quiet_ms"] / 1000
    print(
        f"session wall time {session_s:.3f} s (report duration_s; vload process {run.wall_s:.3f} s); "
        f"question {wav_seconds(SCENARIOS / '../../../scenarios/audio/weather.wav'):.3f} s, speech ends at "
        f"{speech_end_s:.3f} s; first agent audio at {first_agent_audio_at:.3f} s; reply {reply_s:.3f} s → "
        f"expected audio end {expected_audio_end:.3f} s (last chunk arrived at {last_chunk_at:.3f} s); "
        f"session ended {session_s - audio_end:+.3f} s after it (quiet_ms {quiet_s:.3f} s included)"
    )
    assert session_s <= audio_end + SESSION_END_SLACK_S, (
        f"the one-question session lasted {session_s:.3f} s, {session_s - audio_end:.3f} s past the end of the "
        f"agent's reply ({audio_end:.3f} s); target ≤ {SESSION_END_SLACK_S} s\n{run.output}"
    )
    assert session_s >= last_chunk_at, "the session cannot end before the reply's last chunk arrived"


def assert_barge_in_acknowledged(run: Run):
    """The barge-in scenario's checks: a clean run, one barge-in acknowledged in time, the
    talked-over answer cut and the barge-in answered. Returns the two turns.csv rows."""
    assert_clean_run(run)
    report = run.report
    assert report["interruptions"]["barge_ins"] == 1, report["interruptions"]
    assert report["interruptions"]["acknowledged"] == 1, report["interruptions"]
    assert report["interruptions"]["missed_interruptions"] == 0, report["interruptions"]
    assert report["turns"] == {"completed": 1, "interrupted": 1}, report["turns"]
    question, barge = run.turn("question"), run.turn("barge-in")
    assert question["outcome"] == "interrupted", question
    assert barge["outcome"] == "completed" and barge["barge_in"] == "true", barge
    assert barge["missed_interruption"] == "false" and barge["audio_already_delivered"] == "false", barge
    assert run.metric("int_ack_ms")["count"] == 1, run.metric("int_ack_ms")
    # Silero start_secs 0.2 s (plus VAD windows and the audio round trip) after the speech starts.
    assert 100 < float(barge["int_ack_ms"]) < 2000, barge
    # The talked-over answer was cut: it played less than the whole reply.
    assert float(question["turn_duration_ms"]) < wav_seconds(REPLY_WAV) * 1000 - 200, question
    return question, barge


def barge_in_figures(run: Run, question, barge) -> str:
    """One line of the barge-in run's figures, for the test output."""
    return (f"int_ack_ms={float(barge['int_ack_ms']):.1f}, int_cutoff_ms={barge['int_cutoff_ms']}, "
            f"audio_after_ack_ms={barge['audio_after_ack_ms']}, first_audio_from_end_ms (question, barge-in)="
            f"{float(question['first_audio_from_end_ms']):.1f}, {float(barge['first_audio_from_end_ms']):.1f}; "
            f"session wall time {run.report['duration_s']:.3f} s")


def test_barge_in_is_acknowledged(barge_in, server):
    run = barge_in
    question, barge = assert_barge_in_acknowledged(run)
    log = server.log()
    assert "reply 2" in log, log
    print(f"barge-in: {barge_in_figures(run, question, barge)}")
    vload_wire.checked("pipecat", "clear")


def assert_stops_cleanly(server: PipecatServer):
    returncode = server.stop()
    assert returncode == 0, f"{server.script} exited {returncode} on SIGTERM"
    assert server.stdout_lines and server.stdout_lines[-1] == "stopped", server.stdout_lines


def test_server_stops_cleanly_on_sigterm(server, one_question, barge_in):
    assert_stops_cleanly(server)


# --- X-Twilio-Signature: vload's --twilio-auth-token against the twilio package's RequestValidator.

#: Made up; what a Twilio account's auth token looks like (32 hex digits).
SERVER_AUTH_TOKEN = "0f1e2d3c4b5a69788796a5b4c3d2e1f0"
WRONG_AUTH_TOKEN = "f0e1d2c3b4a5968778695a4b3c2d1e0f"


@pytest.fixture(scope="module")
def signed_server(tmp_path_factory):
    instance = PipecatServer(tmp_path_factory.mktemp("pipecat-server-signed"),
                             extra_args=["--twilio-auth-token", SERVER_AUTH_TOKEN])
    instance.start()
    yield instance
    instance.stop()


def assert_token_not_written(run: Run, token: str):
    """vload never prints or saves a secret: not on stdout/stderr, not in report.json or any other output."""
    assert token not in run.stdout and token not in run.stderr, "vload printed the Twilio auth token"
    written = [path for path in run.out.rglob("*") if path.is_file()]
    assert any(path.name == "report.json" for path in written), written
    for path in written:
        assert token.encode() not in path.read_bytes(), f"vload wrote the Twilio auth token into {path}"


def test_twilio_signature_accepted(signed_server, tmp_path):
    run = Run(SCENARIOS / "pipecat-one-question.yaml", signed_server, tmp_path / "out",
              extra_args=["--twilio-auth-token", SERVER_AUTH_TOKEN])
    assert_clean_run(run)
    assert run.report["turns"] == {"completed": 1}, run.report["turns"]
    log = signed_server.log()
    url = f"ws://127.0.0.1:{signed_server.port}/ws"
    assert f"call 1 X-Twilio-Signature validated for {url}" in log, log
    assert "upgrade rejected" not in log, log
    assert "reply 1" in log, log
    assert_token_not_written(run, SERVER_AUTH_TOKEN)
    print(f"signed run: exit {run.returncode}, turns {run.report['turns']}, "
          f"vload wrote {len(run.stdout)} + {len(run.stderr)} chars of stdout + stderr")


def test_twilio_signature_rejected(signed_server, tmp_path):
    run = Run(SCENARIOS / "pipecat-one-question.yaml", signed_server, tmp_path / "out",
              extra_args=["--twilio-auth-token", WRONG_AUTH_TOKEN])
    assert run.report is not None, f"no report.json\n{run.output}"
    assert run.returncode == 4, f"exit {run.returncode}, expected 4 (no session reached the endpoint)\n{run.output}"
    by_class = run.report["errors"]["by_class"]
    assert by_class.get("upgrade_rejected_403", 0) >= 1, json.dumps(run.report["errors"], indent=1)
    log = signed_server.log()
    url = f"ws://127.0.0.1:{signed_server.port}/ws"
    assert f"upgrade rejected (HTTP 403): X-Twilio-Signature invalid for {url}" in log, log
    assert_token_not_written(run, WRONG_AUTH_TOKEN)
    assert SERVER_AUTH_TOKEN not in log and WRONG_AUTH_TOKEN not in log, "the server logged a token"
    print(f"wrong token: exit {run.returncode}, errors.by_class {by_class}, "
          f"vload wrote {len(run.stdout)} + {len(run.stderr)} chars of stdout + stderr")
