"""vload's `deepgram-flux` codec (Deepgram Flux, /v2/listen) against the official `deepgram-sdk`
(7.16.0) listen v2 models.

Every frame vload writes must validate strictly against the SDK's request model (no member the
SDK does not know, none it requires missing), its URL must be one the SDK's own
`listen.v2.connect` opens with the same options, and every server message the SDK models (built
from the SDK model, serialized by the SDK) must map to the normalized event its meaning calls
for: never `unknown`, never `malformed`. Where the SDK and vload disagree, vload is wrong.
"""
import json
import typing

import pytest

import deepgram_models as dg
import vload_wire
from deepgram.listen.v2.types import (
    ListenV2CloseStream,
    ListenV2Configure,
    ListenV2ConfigureThresholds,
    ListenV2ForceEndTurn,
    ListenV2TurnInfoEvent,
)

FLUX = "deepgram-flux"
FLUX_BASE = "wss://api.deepgram.com/v2/listen"


def checked(message_type: str) -> None:
    vload_wire.checked("deepgram", f"listen-v2.{message_type}")


def receive(message):
    text = message if isinstance(message, str) else dg.wire_text(message)
    return vload_wire.run(FLUX, [vload_wire.receive_text(text)])[0]


def names(events):
    return [event["event"] for event in events]


# --- Client → server --------------------------------------------------------------------------

@pytest.mark.parametrize(
    "send, model, kind",
    [("commit", ListenV2ForceEndTurn, "ForceEndTurn"), ("stop", ListenV2CloseStream, "CloseStream")],
    ids=["ForceEndTurn", "CloseStream"],
)
def test_control_message(send, model, kind):
    [answer] = vload_wire.run(FLUX, [{"send": send}])
    [frame] = answer["frames"]
    text = vload_wire.frame_text(frame)
    message = dg.validate_strictly(model, text)
    assert message.type == kind
    assert json.loads(text) == json.loads(model(type=kind).model_dump_json()), "not what the SDK itself sends"
    checked(kind)


@pytest.mark.parametrize(
    "settings",
    [{"eager_eot_threshold": 0.5}, {"eot_threshold": 0.8, "eot_timeout_ms": 3000, "keyterms": ["vload"]}],
    ids=["eager", "thresholds-and-keyterms"],
)
def test_configure_step_is_configure(settings):
    """A `configure` step's settings go out as `Configure`: the end-of-turn thresholds in its
    `thresholds` object, the rest beside `type`, as the SDK's `ListenV2Configure` has them."""
    [answer] = vload_wire.run(FLUX, [{"send": "configure", "settings": settings}])
    [frame] = answer["frames"]
    text = vload_wire.frame_text(frame)
    message = dg.validate_strictly(ListenV2Configure, text)
    thresholds = {key: value for key, value in settings.items() if key.startswith("eot") or key.startswith("eager")}
    others = {key: value for key, value in settings.items() if key not in thresholds}
    sdk = ListenV2Configure(thresholds=ListenV2ConfigureThresholds(**thresholds), **others)
    assert json.loads(text) == json.loads(sdk.model_dump_json(exclude_none=True)), "not what the SDK itself sends"
    assert message.type == "Configure"
    checked("Configure")


def test_no_keep_alive_message():
    """The SDK's v2 socket has no keep-alive message: vload sends none."""
    [answer] = vload_wire.run(FLUX, [{"send": "keep_alive"}])
    assert answer["frames"] == []


def test_audio_is_raw_binary():
    [answer] = vload_wire.run(FLUX, [{"send": "audio", "ms": 80}])
    [frame] = answer["frames"]
    assert "binary" in frame
    assert len(vload_wire.frame_bytes(frame)) == 16000 * 80 // 1000 * 2, "80 ms of linear16 at 16 kHz"
    checked("<binary audio>")


SESSIONS = {
    "default": None,
    "thresholds": {"eot_threshold": 0.8, "eager_eot_threshold": 0.5, "eot_timeout_ms": 5000, "keyterm": ["vload", "Flux"], "tag": "vload"},
}


@pytest.mark.parametrize("name", sorted(SESSIONS))
def test_query_matches_sdk_connect(tmp_path, name):
    """Every query parameter is a `listen.v2.connect` option with a value the SDK knows, the
    SDK's required ones are there, and the SDK given the same options opens the same URL."""
    checked("connect")
    session = SESSIONS[name]
    scenario = None if session is None else vload_wire.write_scenario(tmp_path, "flux", FLUX, session=session)
    url = vload_wire.run(FLUX, [{"endpoint": FLUX_BASE}], scenario=scenario)[0]["url"]
    items = dg.query_items(url)
    keys = [key for key, _ in items]
    unknown = sorted(set(keys) - set(dg.LISTEN_V2_CONNECT_HINTS))
    assert not unknown, f"query parameters the SDK does not know: {unknown} in {url}"
    for key, value in items:
        literals = dg.listen_literals(key, dg.LISTEN_V2_CONNECT_HINTS)
        assert literals is None or value in literals, f"{key}={value}: the SDK knows {sorted(literals)}"
    missing = [key for key in dg.LISTEN_V2_CONNECT_REQUIRED if key not in keys]
    assert not missing, f"the SDK requires {missing}; vload's URL has none: {url}"
    options = {}
    for key, value in items:
        options.setdefault(key, []).append(value)
    options = {key: values[0] if len(values) == 1 else values for key, values in options.items()}
    sdk_url = dg.sdk_listen_url("v2", **options)
    assert sorted(dg.query_items(sdk_url)) == sorted(items)
    assert url.split("?")[0] == sdk_url.split("?")[0]
    if name == "default":
        assert dict(items)["model"] == "flux-general-en"


# --- Server → client, one test per SDK message model ---------------------------------------------

#: The `TurnInfo` events the SDK enumerates.
TURN_EVENTS = sorted(
    value
    for arg in typing.get_args(ListenV2TurnInfoEvent)
    if typing.get_origin(arg) is typing.Literal
    for value in typing.get_args(arg)
)


def _turn_info(event, **fields):
    words = [{"word": "Hello", "confidence": 0.99, "start": 0.5, "end": 0.9}, {"word": "there.", "confidence": 0.98, "start": 0.9, "end": 1.3}]
    values = {
        "request_id": "req-7", "sequence_id": 5, "event": event, "turn_index": 2, "audio_window_start": 0.48,
        "audio_window_end": 1.36, "transcript": "Hello there.", "words": words, "end_of_turn_confidence": 0.91,
    }
    values.update(fields)
    return dg.build(dg.LISTEN_V2_SERVER_MODELS_BY_TYPE["TurnInfo"], **values)


RESULT = {"text": "Hello there.", "start_s": 0.48, "duration_s": pytest.approx(0.88), "speech_final": False}

TURN_EXPECTATIONS = {
    "StartOfTurn": ["user.speech_started", "speech_result", "transcript"],
    "Update": ["speech_result", "transcript"],
    "EagerEndOfTurn": ["eager_end_of_turn"],
    "TurnResumed": ["turn_resumed"],
    "EndOfTurn": ["speech_result", "transcript", "user.speech_stopped", "end_of_turn"],
}


def test_turn_events_enumerated():
    """vload maps every event the SDK's `TurnInfo` enumerates, and no other."""
    assert sorted(TURN_EXPECTATIONS) == TURN_EVENTS


@pytest.mark.parametrize("event", TURN_EVENTS)
def test_turn_info(event):
    checked(f"TurnInfo.{event}")
    fields = {"trigger": "model"} if event == "EndOfTurn" else {}
    events = receive(_turn_info(event, **fields))["events"]
    assert names(events) == TURN_EXPECTATIONS[event]
    for result in (e for e in events if e["event"] == "speech_result"):
        assert {key: result[key] for key in RESULT} == RESULT
        assert result["final"] is (event == "EndOfTurn")
        assert result["from_finalize"] is False
    for transcript in (e for e in events if e["event"] == "transcript"):
        assert (transcript["role"], transcript["text"], transcript["final"]) == ("user", "Hello there.", event == "EndOfTurn")


def test_end_of_turn_forced_is_the_finalized_result():
    """`trigger: manual` (the answer to `ForceEndTurn`) is the result a `finalize` step waits for."""
    events = receive(_turn_info("EndOfTurn", trigger="manual"))["events"]
    [result] = [e for e in events if e["event"] == "speech_result"]
    assert result["from_finalize"] is True
    checked("TurnInfo.EndOfTurn")


def test_an_event_flux_may_add_is_unknown_not_malformed():
    """The SDK's event enumeration is open: a newer value is counted as unknown."""
    events = receive(_turn_info("SomethingNew"))["events"]
    assert events == [{"event": "unknown", "type": "TurnInfo.SomethingNew"}]


EXPECTATIONS = {
    "Connected": ({"request_id": "req-7", "sequence_id": 0}, [{"event": "session.ready"}]),
    "ConfigureSuccess": ({"request_id": "req-7", "sequence_id": 3, "thresholds": {"eot_threshold": 0.8}, "keyterms": []}, []),
    "ConfigureFailure": (
        {"request_id": "req-7", "sequence_id": 3, "code": "INVALID_THRESHOLD", "description": "eot_threshold out of range"},
        [{"event": "error", "code": "INVALID_THRESHOLD", "message": "eot_threshold out of range", "fatal": False}],
    ),
    "Warning": (
        {"request_id": "req-7", "sequence_id": 3, "code": "AUDIO_TOO_FAST", "description": "audio sent faster than real time"},
        [{"event": "warning", "code": "AUDIO_TOO_FAST", "message": "audio sent faster than real time"}],
    ),
    "Error": (
        {"sequence_id": 9, "code": "INTERNAL_SERVER_ERROR", "description": "boom"},
        [{"event": "error", "code": "INTERNAL_SERVER_ERROR", "message": "boom", "fatal": True}],
    ),
}


@pytest.mark.parametrize("model", [m for m in dg.LISTEN_V2_SERVER_MODELS if dg.message_type(m) != "TurnInfo"], ids=dg.message_type)
def test_server_message(model):
    kind = dg.message_type(model)
    checked(kind)
    fields, expected = EXPECTATIONS[kind]
    answer = receive(dg.build(model, **fields))
    assert answer["events"] == expected
    assert answer["replies"] == []


def test_server_types_enumerated():
    assert set(EXPECTATIONS) | {"TurnInfo"} == set(dg.LISTEN_V2_SERVER_MODELS_BY_TYPE)


def test_every_type_vload_reads_is_still_an_sdk_message():
    [answer] = vload_wire.run(FLUX, [{"types_read": True}])
    read = set(answer["types"])
    assert read, "vload lists the types it reads"
    assert read <= set(dg.LISTEN_V2_SERVER_MODELS_BY_TYPE), sorted(read - set(dg.LISTEN_V2_SERVER_MODELS_BY_TYPE))
