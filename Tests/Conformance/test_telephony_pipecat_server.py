"""End to end: vload's Telnyx, Plivo, Exotel and Vonage dialects against a real, local Pipecat 1.14 bot.

One pipecat_server.py serves every provider (`/ws/{provider}` picks the serializer: Telnyx,
Plivo and Exotel through `parse_telephony_websocket`, Vonage straight into its serializer), with
Silero VAD, Pipecat's user-turn processor and the canned WAV reply. For each provider vload runs
the two Pipecat scenarios the way a user runs them:

    vload run --url ws://127.0.0.1:PORT/ws/telnyx --dialect telnyx-media-streaming \\
              --scenario Tests/Conformance/scenarios/pipecat-one-question.yaml --clients 1 --out DIR

The one-question run must complete with one answered turn; in the barge-in run the serializer's
own clear message (Telnyx and Exotel `clear`, Plivo `clearAudio`, Vonage `{"action":"clear"}`)
must acknowledge the barge-in. Each run prints its figures.
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_pipecat_server import (  # noqa: E402
    SCENARIOS,
    PipecatServer,
    Run,
    assert_barge_in_acknowledged,
    assert_clean_run,
    show_server_log,  # noqa: F401  (autouse: the server log under a failing test)
)

DIALECTS = {
    "telnyx": "telnyx-media-streaming",
    "plivo": "plivo-audio-streaming",
    "exotel": "exotel-voicebot",
    "vonage": "vonage-websocket",
}
PROVIDERS = list(DIALECTS)
#: The clear message each serializer sends on InterruptionFrame, as the server logs it.
CLEAR = {"telnyx": "clear", "plivo": "clearAudio", "exotel": "clear", "vonage": '{"action":"clear"}'}


@pytest.fixture(scope="module")
def telephony_server(tmp_path_factory):
    instance = PipecatServer(tmp_path_factory.mktemp("pipecat-telephony-server"))
    instance.start()
    yield instance
    instance.stop()


RUNS = {}


def run_once(server, tmp_path_factory, provider, scenario):
    """Each provider's scenario runs once per module, whatever the test order."""
    key = (provider, scenario)
    if key not in RUNS:
        out = tmp_path_factory.mktemp(f"{provider}-{scenario}") / "out"
        RUNS[key] = Run(SCENARIOS / f"{scenario}.yaml", server, out, dialect=DIALECTS[provider], path=f"/ws/{provider}")
    return RUNS[key]


@pytest.mark.parametrize("provider", PROVIDERS)
def test_one_question_completes(provider, telephony_server, tmp_path_factory):
    run = run_once(telephony_server, tmp_path_factory, provider, "pipecat-one-question")
    assert_clean_run(run)
    assert run.report["turns"] == {"completed": 1}, run.report["turns"]
    row = run.turn("question")
    assert row["outcome"] == "completed"
    assert run.metric("first_audio_from_end_ms")["count"] == 1
    assert 200 < float(row["first_audio_from_end_ms"]) < 3000, row
    assert f"handshake ({provider})" in run.server_log, run.server_log
    assert "reply 1" in run.server_log and "reply 2" not in run.server_log, run.server_log
    print(f"{provider} one question: first_audio_from_end_ms={float(row['first_audio_from_end_ms']):.1f}, "
          f"turn_duration_ms={float(row['turn_duration_ms']):.1f}, session {run.report['duration_s']:.3f} s")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_barge_in_is_acknowledged_by_the_clear_message(provider, telephony_server, tmp_path_factory):
    run = run_once(telephony_server, tmp_path_factory, provider, "pipecat-barge-in")
    question, barge = assert_barge_in_acknowledged(run)
    report = run.report
    # The server side: Pipecat's VAD interrupted the bot (its serializer then sends CLEAR[provider]),
    # and the bot answered the barge-in.
    assert "interruption (the serializer sends its clear message)" in run.server_log, run.server_log
    assert "reply 2" in run.server_log, run.server_log
    print(f"{provider} barge-in ({CLEAR[provider]}): int_ack_ms={float(barge['int_ack_ms']):.1f}, "
          f"first_audio_from_end_ms (question, barge-in)={float(question['first_audio_from_end_ms']):.1f}, "
          f"{float(barge['first_audio_from_end_ms']):.1f}; session {report['duration_s']:.3f} s")
