"""End to end over WebRTC: `vload run --dialect pipecat-webrtc` against a real Pipecat 1.14 bot
behind its SmallWebRTC transport (pipecat_webrtc_server.py: SmallWebRTCRequestHandler on
POST /api/offer, aiortc 1.16, Silero VAD, Pipecat's user turns, RTVI on, a canned reply):

    vload run --url http://127.0.0.1:PORT --dialect pipecat-webrtc --clients 3 \
              --scenario Tests/Conformance/scenarios/pipecat-webrtc-one-question.yaml --out DIR

Each caller posts its offer, connects over ICE and DTLS, opens the data channel, is ready on
RTVI's bot-ready, speaks scenarios/audio/weather.wav as 20 ms Opus frames over SRTP, and hears
the bot's reply (Opus, decoded) to its end. The tests read report.json, sessions.csv and turns.csv.
"""
import csv
import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import vload_wire  # noqa: E402
from test_pipecat_server import ROOT, SCENARIOS, VLOAD_RUN_ATTEMPTS, PipecatServer, vload_binary  # noqa: E402

CLIENTS = 3
#: Pipecat's user-turn stop: the speech timeout after Silero's stop (VADParams.stop_secs, 0.2 s).
SPEECH_TIMEOUT_S = 0.6
VAD_STOP_S = 0.2
#: The bot cannot answer before it has heard the end of speech and waited both out. vload's end of
#: speech is the clip's acoustic end (docs/metrics.md); the bot's VAD works in 32 ms windows of
#: 16 kHz audio and Opus delays the audio 6.5 ms, so its stop may be seen up to a window early: 40 ms.
FIRST_AUDIO_MIN_MS = (SPEECH_TIMEOUT_S + VAD_STOP_S) * 1000 - 40
#: Above that, what three Python bots (Silero, aiortc's Opus and pacing) add on a 2-core host
#: shared with vload: the issue measured 1.08-1.10 s with one aiortc caller on an idle machine;
#: 1.2 s more is left for the load of three calls at once.
FIRST_AUDIO_MAX_MS = 2_300


@pytest.fixture(scope="module")
def webrtc_server(tmp_path_factory):
    instance = PipecatServer(tmp_path_factory.mktemp("pipecat-webrtc-run-server"), script="pipecat_webrtc_server.py",
                             extra_args=["--speech-timeout-s", str(SPEECH_TIMEOUT_S)])
    instance.start()
    yield instance
    instance.stop()


def run_vload(server, scenario: str, clients: int, out: Path, timeout_s: int = 120, url_host: str = "127.0.0.1",
              extra_args=()):
    """`vload run` of `clients` pipecat-webrtc callers of SCENARIOS/`scenario` against `server`
    at `url_host` (a URL's host: an IPv6 literal in brackets), with `extra_args`: its exit code,
    and one text of the command, its output and the server's log for assertion messages."""
    command = [
        vload_binary(), "run", "--url", f"http://{url_host}:{server.port}", "--dialect", "pipecat-webrtc",
        "--scenario", str(SCENARIOS / scenario), "--clients", str(clients),
        "--out", str(out), "--quiet", "--max-lag-ms", vload_wire.RUN_MAX_LAG_MS, *extra_args,
    ]
    # A run vload declares invalid (exit 3: the host stalled it) measured the host, not the bot:
    # run again, as test_pipecat_server.Run does.
    for attempt in range(1, VLOAD_RUN_ATTEMPTS + 1):
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=timeout_s)
        if done.returncode != 3 or attempt == VLOAD_RUN_ATTEMPTS:
            break
        print(f"attempt {attempt} invalid, run again: {[l for l in done.stdout.splitlines() if l.startswith('verdict:')]}")
    return done.returncode, f"$ {' '.join(command)}\nexit {done.returncode}\n{done.stdout}\n{done.stderr}\n{server.log()}"


@pytest.fixture(scope="module")
def run(webrtc_server, tmp_path_factory):
    out = tmp_path_factory.mktemp("pipecat-webrtc-run") / "out"
    returncode, output = run_vload(webrtc_server, "pipecat-webrtc-one-question.yaml", CLIENTS, out, timeout_s=90)
    report = json.loads((out / "report.json").read_text()) if (out / "report.json").exists() else None

    def rows(name):
        path = out / name
        if not path.exists():
            return []
        with path.open(newline="") as handle:
            return list(csv.DictReader(handle))

    return {"returncode": returncode, "output": output, "report": report,
            "sessions": rows("sessions.csv"), "turns": rows("turns.csv")}


def test_three_calls_complete(run):
    report = run["report"]
    assert report is not None and run["returncode"] == 0, run["output"]
    assert report["sessions"]["started"] == CLIENTS and report["sessions"]["completed"] == CLIENTS, run["output"]
    assert report["errors"]["total"] == 0, json.dumps(report["errors"], indent=1) + run["output"]
    assert report["unknown_events"] == 0, run["output"]
    assert report["generator"]["healthy"], report["generator"]
    assert [row["outcome"] for row in run["sessions"]] == ["completed"] * CLIENTS, run["sessions"]
    # Ready is RTVI's bot-ready, answered to vload's client-ready on the data channel.
    assert report["metrics"]["ready_ms"]["count"] == CLIENTS, report["metrics"].get("ready_ms")


def test_first_audio_follows_the_bots_turn_stop(run):
    report = run["report"]
    assert report is not None, run["output"]
    rows = [row for row in run["turns"] if row["label"] == "question"]
    assert len(rows) == CLIENTS and all(row["outcome"] == "completed" for row in rows), rows
    first_audio = sorted(float(row["first_audio_from_end_ms"]) for row in rows)
    assert all(FIRST_AUDIO_MIN_MS <= ms <= FIRST_AUDIO_MAX_MS for ms in first_audio), (first_audio, run["output"])
    # The reply's first packet is Opus of its first audio; its first voiced audio is no earlier.
    voiced = []
    for row in rows:
        assert row["first_voiced_audio_from_end_ms"], row
        voiced.append(float(row["first_voiced_audio_from_end_ms"]))
        assert voiced[-1] >= float(row["first_audio_from_end_ms"]), row
    print(f"pipecat-webrtc x{CLIENTS}: first_audio_from_end_ms={first_audio}, first_voiced_audio_from_end_ms={sorted(voiced)}, "
          f"ready_ms p50={report['metrics']['ready_ms'].get('p50')}, connect_ms p50={report['metrics']['connect_ms'].get('p50')}")


def test_connect_phases_and_rtp_are_reported(run):
    """Each call's WebRTC phases are metrics and sessions.csv columns; report.json sums the bot's RTP streams."""
    report = run["report"]
    assert report is not None, run["output"]
    for name in ("signalling_ms", "ice_ms", "dtls_ms", "data_channel_open_ms"):
        assert report["metrics"][name]["count"] == CLIENTS, (name, report["metrics"][name])
        assert name in report["config"]["metrics_measured"], name
    for row in run["sessions"]:
        phases = [float(row[name]) for name in ("signalling_ms", "ice_ms", "dtls_ms", "data_channel_open_ms")]
        # Each within the connect. ICE and DTLS may overlap (the bot's ClientHello can come before
        # vload's ICE selects its pair); the POST comes before both, the channel's open after.
        connect = float(row["connect_ms"])
        assert all(0 < ms <= connect for ms in phases), row
        assert phases[0] + max(phases[1], phases[2]) + phases[3] <= connect, row
        assert row["dns_ms"] == row["tcp_ms"] == row["upgrade_ms"] == "", row
    rtp = report["rtp"]
    # Pipecat's track sends a packet every 20 ms from the open to the hang-up (silence when idle):
    # at least the 2.9 s reply's 146 packets per call. Loopback loses nothing; 1 % is left for a
    # packet the bot's pacing drops under the load of three calls on two cores.
    assert rtp["streams"] == CLIENTS and rtp["packets_received"] >= CLIENTS * 146, rtp
    assert 0 <= rtp["packets_lost"] <= rtp["packets_expected"] // 100, rtp
    # aiortc, the DTLS client, offers AEAD_AES_256_GCM, AEAD_AES_128_GCM and AES128_CM_SHA1_80;
    # vload, the server, picks its first that aiortc offers too.
    assert rtp["srtp_profiles"] == {"SRTP_AEAD_AES_128_GCM": CLIENTS}, rtp
    print(f"rtp: {rtp}; phases p50: " + ", ".join(
        f"{name}={report['metrics'][name].get('p50')}" for name in ("signalling_ms", "ice_ms", "dtls_ms", "data_channel_open_ms")))


def test_a_call_offering_aes_cm_only(webrtc_server, tmp_path):
    """`--srtp-profiles SRTP_AES128_CM_HMAC_SHA1_80`: vload, the DTLS server, agrees AES_CM with
    the bot's aiortc, which offered GCM first; the call completes, the bot heard the question
    through that profile's SRTP and vload its reply."""
    out = tmp_path / "out"
    returncode, output = run_vload(webrtc_server, "pipecat-webrtc-one-question.yaml", 1, out, timeout_s=90,
                                   extra_args=["--srtp-profiles", "SRTP_AES128_CM_HMAC_SHA1_80"])
    assert returncode == 0, output
    report = json.loads((out / "report.json").read_text())
    assert report["sessions"]["completed"] == 1 and report["errors"]["total"] == 0, output
    assert report["rtp"]["srtp_profiles"] == {"SRTP_AES128_CM_HMAC_SHA1_80": 1}, report["rtp"]
    assert report["rtp"]["packets_received"] >= 146, (report["rtp"], output)
    with (out / "turns.csv").open(newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["label"] == "question"]
    assert len(rows) == 1 and rows[0]["outcome"] == "completed", rows
    first_audio = float(rows[0]["first_audio_from_end_ms"])
    assert FIRST_AUDIO_MIN_MS <= first_audio <= FIRST_AUDIO_MAX_MS, (first_audio, output)
    print(f"pipecat-webrtc offering AES_CM only: {report['rtp']}, first_audio_from_end_ms={first_audio}")


def test_barge_in_is_acknowledged_over_webrtc(webrtc_server, tmp_path):
    """Talking over the bot 800 ms into its answer (scenarios/pipecat-webrtc-barge-in.yaml):
    Silero hears the caller over SRTP, Pipecat interrupts the bot, and RTVI on the data channel
    acknowledges it (`user-started-speaking` while the bot is audible, then `bot-interrupted`);
    the bot then answers the barge-in, heard to its end."""
    out = tmp_path / "out"
    returncode, output = run_vload(webrtc_server, "pipecat-webrtc-barge-in.yaml", CLIENTS, out)
    report = json.loads((out / "report.json").read_text())
    assert returncode == 0 and report["sessions"]["completed"] == CLIENTS, output
    assert report["errors"]["total"] == 0, json.dumps(report["errors"], indent=1) + output
    interruptions = report["interruptions"]
    assert interruptions["barge_ins"] == CLIENTS and interruptions["acknowledged"] == CLIENTS, (interruptions, output)
    with (out / "turns.csv").open(newline="") as handle:
        turns = list(csv.DictReader(handle))
    assert sorted(row["outcome"] for row in turns if row["label"] == "question") == ["interrupted"] * CLIENTS, turns
    acks = sorted(float(row["int_ack_ms"]) for row in turns if row["label"] == "barge-in")
    # Silero needs 0.2 s of speech to start a turn (VADParams.start_secs); the acknowledgement
    # cannot come sooner, and comes well within the step's 3 s int_timeout_ms.
    assert len(acks) == CLIENTS and all(200 <= ms < 3_000 for ms in acks), (acks, output)
    print(f"pipecat-webrtc barge-in x{CLIENTS}: int_ack_ms={acks}")


def test_a_call_over_ipv6(tmp_path_factory):
    """The bot listening on ::1 only, its answer's candidate ::1 (pipecat_webrtc_server.py): vload,
    called with an IPv6 literal, offers ::1, binds its socket on `::`, checks the bot's IPv6
    candidate and completes the call as over IPv4 (docs/webrtc.md, "Where a call's packets go")."""
    server = PipecatServer(tmp_path_factory.mktemp("pipecat-webrtc-ipv6-server"), script="pipecat_webrtc_server.py",
                           extra_args=["--speech-timeout-s", str(SPEECH_TIMEOUT_S), "--host", "::1"])
    server.start()
    try:
        out = tmp_path_factory.mktemp("pipecat-webrtc-ipv6-run") / "out"
        returncode, output = run_vload(server, "pipecat-webrtc-one-question.yaml", 1, out, timeout_s=90, url_host="[::1]")
    finally:
        server.stop()
    assert returncode == 0, output
    report = json.loads((out / "report.json").read_text())
    assert report["sessions"]["completed"] == 1 and report["errors"]["total"] == 0, output
    with (out / "turns.csv").open(newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["label"] == "question"]
    assert len(rows) == 1 and rows[0]["outcome"] == "completed", rows
    first_audio = float(rows[0]["first_audio_from_end_ms"])
    assert FIRST_AUDIO_MIN_MS <= first_audio <= FIRST_AUDIO_MAX_MS, (first_audio, output)
    # The bot's candidate is ::1 only and vload checks IPv6 only: the reply's packets came over IPv6.
    assert report["rtp"]["packets_received"] >= 146, (report["rtp"], output)
    print(f"pipecat-webrtc over IPv6: first_audio_from_end_ms={first_audio}, ice_ms p50={report['metrics']['ice_ms'].get('p50')}")
