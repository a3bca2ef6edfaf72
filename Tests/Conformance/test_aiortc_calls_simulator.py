"""vload's simulator answering a WebRTC stack it was not written with: the independent aiortc 1.16
caller (aiortc_caller.py, which calls real Pipecat bots in bench/aiortc-compare.sh) calls
`vload serve --dialect pipecat-webrtc` on loopback:

    vload serve --dialect pipecat-webrtc --port 0 --sim-no-greeting [--sim-srtp-profiles LIST]
    python aiortc_caller.py --url http://127.0.0.1:PORT/api/offer --clients N [--barge-in]

aiortc offers (`a=setup:actpass`), the simulator answers ICE-lite and `a=setup:passive`, so it
is the DTLS server and its SRTP profile order picks. Each call must be ready on RTVI
`bot-ready`, hear the reply the injected latency after the question's end of speech as aiortc
measures it, get an acknowledgement of its barge-in, and report the profile the simulator picked:
AEAD_AES_128_GCM by default (aiortc offers AEAD_AES_256_GCM first, which vload does not take),
AES128_CM_SHA1_80 with `--sim-srtp-profiles SRTP_AES128_CM_HMAC_SHA1_80`.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from vload_wire import vload_binary  # noqa: E402

HERE = Path(__file__).resolve().parent
#: The simulator's reply latency (`vload serve`'s default): from the end of speech to the reply.
LATENCY_MS = 700
#: The issue's bound between two callers: one 20 ms frame. aiortc's stamps are asyncio's (the
#: packet handed to aiortc's receiver, the question's frame handed to its transport), each late by
#: its loop's turn, and it finds the end of speech on the clip while the simulator finds it on the
#: decoded Opus; on this 2-core host the three calls measured 699.7-700.2 ms.
TOLERANCE_MS = 20
#: The simulator acknowledges a barge-in (RTVI user-started-speaking) once its VAD has heard 60 ms
#: of speech over its reply, a 20 ms frame after the onset's frame and Opus's 6.5 ms lookahead
#: later (80.7 and 80.8 ms measured); 40 ms more for the stamps.
INT_ACK_MS = (60, 140)


def serve(*extra_args):
    """`vload serve --dialect pipecat-webrtc` on a free port: the process and its offer URL."""
    process = subprocess.Popen(
        [vload_binary(), "serve", "--dialect", "pipecat-webrtc", "--port", "0", "--threads", "1", "--sim-no-greeting", *extra_args],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    first = process.stdout.readline()
    match = re.search(r"listening on (http://127\.0\.0\.1:\d+) \(offers to (/api/offer)\)", first)
    if not match:
        process.kill()
        raise AssertionError(f"vload serve did not start: {first}{process.stdout.read()}")
    return process, match.group(1) + match.group(2), first


def aiortc_calls(url: str, clients: int, *extra_args) -> list:
    done = subprocess.run([sys.executable, str(HERE / "aiortc_caller.py"), "--url", url, "--clients", str(clients), *extra_args],
                          cwd=HERE, capture_output=True, text=True, timeout=90)
    assert done.returncode == 0, done.stdout + done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def stop(process) -> str:
    process.terminate()
    return process.communicate(timeout=15)[0]


def test_aiortc_calls_the_simulator():
    process, url, first = serve()
    try:
        calls = aiortc_calls(url, 2, "--barge-in")
    finally:
        output = first + stop(process)
    print(calls, output)
    assert len(calls) == 2, output
    for call in calls:
        assert call["srtp_profile"] == "SRTP_AEAD_AES_128_GCM", (call, output)
        assert call["first_audio_from_end_ms"] is not None, (call, output)
        assert abs(call["first_audio_from_end_ms"] - LATENCY_MS) <= TOLERANCE_MS, (call, output)
        assert call["int_ack_ms"] is not None and INT_ACK_MS[0] <= call["int_ack_ms"] <= INT_ACK_MS[1], (call, output)
    # Both sessions ended, each with its turn and its interruption.
    assert re.search(r"stopped: 2 sessions, \d+ user turns, \d+ replies, 2 interruptions", output), output


def test_the_simulator_accepting_aes_cm_only_agrees_it_with_aiortc():
    process, url, first = serve("--sim-srtp-profiles", "SRTP_AES128_CM_HMAC_SHA1_80")
    try:
        calls = aiortc_calls(url, 1)
    finally:
        output = first + stop(process)
    print(calls, output)
    assert "SRTP profiles SRTP_AES128_CM_HMAC_SHA1_80" in first, first
    assert len(calls) == 1 and calls[0]["srtp_profile"] == "SRTP_AES128_CM_SHA1_80", (calls, output)
    assert calls[0]["first_audio_from_end_ms"] is not None and abs(calls[0]["first_audio_from_end_ms"] - LATENCY_MS) <= TOLERANCE_MS, (
        calls, output)
