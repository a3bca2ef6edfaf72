"""End to end over WebRTC: `vload run --dialect openai-realtime-webrtc` against an OpenAI Realtime
agent built from aiortc 1.16 and the official openai SDK's event models (openai_webrtc_peer.py):

    vload run --url http://127.0.0.1:PORT --dialect openai-realtime-webrtc --token KEY --clients 3 \
              --scenario Tests/Conformance/scenarios/openai-webrtc-one-question.yaml --out DIR

Each caller posts the SDK's form (the SDP offer and the session) to /v1/realtime/calls with its
key, connects over ICE and DTLS, opens the `oai-events` channel, sends `session.update` (checked
strictly against the SDK's client events) and is ready on `session.updated`, speaks
scenarios/audio/weather.wav as 20 ms Opus frames over SRTP, and hears the agent's tone to its end.
"""
import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import openai_webrtc_peer as peer_module  # noqa: E402
import vload_wire  # noqa: E402
from openai_webrtc_peer import OpenAIWebRTCPeer  # noqa: E402
from test_pipecat_server import ROOT, VLOAD_RUN_ATTEMPTS, vload_binary  # noqa: E402

CLIENTS = 3
KEY = "sk-vload-conformance-0123456789"
SCENARIO = Path(__file__).resolve().parent / "scenarios" / "openai-webrtc-one-question.yaml"
#: The agent answers HANG_MS + REPLY_DELAY_MS after the last voiced frame it decoded. vload's end
#: of speech is the clip's acoustic end; the agent's detector works on 20 ms frames and Opus
#: delays the audio 6.5 ms each way, so it may hear the end up to a frame early: 40 ms.
REPLY_AFTER_MS = peer_module.HANG_MS + peer_module.REPLY_DELAY_MS
FIRST_AUDIO_MIN_MS = REPLY_AFTER_MS - 40
#: Above that: aiortc's receive and send paths (its jitter buffer holds a few frames before
#: decoding, its track is paced by asyncio) and three calls in one Python thread on a 2-core host
#: shared with vload.
FIRST_AUDIO_MAX_MS = REPLY_AFTER_MS + 400


def vload_run(peer, out, token, scenario=SCENARIO):
    command = [
        vload_binary(), "run", "--url", f"http://127.0.0.1:{peer.port}", "--dialect", "openai-realtime-webrtc",
        "--scenario", str(scenario), "--clients", str(CLIENTS), "--out", str(out), "--quiet",
        "--max-lag-ms", vload_wire.RUN_MAX_LAG_MS,
    ]
    # A run vload declares invalid (exit 3: the host stalled it) measured the host, not the agent:
    # run again, as test_pipecat_server.Run does, with the peer's records of the try before cleared.
    for attempt in range(1, VLOAD_RUN_ATTEMPTS + 1):
        peer.forget()
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=90,
                              env=dict(os.environ, VLOAD_TOKEN=token))
        if done.returncode != 3 or attempt == VLOAD_RUN_ATTEMPTS:
            return command, done
        print(f"attempt {attempt} invalid, run again: {[l for l in done.stdout.splitlines() if l.startswith('verdict:')]}")


def rows(path):
    if not path.exists():
        return []
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("openai-webrtc-run") / "out"
    with OpenAIWebRTCPeer(KEY) as peer:
        command, done = vload_run(peer, out, KEY)
    output = f"$ {' '.join(command)}\nexit {done.returncode}\n{done.stdout}\n{done.stderr}\npeer errors: {peer.errors}"
    report = json.loads((out / "report.json").read_text()) if (out / "report.json").exists() else None
    files = "".join(path.read_text(errors="replace") for path in out.rglob("*") if path.is_file() and path.suffix in (".json", ".csv", ".html"))
    return {"returncode": done.returncode, "output": output, "report": report, "peer": peer, "files": files,
            "sessions": rows(out / "sessions.csv"), "turns": rows(out / "turns.csv")}


def test_three_calls_complete(run):
    report, peer = run["report"], run["peer"]
    assert report is not None and run["returncode"] == 0, run["output"]
    assert report["sessions"]["started"] == CLIENTS and report["sessions"]["completed"] == CLIENTS, run["output"]
    assert report["errors"]["total"] == 0 and report["unknown_events"] == 0, run["output"]
    assert [row["outcome"] for row in run["sessions"]] == ["completed"] * CLIENTS, run["sessions"]
    assert report["metrics"]["ready_ms"]["count"] == CLIENTS, report["metrics"].get("ready_ms")
    assert peer.errors == [], peer.errors


def test_the_sdk_reads_what_vload_sent(run):
    """The form's session is the SDK's RealtimeSessionCreateRequest; the channel is oai-events;
    every event on it passed the SDK's client union strictly (the peer refuses any other)."""
    peer = run["peer"]
    assert [session.model for session in peer.sessions] == ["gpt-realtime"] * CLIENTS, peer.sessions
    assert all(session.type == "realtime" for session in peer.sessions)
    assert peer.channel_labels == ["oai-events"] * CLIENTS, peer.channel_labels
    assert peer.client_types.count("session.update") == CLIENTS, peer.client_types
    assert "input_audio_buffer.append" not in peer.client_types, "the audio goes as media"
    assert peer.errors == [], peer.errors


#: vload's turn runs from the first tone packet's arrival to stopped's; the peer's from handing the
#: first tone frame to aiortc's sender to sending stopped. A call's first packet leaves after its
#: frame by as long as the peer's one loop is busy elsewhere then (up to ~80 ms seen with three
#: calls on 2 cores), so vload's turn may be that much shorter than the peer's figure; stopped's
#: SCTP and DTLS cost it a few ms more. The calls are not matched one to one: every turn is held
#: within the range the peer played, widened by these.
PLAYED_EARLY_MS = 100
PLAYED_LATE_MS = 60


def played_ms(peer):
    """What the peer played of each reply: from its tone's first frame to its stopped, in ms."""
    started = {number: at for kind, number, at in peer.log if kind == "tone_started"}
    return [round((at - started[number]) * 1000, 1) for kind, number, at in peer.log if kind == "reply_played" and number in started]


def test_first_audio_and_the_turn_ends_with_its_audio(run):
    report = run["report"]
    assert report is not None, run["output"]
    turns = [row for row in run["turns"] if row["label"] == "question"]
    assert len(turns) == CLIENTS and all(row["outcome"] == "completed" for row in turns), turns
    first_audio = sorted(float(row["first_audio_from_end_ms"]) for row in turns)
    assert all(FIRST_AUDIO_MIN_MS <= ms <= FIRST_AUDIO_MAX_MS for ms in first_audio), (first_audio, run["output"])
    # response.done comes as the tone starts; the turn ends on output_audio_buffer.stopped, once
    # the whole REPLY_MS tone has played: a turn ended on response.done would last ~0 ms. The turn
    # lasts what the peer played, from its first tone frame to its stopped: REPLY_MS less the
    # frames its track produced in a hurry when its loop, busy with three calls in Python, fell
    # behind (1.84-1.97 s on a 2-core host, with the build before this check was changed too).
    durations = sorted(float(row["turn_duration_ms"]) for row in turns)
    played = sorted(played_ms(run["peer"]))
    assert len(played) == CLIENTS and all(peer_module.REPLY_MS / 2 <= ms <= peer_module.REPLY_MS for ms in played), played
    assert all(played[0] - PLAYED_EARLY_MS <= ms <= played[-1] + PLAYED_LATE_MS for ms in durations), (
        durations, played, run["output"])
    print(f"openai-realtime-webrtc x{CLIENTS}: first_audio_from_end_ms={first_audio}, turn_duration_ms={durations}, "
          f"the peer played {played}, "
          f"ready_ms p50={report['metrics']['ready_ms'].get('p50')}, phases p50: "
          + ", ".join(f"{name}={report['metrics'][name].get('p50')}" for name in ("signalling_ms", "ice_ms", "dtls_ms", "data_channel_open_ms")))


def test_the_key_is_never_written(run):
    assert KEY not in run["output"] and KEY not in run["files"]


def test_a_wrong_key_is_one_line_per_call(tmp_path):
    out = tmp_path / "out"
    with OpenAIWebRTCPeer(KEY) as peer:
        command, done = vload_run(peer, out, "sk-wrong-key-9876543210")
    report = json.loads((out / "report.json").read_text())
    assert report["sessions"]["completed"] == 0, done.stdout
    # A refused key is the offer's status, and is not retried.
    assert report["errors"]["by_class"] == {"signalling_rejected_401": CLIENTS}, report["errors"]
    assert "answered HTTP 401: Incorrect API key provided" in done.stdout + (out / "report.json").read_text()
    assert "sk-wrong-key-9876543210" not in done.stdout + done.stderr + (out / "report.json").read_text()
    assert peer.calls == []


def test_barge_in_is_acknowledged_and_cuts_the_answer_off(tmp_path):
    """Talking over the answer: the peer hears it, sends input_audio_buffer.speech_started (the
    acknowledgement) and output_audio_buffer.cleared, and stops its tone; then it answers again."""
    out = tmp_path / "out"
    with OpenAIWebRTCPeer(KEY) as peer:
        command, done = vload_run(peer, out, KEY, scenario=SCENARIO.with_name("openai-webrtc-barge-in.yaml"))
    output = f"$ {' '.join(command)}\nexit {done.returncode}\n{done.stdout}\n{done.stderr}\npeer errors: {peer.errors}"
    report = json.loads((out / "report.json").read_text())
    assert done.returncode == 0 and report["sessions"]["completed"] == CLIENTS, output
    assert report["errors"]["total"] == 0 and report["unknown_events"] == 0 and peer.errors == [], output
    assert report["interruptions"]["acknowledged"] == CLIENTS, report["interruptions"]
    assert [kind for kind, _, _ in peer.log].count("cut_off") == CLIENTS, peer.log
    ack = report["labels"]["barge-in"]["int_ack_ms"]
    cutoff = report["labels"]["barge-in"]["int_cutoff_ms"]
    # The peer acknowledges at the first voiced frame it decodes: aiortc's receive path, as for
    # first audio above, and no more.
    assert ack["count"] == CLIENTS and ack["max"] < 400, (ack, output)
    assert cutoff["count"] == CLIENTS and cutoff["max"] < 500, (cutoff, output)
    print(f"openai-realtime-webrtc barge-in x{CLIENTS}: int_ack_ms p50 {ack['p50']:.1f} max {ack['max']:.1f}, "
          f"int_cutoff_ms p50 {cutoff['p50']:.1f} max {cutoff['max']:.1f}")
