"""vload's WebRTC transport and Pipecat SmallWebRTC signalling against a real Pipecat 1.14 bot on
loopback (pipecat_webrtc_server.py: pipecat's SmallWebRTCRequestHandler behind POST /api/offer,
SmallWebRTCTransport over aiortc 1.16, the Twilio bot's pipeline with RTVI on).

The probe (bench/webrtc-probe, built as vload-webrtc-probe beside $VLOAD_BIN) POSTs its offer
(audio and a data channel) as SmallWebRTC's JSON, connects to the answer over ICE, DTLS and
SRTP, opens the data channel over SCTP, sends RTVI's `client-ready` and waits for `bot-ready`,
while it streams three seconds of scenarios/audio/hello.wav as Opus.

    vload-webrtc-probe --offer-url http://127.0.0.1:PORT/api/offer --seconds 3 --linger-ms 1500
"""
import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_pipecat_server import PipecatServer  # noqa: E402
from test_webrtc_transport import FRAMES_SENT, PROBE, ROOT, SECONDS  # noqa: E402


@pytest.fixture(scope="module")
def webrtc_server(tmp_path_factory):
    instance = PipecatServer(tmp_path_factory.mktemp("pipecat-webrtc-server"), script="pipecat_webrtc_server.py")
    instance.start()
    yield instance
    instance.stop()


@pytest.mark.skipif(not PROBE.exists(), reason=f"no probe at {PROBE} (build the test build: scripts/test)")
def test_smallwebrtc_offer_connects_and_rtvi_bot_ready(webrtc_server):
    command = [
        str(PROBE), "--offer-url", f"http://127.0.0.1:{webrtc_server.port}/api/offer",
        "--seconds", str(SECONDS), "--linger-ms", "1500",
    ]
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60)
    lines = completed.stdout.strip().splitlines()
    assert completed.returncode == 0 and lines, completed.stdout + completed.stderr + webrtc_server.log()
    result = json.loads(lines[-1])
    assert "error" not in result, str(result) + webrtc_server.log()
    # Signalling: one POST answered (pipecat measured 18-38 ms on this machine in the issue).
    assert 0 < result["signalling_ms"] < 5_000
    assert 0 < result["ice_ms"] < 5_000 and 0 < result["dtls_ms"] < 5_000
    # The data channel opened, client-ready went out, and bot-ready was the bot's first message.
    assert 0 < result["data_channel_open_ms"] < 5_000
    assert result["messages_sent"] == 1
    assert result["received_types"][:1] == ["bot-ready"], result["received_types"]
    assert 0 < result["first_reply_ms"] < 5_000
    # The caller's audio went out over SRTP; nothing the bot sent failed to authenticate.
    assert result["packets_sent"] == FRAMES_SENT
    assert result["packets_rejected"] == 0
    print(f"signalling_ms={result['signalling_ms']:.1f} ice_ms={result['ice_ms']:.2f} dtls_ms={result['dtls_ms']:.2f} "
          f"data_channel_open_ms={result['data_channel_open_ms']:.2f} bot_ready_ms={result['first_reply_ms']:.2f} "
          f"rtvi={result['received_types']} packets_received={result['packets_received']}")
