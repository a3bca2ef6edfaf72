"""End to end: vload (`pipecat-protobuf`) against a real, local Pipecat 1.14 bot behind its
protobuf WebSocket transport (pipecat_protobuf_server.py: FastAPIWebsocketTransport +
ProtobufFrameSerializer + Silero VAD + Pipecat's user-turn processor, a WAV for a reply).

    vload run --url ws://127.0.0.1:PORT/ws --dialect pipecat-protobuf \
              --scenario Tests/Conformance/scenarios/pipecat-protobuf-*.yaml --clients 1 --out DIR

The server, the runs and their checks are those of test_pipecat_server.py (the Twilio bot),
with this bot and dialect: turns complete, no event is unknown, and the barge-in is
acknowledged by the serializer's own interruption frame.
"""
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import vload_wire  # noqa: E402
from test_pipecat_server import (  # noqa: E402
    REPLY_WAV, SCENARIOS, PipecatServer, Run, assert_barge_in_acknowledged, assert_clean_run, assert_stops_cleanly,
    barge_in_figures, wav_seconds,
)

DIALECT = "pipecat-protobuf"


@pytest.fixture(scope="module")
def protobuf_server(tmp_path_factory):
    instance = PipecatServer(tmp_path_factory.mktemp("pipecat-protobuf-server"), script="pipecat_protobuf_server.py")
    instance.start()
    yield instance
    instance.stop()


@pytest.fixture(autouse=True)
def show_server_log(request):
    """Prints the server log after each test; pytest shows it only under a failing test."""
    yield
    if "protobuf_server" in request.fixturenames:
        print(request.getfixturevalue("protobuf_server").log())


@pytest.fixture(scope="module")
def protobuf_one_question(protobuf_server, tmp_path_factory):
    return Run(SCENARIOS / "pipecat-protobuf-one-question.yaml", protobuf_server,
               tmp_path_factory.mktemp("protobuf-one-question") / "out", dialect=DIALECT)


@pytest.fixture(scope="module")
def protobuf_barge_in(protobuf_server, tmp_path_factory):
    return Run(SCENARIOS / "pipecat-protobuf-barge-in.yaml", protobuf_server,
               tmp_path_factory.mktemp("protobuf-barge-in") / "out", dialect=DIALECT)


def test_protobuf_one_question_completes(protobuf_one_question, protobuf_server):
    run = protobuf_one_question
    assert_clean_run(run)
    assert run.report["turns"] == {"completed": 1}, run.report["turns"]
    row = run.turn("question")
    assert row["outcome"] == "completed"
    assert run.metric("first_audio_from_end_ms")["count"] == 1
    # Silero stop_secs 0.2 + Pipecat's 0.6 s speech timeout: about 0.8 s on an idle machine.
    assert 200 < float(row["first_audio_from_end_ms"]) < 3000, row
    # The whole reply arrived: from its first chunk to its last, the WAV's length less one chunk.
    assert float(row["turn_duration_ms"]) > wav_seconds(REPLY_WAV) * 1000 - 300, row
    log = protobuf_server.log()
    assert "call 1 connected: ProtobufFrameSerializer, 16000 Hz in, 24000 Hz out" in log, log
    assert "reply 1" in log, log
    print(f"protobuf one question: first_audio_from_end_ms={float(row['first_audio_from_end_ms']):.1f}, "
          f"turn_duration_ms={float(row['turn_duration_ms']):.1f}, session wall time {run.report['duration_s']:.3f} s")
    vload_wire.checked("pipecat", "audio (real server)")


def test_protobuf_barge_in_is_acknowledged_by_the_interruption_frame(protobuf_barge_in, protobuf_server):
    run = protobuf_barge_in
    question, barge = assert_barge_in_acknowledged(run)
    log = protobuf_server.log()
    assert "interruption" in log and "reply 2" in log, log
    print(f"protobuf barge-in: {barge_in_figures(run, question, barge)}")
    vload_wire.checked("pipecat", "interruption (real server)")


def test_protobuf_interruption_command_reaches_the_pipeline(protobuf_server, protobuf_one_question, protobuf_barge_in,
                                                            tmp_path):
    """`barge_in: command` sends an interruption frame: Pipecat's pipeline takes it as an
    InterruptionFrame (CannedReply logs it) and its output transport sends one back, the ack."""
    calls_before = protobuf_server.log().count(" connected: ProtobufFrameSerializer")
    run = Run(SCENARIOS / "pipecat-protobuf-barge-in-command.yaml", protobuf_server, tmp_path / "out", dialect=DIALECT)
    assert_clean_run(run)
    interruptions = run.report["interruptions"]
    assert interruptions["barge_ins"] == 1 and interruptions["acknowledged"] == 1, interruptions
    assert run.metric("int_cmd_rtt_ms")["count"] == 1, run.metric("int_cmd_rtt_ms")
    call = f"call {calls_before + 1} "
    # One interruption when the question's speech starts (Pipecat interrupts on every user
    # turn), one for vload's interruption frame.
    traced = [line for line in protobuf_server.log().splitlines() if call in line and "interruption" in line]
    assert len(traced) == 2, traced
    print(f"protobuf interruption command: int_ack_ms={float(run.turn('interrupt')['int_ack_ms']):.1f}")
    vload_wire.checked("pipecat", "interruption (client, real server)")


def test_protobuf_server_stops_cleanly_on_sigterm(protobuf_server, protobuf_one_question, protobuf_barge_in):
    assert_stops_cleanly(protobuf_server)
