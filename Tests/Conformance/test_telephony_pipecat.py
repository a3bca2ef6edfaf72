"""vload's Telnyx, Plivo, Exotel and Vonage dialects against Pipecat's own serializers (pipecat-ai 1.14.0).

vload plays the telephony provider; Pipecat is the agent. Both directions go through Pipecat's
code, as test_twilio_pipecat.py does for Twilio:

- vload → Pipecat: the handshake into `pipecat.runner.utils.parse_telephony_websocket` (Telnyx,
  Plivo, Exotel; Pipecat has no parser for Vonage, whose serializer reads `websocket:connected`
  itself), then audio, `dtmf`, `stop` and the confirmations vload sends back (played labels,
  Plivo `clearedAudio`, Vonage `websocket:cleared`) into the serializer's `deserialize`.
- Pipecat → vload: `serialize` of output audio, of InterruptionFrame (barge-in) and of the
  transport messages a Pipecat app sends playback labels with, into vload's codec (`vload wire`).

No server and no network.
"""
import asyncio
import base64
import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import audioop  # what pipecat.audio.utils uses for µ-law (Python 3.11)

sys.path.insert(0, str(Path(__file__).resolve().parent))

import vload_wire  # noqa: E402
from test_twilio_pipecat import FakeWebSocket, pcm_close, ulaw_close  # noqa: E402

from loguru import logger  # noqa: E402

logger.remove()
logger.add(sys.stderr, level="WARNING")

from pipecat.audio.dtmf.types import KeypadEntry  # noqa: E402
from pipecat.audio.utils import create_stream_resampler, pcm_to_ulaw, ulaw_to_pcm  # noqa: E402
from pipecat.frames.frames import (  # noqa: E402
    InputAudioRawFrame,
    InputDTMFFrame,
    InterruptionFrame,
    OutputAudioRawFrame,
    OutputTransportMessageFrame,
    TTSAudioRawFrame,
)
from pipecat.processors.frame_processor import FrameProcessorSetup  # noqa: E402
from pipecat.runner.utils import parse_telephony_websocket  # noqa: E402

from pipecat_server import make_serializer  # noqa: E402

SDK = "pipecat"
DIGITS = ["0", "1", "5", "9", "*", "#"]
DIALECTS = {
    "telnyx": "telnyx-media-streaming",
    "plivo": "plivo-audio-streaming",
    "exotel": "exotel-voicebot",
    "vonage": "vonage-websocket",
}
#: Each provider's audio: µ-law 8 kHz (one byte a sample) or 16-bit PCM at 8 or 16 kHz.
AUDIO = {"telnyx": ("ulaw", 8000), "plivo": ("ulaw", 8000), "exotel": ("pcm", 8000), "vonage": ("pcm", 16000)}
PROVIDERS = list(DIALECTS)
JSON_PROVIDERS = ["telnyx", "plivo", "exotel"]


def run(coroutine):
    return asyncio.run(coroutine)


def frame_texts(answer):
    return [vload_wire.frame_text(frame) for frame in answer["frames"]]


def open_frames(provider, tmp_path=None, session=None):
    scenario = None
    if session is not None:
        scenario = vload_wire.write_scenario(tmp_path, f"{provider}-open", DIALECTS[provider], session=session)
    [answer] = vload_wire.run(DIALECTS[provider], [{"send": "open"}], scenario=scenario)
    return frame_texts(answer)


def parsed_call(provider, frames):
    """What a Pipecat telephony bot makes of vload's handshake: the parser's answer (None for Vonage)."""
    if provider == "vonage":
        return None
    transport_type, call_data = run(parse_telephony_websocket(FakeWebSocket(frames)))
    assert transport_type == provider, f"pipecat detected {transport_type!r} from vload's {frames}"
    return call_data


def serializer_for(provider, sample_rate, call_data=None, deterministic_resampler=False):
    """The serializer a pipecat_server.py bot builds, set up like the transport does."""
    if call_data is None and provider != "vonage":
        call_data = parsed_call(provider, open_frames(provider) + ['{"event":"media"}'])
    serializer = make_serializer(provider, call_data)
    if deterministic_resampler:
        serializer._params.resampler_clear_after_secs = None
        serializer._input_resampler = create_stream_resampler(clear_after_secs=None)
        serializer._output_resampler = create_stream_resampler(clear_after_secs=None)
    setup = FrameProcessorSetup(clock=None, task_manager=None, pipeline_worker=None,
                                audio_in_sample_rate=sample_rate, audio_out_sample_rate=sample_rate)
    run(serializer.setup(setup))
    return serializer


def sent_payload(provider, answer) -> bytes:
    """The audio bytes of one frame vload sent (binary for Vonage, else base64 in media.payload)."""
    [frame] = answer["frames"]
    if provider == "vonage":
        return vload_wire.frame_bytes(frame)
    return base64.b64decode(json.loads(vload_wire.frame_text(frame))["media"]["payload"])


def wire_frame(provider, answer):
    """What Pipecat's transport hands the serializer: bytes for a binary frame, else text."""
    [frame] = answer["frames"]
    return vload_wire.frame_bytes(frame) if "binary" in frame else vload_wire.frame_text(frame)


# --- vload → Pipecat -------------------------------------------------------------------------


def test_telnyx_handshake(tmp_path):
    frames = open_frames("telnyx", tmp_path, {"from": "+15550001111", "to": "+15550002222", "client_state": "YWJj"})
    assert [json.loads(text)["event"] for text in frames] == ["connected", "start"]
    start = json.loads(frames[1])
    call_data = parsed_call("telnyx", frames)
    assert call_data.stream_id == start["stream_id"] and len(call_data.stream_id) == 36
    assert call_data.call_id == start["start"]["call_control_id"] and call_data.call_id.startswith("v3:")
    assert call_data.outbound_encoding == "PCMU"
    assert (call_data.from_number, call_data.to_number) == ("+15550001111", "+15550002222")
    assert start["start"]["client_state"] == "YWJj" and start["sequence_number"] == "1"
    vload_wire.checked(SDK, "telnyx connected")
    vload_wire.checked(SDK, "telnyx start")


def test_plivo_handshake():
    frames = open_frames("plivo")
    assert [json.loads(text)["event"] for text in frames] == ["start"], "Plivo sends start alone"
    start = json.loads(frames[0])
    # Pipecat reads two messages; the second is the first media message.
    call_data = parsed_call("plivo", frames + ['{"event":"media"}'])
    assert call_data.stream_id == start["start"]["streamId"] and len(call_data.stream_id) == 36
    assert call_data.call_id == start["start"]["callId"] and len(call_data.call_id) == 36
    assert start["sequenceNumber"] == 0 and start["start"]["mediaFormat"] == {"encoding": "audio/x-mulaw", "sampleRate": 8000}
    vload_wire.checked(SDK, "plivo start")


def test_exotel_handshake(tmp_path):
    session = {"custom_parameters": {"tenant": "acme"}, "token": "s3cret", "account_sid": "acme1", "from": "09100000001"}
    frames = open_frames("exotel", tmp_path, session)
    assert [json.loads(text)["event"] for text in frames] == ["connected", "start"]
    start = json.loads(frames[1])
    call_data = parsed_call("exotel", frames)
    assert call_data.stream_id == start["stream_sid"] == start["start"]["stream_sid"]
    assert call_data.call_id == start["start"]["call_sid"] and len(call_data.call_id) == 32
    assert call_data.account_sid == "acme1" and call_data.from_number == "09100000001"
    assert call_data.custom_parameters == {"tenant": "acme", "token": "s3cret"}
    vload_wire.checked(SDK, "exotel connected")
    vload_wire.checked(SDK, "exotel start")


def test_vonage_connected_is_ignored_by_the_serializer(tmp_path):
    [text] = open_frames("vonage", tmp_path, {"custom_parameters": {"tenant": "acme"}, "token": "s3cret"})
    message = json.loads(text)
    assert message == {"event": "websocket:connected", "content-type": "audio/l16;rate=16000",
                       "tenant": "acme", "token": "s3cret"}
    assert run(serializer_for("vonage", 16000).deserialize(text)) is None
    vload_wire.checked(SDK, "vonage websocket:connected")


def test_handshake_is_dropped_by_the_serializers():
    for provider in JSON_PROVIDERS:
        serializer = serializer_for(provider, 16000)
        frames = open_frames(provider)
        assert [run(serializer.deserialize(text)) for text in frames] == [None] * len(frames)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("pipeline_rate", [8000, 16000])
def test_audio_becomes_input_audio(provider, pipeline_rate):
    encoding, rate = AUDIO[provider]
    answers = vload_wire.run(DIALECTS[provider], [{"send": "open"}] + [{"send": "audio", "ms": 20} for _ in range(50)])
    serializer = serializer_for(provider, pipeline_rate, deterministic_resampler=True)
    reference = create_stream_resampler(clear_after_secs=None)
    got, expected = b"", b""
    for index, answer in enumerate(answers[1:]):
        raw = sent_payload(provider, answer)
        assert raw == base64.b64decode(answer["audio"])
        assert len(raw) == rate * 20 // 1000 * (1 if encoding == "ulaw" else 2), f"20 ms of {encoding} {rate} Hz"
        if provider != "vonage":
            media = json.loads(frame_texts(answer)[0])
            assert media["event"] == "media" and str(media["media"]["chunk"]) == str(index + 1)
            assert media["media"]["timestamp"] == str(index * 20)
        frame = run(serializer.deserialize(wire_frame(provider, answer)))
        if encoding == "ulaw":
            converted = run(ulaw_to_pcm(raw, rate, pipeline_rate, reference))
        else:
            converted = run(reference.resample(raw, rate, pipeline_rate))
        if frame is None:
            assert converted == b"", f"chunk {index + 1}: the serializer dropped audio Pipecat's conversion keeps"
            continue
        assert isinstance(frame, InputAudioRawFrame), f"chunk {index + 1} gave {frame!r}"
        assert frame.sample_rate == pipeline_rate and frame.num_channels == 1
        if rate == pipeline_rate:
            assert frame.audio == (audioop.ulaw2lin(raw, 2) if encoding == "ulaw" else raw)
        assert pcm_close(frame.audio, converted), f"chunk {index + 1}"
        got += frame.audio
        expected += converted
    assert pcm_close(got, expected)
    assert (1000 - 150) * pipeline_rate // 1000 * 2 <= len(got) <= 1000 * pipeline_rate // 1000 * 2
    vload_wire.checked(SDK, f"{provider} media")


@pytest.mark.parametrize("provider", PROVIDERS)
def test_dtmf_becomes_input_dtmf_frame(provider):
    answers = vload_wire.run(DIALECTS[provider], [{"send": "open"}] + [{"send": "dtmf", "digit": d} for d in DIGITS])
    serializer = serializer_for(provider, 16000)
    for digit, answer in zip(DIGITS, answers[1:]):
        [text] = frame_texts(answer)
        frame = run(serializer.deserialize(text))
        assert isinstance(frame, InputDTMFFrame) and frame.button == KeypadEntry(digit), f"{text} gave {frame!r}"
    vload_wire.checked(SDK, f"{provider} dtmf")


@pytest.mark.parametrize("provider", JSON_PROVIDERS)
def test_stop_and_label_confirmations_are_ignored(provider):
    """`stop` and the played-label confirmation reach the serializer, which yields no frame: a
    Pipecat bot learns the call ended when the socket closes."""
    answers = vload_wire.run(DIALECTS[provider], [{"send": "open"}, {"send": "stop"}, {"send": "mark_played", "name": "m1"}])
    serializer = serializer_for(provider, 16000)
    [stop], [played] = frame_texts(answers[1]), frame_texts(answers[2])
    assert json.loads(stop)["event"] == "stop"
    assert json.loads(played)["event"] == ("playedStream" if provider == "plivo" else "mark")
    assert run(serializer.deserialize(stop)) is None
    assert run(serializer.deserialize(played)) is None
    vload_wire.checked(SDK, f"{provider} stop")


def test_vonage_hangs_up_by_closing():
    answers = vload_wire.run(DIALECTS["vonage"], [{"send": "open"}, {"send": "stop"}])
    assert answers[1]["frames"] == [], "Vonage sends no message before closing the socket"


# --- Pipecat → vload -------------------------------------------------------------------------


def tone(rate, ms, index):
    samples = (np.sin(2 * np.pi * 440 * (np.arange(rate * ms // 1000) + index * rate * ms // 1000) / rate) * 8000)
    return samples.astype(np.int16).tobytes()


def to_vload(payload):
    return vload_wire.receive_binary(payload) if isinstance(payload, bytes) else vload_wire.receive_text(payload)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("frame_rate", [8000, 16000, 24000])
def test_output_audio_becomes_agent_audio(provider, frame_rate):
    encoding, rate = AUDIO[provider]
    serializer = serializer_for(provider, 16000, deterministic_resampler=True)
    reference = create_stream_resampler(clear_after_secs=None)
    serialized, expected_audio = [], []
    for index in range(25):
        pcm = tone(frame_rate, 40, index)
        frame_cls = TTSAudioRawFrame if index % 2 else OutputAudioRawFrame
        out = run(serializer.serialize(frame_cls(audio=pcm, sample_rate=frame_rate, num_channels=1)))
        expected = (run(pcm_to_ulaw(pcm, frame_rate, rate, reference)) if encoding == "ulaw"
                    else run(reference.resample(pcm, frame_rate, rate)))
        if not expected:
            assert out is None
            continue
        if provider == "vonage":
            assert isinstance(out, bytes)
            payload = out
        else:
            message = json.loads(out)
            payload = base64.b64decode(message["media"]["payload"])
            assert message["event"] == ("playAudio" if provider == "plivo" else "media")
        if frame_rate == rate:
            assert payload == expected
        elif encoding == "ulaw":
            assert ulaw_close(payload, expected), f"chunk {index}"
        else:
            assert pcm_close(payload, expected), f"chunk {index}"
        serialized.append(out)
        expected_audio.append(payload)
    assert len(serialized) >= (25 if frame_rate == rate else 3)
    answers = vload_wire.run(DIALECTS[provider], [{"send": "open"}] + [to_vload(out) for out in serialized])
    bytes_per_sample = 1 if encoding == "ulaw" else 2
    for payload, answer in zip(expected_audio, answers[1:]):
        assert vload_wire.event_names(answer) == ["agent.audio"], answer
        [event] = answer["events"]
        assert event["bytes"] == len(payload)
        assert event["duration_us"] == len(payload) // bytes_per_sample * 1_000_000 // rate
        assert answer.get("replies", []) == []
    vload_wire.checked(SDK, f"{provider} output audio")


CLEAR = {
    "telnyx": {"event": "clear"},
    "plivo": {"event": "clearAudio", "streamId": None},
    "exotel": {"event": "clear", "stream_sid": None},
    "vonage": {"action": "clear"},
}
#: What vload answers the clear message with, as the provider does (Pipecat ignores it).
CLEARED = {"plivo": "clearedAudio", "vonage": "websocket:cleared"}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_interruption_is_barge_in_acknowledged(provider):
    serializer = serializer_for(provider, 16000)
    text = run(serializer.serialize(InterruptionFrame()))
    expected = dict(CLEAR[provider])
    for key in expected:
        if expected[key] is None:
            expected[key] = serializer._stream_id if provider == "plivo" else serializer._stream_sid
    assert json.loads(text) == expected
    answers = vload_wire.run(DIALECTS[provider], [{"send": "open"}, vload_wire.receive_text(text)])
    assert vload_wire.event_names(answers[1]) == ["agent.interrupted"]
    replies = answers[1].get("replies", [])
    if provider in CLEARED:
        [reply] = replies
        answer = json.loads(vload_wire.frame_text(reply))
        assert answer["event"] == CLEARED[provider]
        assert run(serializer.deserialize(vload_wire.frame_text(reply))) is None
    else:
        assert replies == []
    vload_wire.checked(SDK, f"{provider} clear")


LABELS = {
    "telnyx": ({"event": "mark", "mark": {"name": "reply-end"}}, "reply-end"),
    "plivo": ({"event": "checkpoint", "streamId": "s1", "name": "reply-end"}, "reply-end"),
    "exotel": ({"event": "mark", "stream_sid": "s1", "mark": {"name": "reply-end"}}, "reply-end"),
    "vonage": ({"action": "notify", "payload": {"name": "reply-end"}}, '{"name":"reply-end"}'),
}


@pytest.mark.parametrize("provider", PROVIDERS)
def test_transport_message_label_is_decoded_and_confirmed(provider):
    """A Pipecat app sends a playback label as a transport message; vload confirms it once played."""
    message, name = LABELS[provider]
    serializer = serializer_for(provider, 16000)
    text = run(serializer.serialize(OutputTransportMessageFrame(message=message)))
    assert json.loads(text) == message
    answers = vload_wire.run(DIALECTS[provider], [{"send": "open"}, vload_wire.receive_text(text)])
    assert answers[1]["events"] == [{"event": "mark", "name": name}]
    [reply] = answers[1]["replies"]
    confirmation = json.loads(vload_wire.frame_text(reply))
    if provider == "vonage":
        assert confirmation == {"event": "websocket:notify", "payload": {"name": "reply-end"}}
    elif provider == "plivo":
        assert confirmation["event"] == "playedStream" and confirmation["name"] == "reply-end"
    else:
        assert confirmation["event"] == "mark" and confirmation["mark"] == {"name": "reply-end"}
    assert run(serializer.deserialize(vload_wire.frame_text(reply))) is None
