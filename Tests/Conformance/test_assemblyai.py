"""vload's `assemblyai-v3` codec (AssemblyAI Universal-Streaming v3, /v3/ws) against the official
`assemblyai` SDK (1.8.2) streaming v3 models.

Every control message vload writes must be one of the SDK's operation models with no member the
model does not define; every query parameter of its URL must be a field of the SDK's
`StreamingParameters` with a value the SDK accepts (its enumerations included); and every server
message the SDK models must map to the normalized event its meaning calls for, never `unknown`,
never `malformed`. Where the SDK and vload disagree, vload is wrong.
"""
import json
import typing
import urllib.parse

import pytest

import vload_wire
from assemblyai.streaming.v3 import models as aai

DIALECT = "assemblyai-v3"
BASE = "wss://streaming.assemblyai.com/v3/ws"


def checked(message_type: str) -> None:
    vload_wire.checked("assemblyai", message_type)


def message_type(model) -> str:
    return typing.get_args(model.model_fields["type"].annotation)[0]


SERVER_MODELS = list(typing.get_args(aai.EventMessage))
SERVER_MODELS_BY_TYPE = {message_type(model): model for model in SERVER_MODELS}


def strictly(model, text: str):
    """`text` as `model`, with no member the model does not define."""
    data = json.loads(text)
    unknown = sorted(set(data) - set(model.model_fields))
    assert not unknown, f"{model.__name__} does not define {unknown} in vload's {text}"
    return model.model_validate(data, strict=True)


@pytest.mark.parametrize(
    "send, model",
    [("commit", aai.ForceEndpoint), ("stop", aai.TerminateSession), ("keep_alive", aai.KeepAlive)],
    ids=["ForceEndpoint", "Terminate", "KeepAlive"],
)
def test_control_message(send, model):
    [answer] = vload_wire.run(DIALECT, [{"send": send}])
    [frame] = answer["frames"]
    text = vload_wire.frame_text(frame)
    strictly(model, text)
    assert json.loads(text) == json.loads(model().model_dump_json(exclude_none=True)), "not what the SDK itself sends"
    checked(message_type(model))


def test_configure_step_is_update_configuration():
    """A `configure` step's settings go out as `UpdateConfiguration`, beside its `type`, and the
    SDK's model takes every one of them."""
    settings = {"end_of_turn_confidence_threshold": 0.6, "min_turn_silence": 400, "format_turns": True, "keyterms_prompt": ["vload"]}
    [answer] = vload_wire.run(DIALECT, [{"send": "configure", "settings": settings}])
    [frame] = answer["frames"]
    text = vload_wire.frame_text(frame)
    message = strictly(aai.UpdateConfiguration, text)
    assert message.type == "UpdateConfiguration"
    assert json.loads(text) == json.loads(aai.UpdateConfiguration(**settings).model_dump_json(exclude_none=True)), "not what the SDK itself sends"
    checked("UpdateConfiguration")


def test_audio_is_raw_binary():
    [answer] = vload_wire.run(DIALECT, [{"send": "audio", "ms": 50}])
    [frame] = answer["frames"]
    assert len(vload_wire.frame_bytes(frame)) == 16000 * 50 // 1000 * 2
    checked("<binary audio>")


SESSIONS = {
    "default": None,
    "tuned": {"format_turns": True, "end_of_turn_confidence_threshold": 0.6, "min_turn_silence": 400, "keyterms_prompt": ["vload", "AssemblyAI"]},
}


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_query_is_sdk_streaming_parameters(tmp_path, name):
    """Every query parameter is a field of the SDK's StreamingParameters, the SDK accepts the
    values (lists as the JSON text the SDK itself writes), and `speech_model` is there."""
    checked("connect")
    session = SESSIONS[name]
    scenario = None if session is None else vload_wire.write_scenario(tmp_path, "aai", DIALECT, session=session)
    url = vload_wire.run(DIALECT, [{"endpoint": BASE}], scenario=scenario)[0]["url"]
    assert url.split("?")[0] == BASE
    items = urllib.parse.parse_qsl(urllib.parse.urlsplit(url).query)
    unknown = sorted({key for key, _ in items} - set(aai.StreamingParameters.model_fields))
    assert not unknown, f"query parameters the SDK does not know: {unknown} in {url}"
    values = {key: json.loads(value) if value.startswith("[") else value for key, value in items}
    parameters = aai.StreamingParameters.model_validate(values)
    assert parameters.speech_model is not None and parameters.sample_rate == 16000
    assert parameters.encoding == aai.Encoding.pcm_s16le
    if session:
        assert parameters.format_turns is True and parameters.keyterms_prompt == ["vload", "AssemblyAI"]


def _words():
    return [
        {"start": 480, "end": 900, "confidence": 0.99, "text": "Hello", "word_is_final": True},
        {"start": 900, "end": 1360, "confidence": 0.98, "text": "there.", "word_is_final": True},
    ]


def _turn(**fields):
    values = {
        "type": "Turn", "turn_order": 3, "turn_is_formatted": False, "end_of_turn": False, "transcript": "Hello there.",
        "end_of_turn_confidence": 0.2, "words": _words(),
    }
    values.update(fields)
    return aai.TurnEvent.model_validate(values)


EXPECTATIONS = {
    "Begin": ({"id": "s-1", "expires_at": "2026-11-27T13:00:00Z"}, [{"event": "session.ready"}]),
    "SpeechStarted": ({"timestamp": 480}, [{"event": "user.speech_started"}]),
    "Termination": ({"audio_duration_seconds": 3, "session_duration_seconds": 4}, [{"event": "session.ended", "reason": "termination"}]),
    "Error": ({"error_code": 3005, "error": "Server error"}, [{"event": "error", "code": "3005", "message": "Server error", "fatal": True}]),
    "Warning": ({"warning_code": 7, "warning": "slow"}, [{"event": "warning", "code": "7", "message": "slow"}]),
    "Heartbeat": ({"total_audio_received_ms": 100, "total_duration_ms": 120, "realtime_factor": 1.2}, []),
    "Silence": ({"start_ms": 0, "end_ms": 1000}, []),
    "LLMGatewayResponse": ({"turn_order": 3, "transcript": "Hello there.", "data": {}}, []),
    "SpeakerRevision": ({"revisions": []}, []),
}


def receive(instance):
    return vload_wire.run(DIALECT, [vload_wire.receive_text(instance.model_dump_json())])[0]


@pytest.mark.parametrize("kind", sorted(EXPECTATIONS))
def test_server_message(kind):
    checked(kind)
    fields, expected = EXPECTATIONS[kind]
    answer = receive(SERVER_MODELS_BY_TYPE[kind].model_validate({"type": kind, **fields}))
    assert answer["events"] == expected
    assert answer["replies"] == []


def test_server_types_enumerated():
    assert set(EXPECTATIONS) | {"Turn"} == set(SERVER_MODELS_BY_TYPE)


def test_partial_turn_is_an_interim_result():
    checked("Turn")
    events = receive(_turn())["events"]
    assert [e["event"] for e in events] == ["speech_result", "transcript"]
    assert (events[0]["final"], events[0]["start_s"], events[0]["duration_s"]) == (False, 0.48, pytest.approx(0.88))


def test_ended_turn_ends_the_turn_once_and_its_formatted_copy_is_the_final_transcript():
    checked("Turn")
    actions = [
        vload_wire.receive_text(_turn(end_of_turn=True).model_dump_json()),
        vload_wire.receive_text(_turn(end_of_turn=True, turn_is_formatted=True).model_dump_json()),
    ]
    ended, formatted = vload_wire.run(DIALECT, actions)
    assert [e["event"] for e in ended["events"]] == ["speech_result", "transcript", "user.speech_stopped", "end_of_turn"]
    assert ended["events"][0]["final"] is True
    assert formatted["events"] == [{"event": "transcript", "role": "user", "text": "Hello there.", "final": True}]


def test_every_type_vload_reads_is_still_an_sdk_message():
    [answer] = vload_wire.run(DIALECT, [{"types_read": True}])
    read = set(answer["types"])
    assert read and read <= set(SERVER_MODELS_BY_TYPE), sorted(read - set(SERVER_MODELS_BY_TYPE))
