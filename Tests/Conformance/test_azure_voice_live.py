"""vload's `azure-voice-live` dialect against the official azure-ai-voicelive SDK's models.

The SDK (azure-ai-voicelive==1.3.1, `azure.ai.voicelive.models`) is the judge: the
`session.update` vload writes is a `RequestSession` with no member the SDK does not know, its
turn detection and formats are values the SDK defines, the server events the SDK builds decode
to the normalized events vload measures from, none of the SDK's server event types is unknown
to vload, and every type vload reads by name is one the SDK still defines (docs/conformance.md).
"""
import base64
import json

import pytest
from azure.ai.voicelive import models as avl

import vload_wire

DIALECT = "azure-voice-live"
SDK = "azure-ai-voicelive"
SERVER_TYPES = {member.value for member in avl.ServerEventType}
CLIENT_TYPES = {member.value for member in avl.ClientEventType}
AGENT_PCM = vload_wire.tone_pcm16(480, 24000)  # 20 ms at 24 kHz


def run(actions, scenario=None):
    return vload_wire.run(DIALECT, actions, scenario=scenario)


def rest_names(model_class) -> set:
    """The JSON member names of an SDK model class."""
    model_class()  # the SDK computes a class's field table on its first instance
    return {field._rest_name for field in model_class._attr_to_rest_field.values()}


def session_update(tmp_path, session=None) -> dict:
    """The `session` of the `session.update` vload sends on open (and the same on start)."""
    scenario = None if session is None else vload_wire.write_scenario(tmp_path, "s", DIALECT, session=session)
    sessions = []
    for answer in run([{"send": "open"}, {"send": "start"}], scenario=scenario):
        [frame] = answer["frames"]
        raw = json.loads(vload_wire.frame_text(frame))
        assert raw["type"] == avl.ClientEventType.SESSION_UPDATE, raw
        event = avl.ClientEventSessionUpdate(raw)
        assert isinstance(event.session, avl.RequestSession), type(event.session)
        unknown = set(raw["session"]) - rest_names(avl.RequestSession)
        assert not unknown, f"members the SDK's RequestSession does not define: {sorted(unknown)}"
        sessions.append(raw["session"])
    vload_wire.checked(SDK, "session.update")
    assert sessions[0] == sessions[1], "open and start send different session.update events"
    return sessions[0]


def test_session_update_defaults(tmp_path):
    session = session_update(tmp_path)
    assert session["input_audio_format"] in {f.value for f in avl.InputAudioFormat}
    assert session["output_audio_format"] in {f.value for f in avl.OutputAudioFormat}
    assert session["input_audio_sampling_rate"] == 24000
    detection = avl.RequestSession(session).turn_detection
    assert isinstance(detection, avl.AzureSemanticVad), type(detection)
    assert detection.end_of_utterance_detection.model == "semantic_detection_v1"
    assert set(session["modalities"]) <= {m.value for m in avl.Modality}


def test_session_update_voice_live_fields_and_16k(tmp_path):
    session = session_update(tmp_path, {
        "input_audio_sampling_rate": 16000,
        "input_audio_noise_reduction": {"type": "azure_deep_noise_suppression"},
        "input_audio_echo_cancellation": {"type": "server_echo_cancellation"},
        "voice": {"name": "en-US-Ava:DragonHDLatestNeural", "type": "azure-standard"},
    })
    parsed = avl.RequestSession(session)
    assert parsed.input_audio_sampling_rate == 16000
    assert parsed.input_audio_noise_reduction.type == "azure_deep_noise_suppression"
    assert parsed.input_audio_echo_cancellation.type == "server_echo_cancellation"
    assert parsed.voice["type"] in {v.value for v in avl.AzureVoiceType}, parsed.voice


def test_client_events_are_sdk_client_events():
    answers = run([{"send": "audio", "ms": 40}, {"send": "commit"}, {"send": "interrupt"}])
    types = [json.loads(vload_wire.frame_text(f))["type"] for a in answers for f in a["frames"]]
    assert types == ["input_audio_buffer.append", "input_audio_buffer.commit", "response.cancel"]
    for event_type in types:
        assert event_type in CLIENT_TYPES, event_type
        vload_wire.checked(SDK, event_type)
    append = avl.ClientEventInputAudioBufferAppend(json.loads(vload_wire.frame_text(answers[0]["frames"][0])))
    assert len(base64.b64decode(append.audio)) == 1920  # 40 ms of PCM16 at 24 kHz


RESPONSE = {"id": "resp_1", "object": "realtime.response", "status": "completed", "output": []}

#: SDK-built server events and what vload must read from each.
SERVER_CASES = [
    (avl.ServerEventInputAudioBufferSpeechStarted(audio_start_ms=100, item_id="item_1"), [{"event": "user.speech_started"}]),
    (avl.ServerEventInputAudioBufferSpeechStopped(audio_end_ms=900, item_id="item_1"), [{"event": "user.speech_stopped"}]),
    (avl.ServerEventResponseCreated(response={**RESPONSE, "status": "in_progress"}),
     [{"event": "agent.speech_started", "turn_key": "resp_1"}]),
    (avl.ServerEventResponseAudioDelta(response_id="resp_1", item_id="item_2", output_index=0, content_index=0,
                                       delta=AGENT_PCM),
     [{"event": "agent.audio", "bytes": len(AGENT_PCM), "duration_us": 20_000, "turn_key": "resp_1"}]),
    (avl.ServerEventResponseAudioDone(response_id="resp_1", item_id="item_2", output_index=0, content_index=0),
     [{"event": "agent.speech_ended", "turn_key": "resp_1"}]),
    (avl.ServerEventResponseAudioTranscriptDone(response_id="resp_1", item_id="item_2", output_index=0,
                                                content_index=0, transcript="Hello there"),
     [{"event": "transcript", "role": "agent", "text": "Hello there", "final": True}]),
    (avl.ServerEventResponseDone(response=RESPONSE), [{"event": "turn.complete", "turn_key": "resp_1"}]),
    (avl.ServerEventWarning(warning={"message": "slow audio", "code": "audio_slow"}),
     [{"event": "warning", "code": "audio_slow"}]),
]


@pytest.mark.parametrize("model,expected", SERVER_CASES, ids=[case[0].type for case in SERVER_CASES])
def test_server_event(model, expected):
    text = json.dumps(model.as_dict())
    (answer,) = run([vload_wire.receive_text(text)])
    vload_wire.checked(SDK, model.type)
    events = answer["events"]
    assert len(events) == len(expected), f"{text}: vload decoded {events}"
    for got, want in zip(events, expected):
        mismatched = {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
        assert not mismatched, f"{text}: {got} differs from {want} in (got, expected) {mismatched}"


def test_no_sdk_server_event_type_is_unknown():
    """Every server event type the SDK defines is one vload knows: read, or known and ignored."""
    answers = run([vload_wire.receive_text(json.dumps({"type": t, "event_id": "e"})) for t in sorted(SERVER_TYPES)])
    unknown = [t for t, a in zip(sorted(SERVER_TYPES), answers) if any(e["event"] == "unknown" for e in a["events"])]
    assert not unknown, f"SDK server events vload calls unknown: {unknown}"


def test_every_type_vload_reads_is_still_an_sdk_server_event():
    [answer] = run([{"types_read": True}])
    read = set(answer["types"])
    assert read, "vload lists the types it reads"
    assert read <= SERVER_TYPES, sorted(read - SERVER_TYPES)


def test_endpoint_adds_api_version_and_model():
    (answer,) = run([{"endpoint": "wss://r.services.ai.azure.com/voice-live/realtime"}])
    assert answer["url"] == "wss://r.services.ai.azure.com/voice-live/realtime?api-version=2026-07-15&model=gpt-realtime"
