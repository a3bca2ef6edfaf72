"""vload's `twilio-media-streams` client codec against Pipecat's Twilio code (pipecat-ai 1.14.0).

vload plays Twilio; Pipecat is the agent. Both directions go through Pipecat's own code, not a
reading of Twilio's docs:

- vload → Pipecat: `connected` + `start` into `pipecat.runner.utils.parse_telephony_websocket`
  (the handshake parser a Pipecat telephony bot calls on its FastAPI WebSocket), then `media`,
  `dtmf`, `mark` (echo) and `stop` into `TwilioFrameSerializer.deserialize`.
- Pipecat → vload: `TwilioFrameSerializer.serialize` of output audio, interruption,
  transport messages (how a Pipecat app sends a Twilio `mark`) and end/cancel, into vload's
  codec (`vload wire`), which must decode every one of them, never as unknown or malformed.

No server and no network: these run in well under a second plus one `vload wire` per test.
"""
import asyncio
import base64
import json
import sys
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    import audioop  # what pipecat.audio.utils uses for µ-law (Python 3.11)

sys.path.insert(0, str(Path(__file__).resolve().parent))

import vload_wire  # noqa: E402

from loguru import logger  # noqa: E402

logger.remove()
logger.add(sys.stderr, level="WARNING")

from pipecat.audio.dtmf.types import KeypadEntry  # noqa: E402
from pipecat.audio.utils import create_stream_resampler, pcm_to_ulaw, ulaw_to_pcm  # noqa: E402
from pipecat.frames.frames import (  # noqa: E402
    CancelFrame,
    EndFrame,
    InputAudioRawFrame,
    InputDTMFFrame,
    InterruptionFrame,
    OutputAudioRawFrame,
    OutputDTMFFrame,
    OutputTransportMessageFrame,
    OutputTransportMessageUrgentFrame,
    TTSAudioRawFrame,
)
from pipecat.processors.frame_processor import FrameProcessorSetup  # noqa: E402
from pipecat.runner.utils import parse_telephony_websocket  # noqa: E402
from pipecat.serializers.twilio import TwilioFrameSerializer  # noqa: E402

DIALECT = "twilio-media-streams"
SDK = "pipecat"
DIGITS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "*", "#"]


def run(coroutine):
    return asyncio.run(coroutine)


def texts(answer):
    return [vload_wire.frame_text(frame) for frame in answer["frames"]]


def messages(answer):
    return [json.loads(text) for text in texts(answer)]


class FakeWebSocket:
    """What `parse_telephony_websocket` uses of a Starlette WebSocket: `iter_text()`."""

    def __init__(self, frames):
        self.frames = list(frames)
        self.consumed = 0

    async def iter_text(self):
        for text in self.frames:
            self.consumed += 1
            yield text


def pcm_close(got: bytes, expected: bytes, tolerance: int = 3) -> bool:
    """Same length, every sample within `tolerance` LSB. soxr's int16 stream output is dithered
    (TPDF): two fresh resamplers fed the same audio differ by up to ±2 LSB, so resampled audio
    is compared with a tolerance; audio that is not resampled is compared exactly."""
    import numpy as np
    if len(got) != len(expected):
        return False
    a = np.frombuffer(got, np.int16).astype(int)
    b = np.frombuffer(expected, np.int16).astype(int)
    return bool(len(a) == 0 or np.abs(a - b).max() <= tolerance)


def ulaw_close(got: bytes, expected: bytes) -> bool:
    """Same length, and each µ-law code within one quantisation step of the expected one."""
    import numpy as np
    if len(got) != len(expected):
        return False
    a = np.frombuffer(audioop.ulaw2lin(got, 2), np.int16).astype(int)
    b = np.frombuffer(audioop.ulaw2lin(expected, 2), np.int16).astype(int)
    return bool(len(a) == 0 or (np.abs(a - b) <= 8 + np.abs(b) // 8).all())


def open_frames(tmp_path, session=None):
    """vload's frames on open (`connected`, `start`), with the scenario's session parameters."""
    scenario = None
    if session is not None:
        scenario = vload_wire.write_scenario(tmp_path, "twilio-open", DIALECT, session=session)
    [answer] = vload_wire.run(DIALECT, [{"send": "open"}], scenario=scenario)
    return texts(answer)


def make_serializer(stream_sid, call_sid, sample_rate, deterministic_resampler=False):
    """A serializer as a Pipecat server builds it (no REST hang-up), set up like the transport does.

    `deterministic_resampler`: no time-based reset of the stream resamplers (Pipecat's
    `resampler_clear_after_secs=None`, its advice for telephony), so a comparison with a
    reference resampler cannot depend on how long the test machine paused between chunks."""
    params = TwilioFrameSerializer.InputParams(auto_hang_up=False)
    if deterministic_resampler:
        params = TwilioFrameSerializer.InputParams(auto_hang_up=False, resampler_clear_after_secs=None)
    serializer = TwilioFrameSerializer(stream_sid=stream_sid, call_sid=call_sid, params=params)
    # FastAPIWebsocketInput/OutputTransport.setup() call serializer.setup(FrameProcessorSetup); the
    # serializer reads only audio_in_sample_rate (the pipeline's input rate) from it.
    setup = FrameProcessorSetup(
        clock=None, task_manager=None, pipeline_worker=None,
        audio_in_sample_rate=sample_rate, audio_out_sample_rate=sample_rate,
    )
    run(serializer.setup(setup))
    return serializer


# --- vload → Pipecat -------------------------------------------------------------------------


def test_handshake_is_recognised_as_twilio(tmp_path):
    session = {
        "custom_parameters": {"from_number": "+15550001111", "to_number": "+15550002222", "tenant": "acme"},
        "token": "s3cret-token",
    }
    frames = open_frames(tmp_path, session)
    assert [json.loads(text)["event"] for text in frames] == ["connected", "start"]
    start = json.loads(frames[1])

    websocket = FakeWebSocket(frames)
    transport_type, call_data = run(parse_telephony_websocket(websocket))
    vload_wire.checked(SDK, "connected")
    vload_wire.checked(SDK, "start")

    assert transport_type == "twilio", f"pipecat detected {transport_type!r} from vload's {frames}"
    assert websocket.consumed == 2, "pipecat reads exactly the first two messages (connected, start)"
    assert call_data.stream_id == start["start"]["streamSid"] == start["streamSid"]
    assert call_data.call_id == start["start"]["callSid"]
    assert call_data.stream_id.startswith("MZ") and len(call_data.stream_id) == 34
    assert call_data.call_id.startswith("CA") and len(call_data.call_id) == 34
    # customParameters → body, with vload's --token added as `token`; from/to promoted.
    assert call_data.body == {
        "from_number": "+15550001111", "to_number": "+15550002222", "tenant": "acme", "token": "s3cret-token",
    }
    assert call_data.from_number == "+15550001111"
    assert call_data.to_number == "+15550002222"
    # The dict-compatible access older bots use.
    assert call_data["stream_id"] == call_data.stream_id
    assert call_data["call_id"] == call_data.call_id


def test_handshake_without_custom_parameters(tmp_path):
    frames = open_frames(tmp_path)
    transport_type, call_data = run(parse_telephony_websocket(FakeWebSocket(frames)))
    assert transport_type == "twilio"
    assert call_data.body == {}
    assert call_data.from_number is None and call_data.to_number is None


def test_serializer_ignores_connected_and_start(tmp_path):
    """If a server hands the whole stream to the serializer (no parser), the handshake is dropped."""
    frames = open_frames(tmp_path)
    serializer = make_serializer("MZx", "CAx", 16000)
    assert [run(serializer.deserialize(text)) for text in frames] == [None, None]


@pytest.mark.parametrize("pipeline_rate", [8000, 16000])
def test_media_becomes_input_audio(pipeline_rate):
    actions = [{"send": "open"}] + [{"send": "audio", "ms": 20} for _ in range(50)]
    answers = vload_wire.run(DIALECT, actions)
    start = json.loads(texts(answers[0])[1])
    stream_sid, call_sid = start["start"]["streamSid"], start["start"]["callSid"]
    serializer = make_serializer(stream_sid, call_sid, pipeline_rate, deterministic_resampler=True)
    # Pipecat's own conversion, with a stream resampler configured like the serializer's.
    reference = create_stream_resampler(clear_after_secs=serializer._params.resampler_clear_after_secs)

    got, expected = b"", b""
    for index, answer in enumerate(answers[1:]):
        [text] = texts(answer)
        message = json.loads(text)
        raw = base64.b64decode(answer["audio"])
        assert message["event"] == "media"
        assert base64.b64decode(message["media"]["payload"]) == raw
        assert len(raw) == 160, "20 ms of µ-law 8 kHz"
        assert message["media"]["chunk"] == str(index + 1)
        assert message["media"]["timestamp"] == str(index * 20)

        frame = run(serializer.deserialize(text))
        converted = run(ulaw_to_pcm(raw, 8000, pipeline_rate, reference))
        if pipeline_rate == 8000:
            assert isinstance(frame, InputAudioRawFrame), f"media chunk {index + 1} gave {frame!r}"
            assert frame.audio == audioop.ulaw2lin(raw, 2)
        if frame is None:
            # The resampler may hold back the very first samples; the reference must agree.
            assert converted == b""
            continue
        assert isinstance(frame, InputAudioRawFrame)
        assert frame.sample_rate == pipeline_rate and frame.num_channels == 1
        if pipeline_rate == 8000:
            assert frame.audio == converted
        else:
            assert pcm_close(frame.audio, converted), f"media chunk {index + 1}"
        got += frame.audio
        expected += converted
    vload_wire.checked(SDK, "media")
    assert pcm_close(got, expected)
    # 1 s of audio, less what soxr's VHQ stream resampler still holds (about 100 ms at 8→16 kHz).
    assert (1000 - 150) * pipeline_rate // 1000 * 2 <= len(got) <= 1000 * pipeline_rate // 1000 * 2


def test_dtmf_becomes_input_dtmf_frame():
    actions = [{"send": "open"}] + [{"send": "dtmf", "digit": digit} for digit in DIGITS]
    answers = vload_wire.run(DIALECT, actions)
    serializer = make_serializer("MZx", "CAx", 16000)
    for digit, answer in zip(DIGITS, answers[1:]):
        [text] = texts(answer)
        frame = run(serializer.deserialize(text))
        assert isinstance(frame, InputDTMFFrame), f"dtmf {digit!r}: {text} gave {frame!r}"
        assert frame.button == KeypadEntry(digit)
        assert frame.button.value == digit
    vload_wire.checked(SDK, "dtmf")


def test_stop_is_ignored_by_pipecat():
    """Pipecat's serializer has no case for `stop`: it yields no frame (no EndFrame, no
    disconnect). A Pipecat bot learns that the call ended only when the WebSocket closes, so
    after `stop` the caller (Twilio, here vload) must close the socket itself."""
    answers = vload_wire.run(DIALECT, [{"send": "open"}, {"send": "stop"}])
    [text] = texts(answers[1])
    message = json.loads(text)
    assert message["event"] == "stop"
    assert message["stop"]["callSid"].startswith("CA")
    serializer = make_serializer("MZx", "CAx", 16000)
    assert run(serializer.deserialize(text)) is None
    vload_wire.checked(SDK, "stop")


def test_mark_echo_is_ignored_by_pipecat():
    """Pipecat's serializer has no case for `mark` either: the echo yields no frame."""
    answers = vload_wire.run(DIALECT, [{"send": "open"}, {"send": "mark_played", "name": "reply-1"}])
    [text] = texts(answers[1])
    assert json.loads(text)["mark"] == {"name": "reply-1"}
    serializer = make_serializer("MZx", "CAx", 16000)
    assert run(serializer.deserialize(text)) is None
    vload_wire.checked(SDK, "mark")


# --- Pipecat → vload -------------------------------------------------------------------------


@pytest.mark.parametrize("frame_rate", [8000, 16000, 24000])
def test_output_audio_becomes_agent_audio(frame_rate):
    serializer = make_serializer("MZ" + "a" * 32, "CA" + "b" * 32, 16000, deterministic_resampler=True)
    reference = create_stream_resampler(clear_after_secs=serializer._params.resampler_clear_after_secs)
    # 40 ms chunks (the output transport's default chunk) of a 440 Hz tone.
    import numpy as np
    samples = (np.sin(2 * np.pi * 440 * np.arange(frame_rate) / frame_rate) * 8000).astype(np.int16)
    chunk = frame_rate * 40 // 1000
    serialized = []
    for index in range(25):
        pcm = samples[index * chunk:(index + 1) * chunk].tobytes()
        frame_cls = TTSAudioRawFrame if index % 2 else OutputAudioRawFrame
        text = run(serializer.serialize(frame_cls(audio=pcm, sample_rate=frame_rate, num_channels=1)))
        expected_ulaw = run(pcm_to_ulaw(pcm, frame_rate, 8000, reference))
        if not expected_ulaw:
            assert text is None
            continue
        message = json.loads(text)
        assert message == {"event": "media", "streamSid": "MZ" + "a" * 32, "media": {"payload": message["media"]["payload"]}}
        payload = base64.b64decode(message["media"]["payload"])
        if frame_rate == 8000:
            assert payload == expected_ulaw
        else:
            assert ulaw_close(payload, expected_ulaw), f"chunk {index}"
        serialized.append(text)
    # soxr's VHQ stream resampler releases output in bursts: some 40 ms chunks give no
    # samples, and the serializer then sends nothing for them (returns None).
    assert len(serialized) >= (25 if frame_rate == 8000 else 3)
    sent = sum(len(base64.b64decode(json.loads(text)["media"]["payload"])) for text in serialized)
    assert (1000 - 300) * 8 <= sent <= 1000 * 8, f"{sent} µ-law bytes for 1 s of audio"

    answers = vload_wire.run(DIALECT, [{"send": "open"}] + [vload_wire.receive_text(text) for text in serialized])
    for text, answer in zip(serialized, answers[1:]):
        payload = base64.b64decode(json.loads(text)["media"]["payload"])
        assert vload_wire.event_names(answer) == ["agent.audio"], answer
        [event] = answer["events"]
        assert event["bytes"] == len(payload)
        assert event["duration_us"] == len(payload) * 125, "µ-law 8 kHz: 125 µs a byte"
        assert answer.get("replies", []) == []
    vload_wire.checked(SDK, "media")


def test_interruption_becomes_clear():
    serializer = make_serializer("MZ" + "c" * 32, "CAx", 16000)
    text = run(serializer.serialize(InterruptionFrame()))
    assert json.loads(text) == {"event": "clear", "streamSid": "MZ" + "c" * 32}
    answers = vload_wire.run(DIALECT, [{"send": "open"}, vload_wire.receive_text(text)])
    assert vload_wire.event_names(answers[1]) == ["agent.interrupted"]
    vload_wire.checked(SDK, "clear")


@pytest.mark.parametrize("frame_cls", [OutputTransportMessageFrame, OutputTransportMessageUrgentFrame])
def test_transport_message_mark_is_decoded_and_echoed(frame_cls):
    """A Pipecat app sends a Twilio `mark` as a transport message; the serializer passes it through."""
    sid = "MZ" + "d" * 32
    serializer = make_serializer(sid, "CAx", 16000)
    message = {"event": "mark", "streamSid": sid, "mark": {"name": "reply-end"}}
    text = run(serializer.serialize(frame_cls(message=message)))
    assert json.loads(text) == message
    answers = vload_wire.run(DIALECT, [{"send": "open"}, vload_wire.receive_text(text)])
    assert answers[1]["events"] == [{"event": "mark", "name": "reply-end"}]
    [reply] = answers[1]["replies"]
    echo = json.loads(vload_wire.frame_text(reply))
    assert echo["event"] == "mark" and echo["mark"] == {"name": "reply-end"}
    assert echo["streamSid"].startswith("MZ")
    vload_wire.checked(SDK, "mark")


def test_rtvi_transport_messages_are_not_sent():
    serializer = make_serializer("MZx", "CAx", 16000)
    rtvi = OutputTransportMessageFrame(message={"label": "rtvi-ai", "type": "bot-ready", "data": {}})
    assert run(serializer.serialize(rtvi)) is None


def test_end_cancel_and_dtmf_output_send_nothing():
    """With auto_hang_up off, End/Cancel make no message (with it on, a Twilio REST call, no
    WebSocket message either); output DTMF has no Twilio message."""
    serializer = make_serializer("MZx", "CAx", 16000)
    assert run(serializer.serialize(EndFrame())) is None
    assert run(serializer.serialize(CancelFrame())) is None
    assert run(serializer.serialize(OutputDTMFFrame(button=KeypadEntry.FIVE))) is None


def test_auto_hang_up_needs_twilio_credentials():
    """Pipecat's default (auto_hang_up=True) refuses to build without Twilio REST credentials,
    which is why a local server must turn it off."""
    with pytest.raises(ValueError, match="auto_hang_up"):
        TwilioFrameSerializer(stream_sid="MZx", call_sid="CAx")


def test_every_serializer_output_decodes_cleanly():
    """Everything the serializer emits in a call, fed to vload in order: no unknown/malformed."""
    sid = "MZ" + "e" * 32
    serializer = make_serializer(sid, "CAx", 16000)
    import numpy as np
    pcm = (np.sin(2 * np.pi * 300 * np.arange(640) / 16000) * 6000).astype(np.int16).tobytes()
    outputs = [
        run(serializer.serialize(OutputAudioRawFrame(audio=pcm, sample_rate=16000, num_channels=1))) for _ in range(3)
    ]
    outputs.append(run(serializer.serialize(OutputTransportMessageFrame(
        message={"event": "mark", "streamSid": sid, "mark": {"name": "m1"}}))))
    outputs.append(run(serializer.serialize(InterruptionFrame())))
    outputs = [text for text in outputs if text]
    answers = vload_wire.run(DIALECT, [{"send": "open"}] + [vload_wire.receive_text(text) for text in outputs])
    for text, answer in zip(outputs, answers[1:]):
        names = vload_wire.event_names(answer)
        assert names, f"vload decoded nothing from {text[:80]}"
        assert not {"unknown", "malformed"} & set(names), f"{text[:80]} → {answer}"
