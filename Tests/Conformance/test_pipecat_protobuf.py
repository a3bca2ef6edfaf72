"""vload's `pipecat-protobuf` client codec against Pipecat's own protobuf code (pipecat-ai 1.14.0).

Both directions go through Pipecat, not through our reading of frames.proto:

- vload → Pipecat: every frame vload writes (audio at each input rate, text, interruption)
  parses with Pipecat's generated `frames_pb2.Frame` and deserializes with
  `ProtobufFrameSerializer.deserialize` into the frame Pipecat's input transport pushes
  (`InputAudioRawFrame` with vload's rate and channel count, `TextFrame`, `InterruptionFrame`).
- Pipecat → vload: `ProtobufFrameSerializer.serialize` of what a bot sends (output audio as the
  FastAPI transport re-wraps it, interruption, transcription, text, transport messages) goes
  into vload's codec (`vload wire`), which must decode every one, never as unknown or malformed.

No server and no network.
"""
import asyncio
import base64
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import vload_wire  # noqa: E402

from loguru import logger  # noqa: E402

logger.remove()
logger.add(sys.stderr, level="WARNING")

import pipecat.frames.protobufs.frames_pb2 as frames_pb2  # noqa: E402
from google.protobuf.unknown_fields import UnknownFieldSet  # noqa: E402
import pipecat.processors.frameworks.rtvi.models as RTVI  # noqa: E402
from pipecat.frames.frames import (  # noqa: E402
    InputAudioRawFrame,
    InputTransportMessageFrame,
    InterruptionFrame,
    OutputAudioRawFrame,
    OutputTransportMessageFrame,
    OutputTransportMessageUrgentFrame,
    TextFrame,
    TranscriptionFrame,
    TTSAudioRawFrame,
)
from pipecat.serializers.protobuf import ProtobufFrameSerializer  # noqa: E402

DIALECT = "pipecat-protobuf"
SDK = "pipecat"


def run(coroutine):
    return asyncio.run(coroutine)


def sent_bytes(answer) -> list:
    frames = answer["frames"]
    assert all("binary" in frame for frame in frames), f"pipecat-protobuf frames are binary: {frames}"
    return [base64.b64decode(frame["binary"]) for frame in frames]


def deserialize(data: bytes):
    """What Pipecat's input transport gets from one message: the generated message must parse
    it without unknown fields, and the serializer must turn it into a frame."""
    proto = frames_pb2.Frame.FromString(data)
    which = proto.WhichOneof("frame")
    assert which is not None, f"no frame set in {data.hex()}"
    unknown = len(UnknownFieldSet(proto)) + len(UnknownFieldSet(getattr(proto, which)))
    assert unknown == 0, f"fields frames.proto does not define in {data.hex()}"
    frame = run(ProtobufFrameSerializer().deserialize(data))
    assert frame is not None, f"ProtobufFrameSerializer.deserialize refused {data.hex()}"
    return proto, frame


def test_audio_frames_deserialize_as_input_audio(tmp_path):
    for rate in (8000, 16000, 24000, 48000):
        scenario = None
        if rate != 16000:
            scenario = vload_wire.write_scenario(tmp_path, f"rate-{rate}", DIALECT, session={"sample_rate": rate})
        answers = vload_wire.run(DIALECT, [{"send": "audio", "ms": 20}, {"send": "audio", "ms": 40}], scenario=scenario)
        for answer, ms in zip(answers, (20, 40)):
            [data] = sent_bytes(answer)
            proto, frame = deserialize(data)
            assert proto.WhichOneof("frame") == "audio"
            assert type(frame) is InputAudioRawFrame, type(frame)
            assert frame.sample_rate == rate and frame.num_channels == 1, (frame.sample_rate, frame.num_channels)
            assert frame.audio == base64.b64decode(answer["audio"]), "the audio Pipecat reads is the audio vload meant"
            assert len(frame.audio) == rate * 2 * ms // 1000
    vload_wire.checked(SDK, "audio (client)")


def test_text_and_interruption_deserialize():
    text, interrupt, open_, stop = vload_wire.run(DIALECT, [
        {"send": "text", "text": "What's the weather?"}, {"send": "interrupt"}, {"send": "open"}, {"send": "stop"},
    ])
    [data] = sent_bytes(text)
    _, frame = deserialize(data)
    assert type(frame) is TextFrame and frame.text == "What's the weather?"
    [data] = sent_bytes(interrupt)
    _, frame = deserialize(data)
    assert type(frame) is InterruptionFrame
    # Pipecat's transport has no stop message: hanging up is the close. On open vload sends
    # RTVI client-ready (test_client_ready_on_open_is_rtvi_2).
    assert len(open_["frames"]) == 1 and stop["frames"] == []
    vload_wire.checked(SDK, "text (client)")
    vload_wire.checked(SDK, "interruption (client)")


def test_client_ready_on_open_is_rtvi_2():
    """On open vload sends what Pipecat's clients send: RTVI `client-ready` with the protocol
    version and the client's details, which the RTVI processor reads as ClientReadyData and
    takes as compatible (same major version as pipecat-ai's PROTOCOL_VERSION)."""
    [answer] = vload_wire.run(DIALECT, [{"send": "open"}])
    [data] = sent_bytes(answer)
    _, frame = deserialize(data)
    assert type(frame) is InputTransportMessageFrame, type(frame)
    message = RTVI.Message.model_validate(frame.message)
    assert message.label == RTVI.MESSAGE_LABEL and message.type == "client-ready"
    ready = RTVI.ClientReadyData.model_validate(message.data)
    assert ready.version == RTVI.PROTOCOL_VERSION
    assert ready.about.library == "vload" and ready.about.library_version
    vload_wire.checked(SDK, "client-ready (client)")


def test_bot_ready_is_known():
    """`bot-ready`, the RTVI processor's answer to client-ready, is read as nothing measured."""
    bot_ready = RTVI.BotReady(id="1", data=RTVI.BotReadyData(version=RTVI.PROTOCOL_VERSION))
    data = run(ProtobufFrameSerializer().serialize(OutputTransportMessageUrgentFrame(message=bot_ready.model_dump(exclude_none=True))))
    [answer] = vload_wire.run(DIALECT, [vload_wire.receive_binary(data)])
    assert answer["events"] == [], answer
    vload_wire.checked(SDK, "bot-ready")


def serialized(frame) -> bytes:
    data = run(ProtobufFrameSerializer().serialize(frame))
    assert isinstance(data, bytes), f"ProtobufFrameSerializer.serialize({type(frame).__name__}) gave {data!r}"
    return data


def decoded(*frames):
    answers = vload_wire.run(DIALECT, [vload_wire.receive_binary(serialized(frame)) for frame in frames])
    return [answer["events"] for answer in answers]


def test_bot_audio_decodes_at_its_own_rate():
    pcm = bytes(range(256)) * 15  # 3840 bytes
    events = decoded(*(OutputAudioRawFrame(audio=pcm, sample_rate=rate, num_channels=channels)
                       for rate, channels in ((24000, 1), (16000, 1), (8000, 1), (48000, 2))))
    for [event], (rate, channels) in zip(events, ((24000, 1), (16000, 1), (8000, 1), (48000, 2))):
        assert event["event"] == "agent.audio", event
        assert event["bytes"] == len(pcm)
        assert event["duration_us"] == len(pcm) // 2 // channels * 1_000_000 // rate, (event, rate, channels)
    vload_wire.checked(SDK, "audio (bot)")


def test_tts_audio_is_not_serialized_as_is():
    """The serializer matches exact types: a TTSAudioRawFrame is not serialized; the FastAPI
    transport re-wraps every audio frame as an OutputAudioRawFrame at its output rate before
    serializing, which is why vload reads audio frames, whatever produced them."""
    tts = TTSAudioRawFrame(audio=b"\x00\x00" * 160, sample_rate=16000, num_channels=1, context_id="c1")
    assert run(ProtobufFrameSerializer().serialize(tts)) is None


def test_interruption_is_the_barge_in_acknowledgement():
    [[event]] = decoded(InterruptionFrame())
    assert event == {"event": "agent.interrupted"}
    vload_wire.checked(SDK, "interruption (bot)")


def test_transcription_and_text():
    [[user]], [[agent]] = decoded(TranscriptionFrame(text="what's the weather", user_id="u1", timestamp="2026-01-01T00:00:00")), \
        decoded(TextFrame(text="Sunny, 22 degrees."))
    assert user == {"event": "transcript", "role": "user", "text": "what's the weather", "final": True}
    assert agent == {"event": "transcript", "role": "agent", "text": "Sunny, 22 degrees.", "final": True}
    vload_wire.checked(SDK, "transcription")
    vload_wire.checked(SDK, "text (bot)")


def test_transport_messages():
    """A bot's transport messages (RTVI's among them) travel as MessageFrame JSON: vload reads
    the RTVI events it measures and counts the rest as unknown, never as malformed."""
    messages = [
        ({"label": "rtvi-ai", "type": "user-started-speaking"}, {"event": "user.speech_started"}),
        ({"label": "rtvi-ai", "type": "user-stopped-speaking"}, {"event": "user.speech_stopped"}),
        ({"label": "rtvi-ai", "type": "user-transcription",
          "data": {"text": "hi", "user_id": "u1", "timestamp": "t", "final": True}},
         {"event": "transcript", "role": "user", "text": "hi", "final": True}),
        ({"label": "rtvi-ai", "type": "bot-llm-started"},
         {"event": "unknown", "type": "message bot-llm-started"}),
    ]
    frames = [OutputTransportMessageUrgentFrame(message=message) for message, _ in messages[:2]] + \
        [OutputTransportMessageFrame(message=message) for message, _ in messages[2:]]
    for [event], (_, expected) in zip(decoded(*frames), messages):
        assert event == expected, event
    [[error]] = decoded(OutputTransportMessageUrgentFrame(
        message={"label": "rtvi-ai", "type": "error", "data": {"error": "LLM unavailable", "fatal": False}}))
    assert error["event"] == "error" and error["message"] == "LLM unavailable" and error["fatal"] is False, error
    vload_wire.checked(SDK, "message")
