"""vload's Deepgram codecs against the official `deepgram-sdk` (7.16.0) message models.

`deepgram-agent` (Voice Agent API v1, /v1/agent/converse) and `deepgram-stt` (streaming STT,
/v1/listen): every frame vload writes must validate strictly against the SDK's request model
(no member the SDK does not know, no required one missing, no value outside its enumerations),
and every server message the SDK models (built from the SDK model itself, serialized by the
SDK) must map to the normalized event its meaning calls for — never `unknown`, never
`malformed`. Where the SDK and vload disagree, vload is wrong.
"""
import base64
import json

import pytest

import deepgram_models as dg
import vload_wire
from deepgram.agent.v1.types import (
    AgentV1InjectUserMessage,
    AgentV1KeepAlive,
    AgentV1SendFunctionCallResponse,
    AgentV1Settings,
)
from deepgram.listen.v1.types import ListenV1CloseStream, ListenV1Finalize, ListenV1KeepAlive

AGENT = "deepgram-agent"
LISTEN = "deepgram-stt"
LISTEN_BASE = "wss://api.deepgram.com/v1/listen"


def checked(kind: str, message_type: str) -> None:
    vload_wire.checked("deepgram", f"{kind}.{message_type}")


def receive(dialect, message, scenario=None):
    """vload's answer to one server frame: an SDK instance (serialized by the SDK), text or bytes."""
    if isinstance(message, bytes):
        action = vload_wire.receive_binary(message)
    else:
        action = vload_wire.receive_text(message if isinstance(message, str) else dg.wire_text(message))
    return vload_wire.run(dialect, [action], scenario=scenario)[0]


def only_text_frame(answer) -> str:
    frames = answer["frames"]
    assert len(frames) == 1 and "text" in frames[0], f"expected one text frame, got {frames}"
    return frames[0]["text"]


def of(events, name):
    return [event for event in events if event["event"] == name]


def assert_known(events, message_type):
    """Understood: neither `unknown` nor `malformed`, and no fatal error."""
    bad = [event for event in events if event["event"] in ("unknown", "malformed")]
    assert not bad, f"{message_type}: vload does not understand a valid SDK message: {bad}"
    fatal = [event for event in of(events, "error") if event.get("fatal")]
    assert not fatal, f"{message_type}: a fatal error for a message that is none: {fatal}"


# =========================================================================================
# Voice Agent: client → server
# =========================================================================================

#: User `Settings` documents (the `settings` session parameter), one per shape the SDK models.
USER_SETTINGS = {
    "full": {
        "tags": ["vload", "conformance"],
        "experimental": False,
        "mip_opt_out": True,
        "flags": {"history": True},
        "audio": {"input": {"encoding": "mulaw", "sample_rate": 8000}, "output": {"encoding": "mulaw", "sample_rate": 8000, "container": "wav"}},
        "agent": {
            "listen": {"provider": {"version": "v1", "type": "deepgram", "model": "nova-3", "language": "en", "keyterms": ["vload"], "smart_format": True}},
            "think": {
                "provider": {"type": "open_ai", "model": "gpt-4o-mini", "temperature": 0.7},
                "prompt": "You are a terse assistant.",
                "functions": [
                    {
                        "name": "get_weather",
                        "description": "The weather in a city",
                        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
                    },
                    {
                        "name": "lookup_order",
                        "description": "Runs on the server",
                        "parameters": {"type": "object", "properties": {}},
                        "endpoint": {"url": "https://example.com/orders", "method": "post", "headers": {"authorization": "Bearer x"}},
                    },
                ],
            },
            "speak": {"provider": {"type": "deepgram", "model": "aura-2-thalia-en", "speed": 1.1}},
            "greeting": "Hello! How can I help?",
            "context": {"messages": [{"type": "History", "role": "user", "content": "Hi"}]},
        },
    },
    "provider-lists": {
        "agent": {
            "listen": {"provider": {"type": "deepgram", "model": "nova-3"}},
            "think": [
                {"provider": {"type": "open_ai", "model": "gpt-4o"}, "prompt": "Primary"},
                {"provider": {"type": "anthropic", "model": "claude-3-5-haiku-latest"}, "prompt": "Fallback"},
            ],
            "speak": [
                {"provider": {"type": "deepgram", "model": "aura-2-thalia-en"}},
                {"provider": {"type": "open_ai", "model": "tts-1", "voice": "alloy"},
                 "endpoint": {"url": "https://api.openai.com/v1/audio/speech", "headers": {"authorization": "Bearer x"}}},
            ],
        },
    },
    "listen-v2": {
        "agent": {
            "listen": {"provider": {"version": "v2", "type": "deepgram", "model": "flux-general-en", "eot_threshold": 0.7, "eot_timeout_ms": 5000}},
            "think": {"provider": {"type": "open_ai", "model": "gpt-4o-mini"}, "prompt": "Be brief."},
            "speak": {"provider": {"type": "deepgram", "model": "aura-2-thalia-en"}},
        },
    },
    "agent-id": {"agent": "0f6c2bd4-agent-configuration-id"},
}


def _start_and_welcome(tmp_path, session):
    scenario = None if session is None else vload_wire.write_scenario(tmp_path, "dg", AGENT, session=session)
    start, audio, welcome = vload_wire.run(
        AGENT,
        [{"send": "start"}, {"send": "audio", "ms": 40}, vload_wire.receive_text(dg.wire_text(dg.build(dg.AGENT_SERVER_MODELS_BY_TYPE["Welcome"])))],
        scenario=scenario,
    )
    return only_text_frame(start), audio, welcome



def _assert_audio_formats(settings, audio_answer):
    """`audio.input` announces the audio vload sends; `audio.output` asks for raw audio."""
    raw = base64.b64decode(audio_answer["audio"])
    assert vload_wire.frame_bytes(audio_answer["frames"][0]) == raw, "the audio frame is not the raw audio"
    audio_in = settings.audio.input
    assert audio_in is not None, "Settings without audio.input: the server would assume linear16 24 kHz"
    bytes_per_sample = {"linear16": 2, "mulaw": 1, "alaw": 1}[audio_in.encoding]
    assert len(raw) == audio_in.sample_rate * 40 // 1000 * bytes_per_sample, (
        f"40 ms of audio is {len(raw)} bytes, not {audio_in.encoding} at {audio_in.sample_rate} Hz"
    )
    assert settings.audio.output is not None and settings.audio.output.container == "none"


def test_agent_settings_default(tmp_path):
    """No session block: vload's own agent, valid for the SDK, and the same text on Welcome."""
    text, audio, welcome = _start_and_welcome(tmp_path, None)
    settings = dg.validate_strictly(AgentV1Settings, text)
    _assert_audio_formats(settings, audio)
    assert [vload_wire.frame_text(reply) for reply in welcome["replies"]] == [text]
    checked("agent", "Settings")


def test_agent_settings_default_uses_no_deprecated_field(tmp_path):
    """What vload writes by itself follows the SDK: no field the SDK documents as deprecated."""
    checked("agent", "Settings")
    text, _, _ = _start_and_welcome(tmp_path, {"other": 1})
    settings = dg.validate_strictly(AgentV1Settings, text)
    assert not dg.deprecated_fields(settings), f"vload's default Settings uses deprecated fields: {dg.deprecated_fields(settings)}"


@pytest.mark.parametrize("name", sorted(USER_SETTINGS))
def test_agent_settings_user_document(tmp_path, name):
    """A user `Settings` document: valid for the SDK, kept as written but for the audio formats."""
    document = USER_SETTINGS[name]
    text, audio, welcome = _start_and_welcome(tmp_path, {"settings": document})
    settings = dg.validate_strictly(AgentV1Settings, text)
    _assert_audio_formats(settings, audio)
    sent = json.loads(text)
    for key, value in document.items():
        if key != "audio":
            assert sent[key] == value, f"Settings.{key} is not the user's: {sent[key]!r}"
    assert [vload_wire.frame_text(reply) for reply in welcome["replies"]] == [text]
    checked("agent", "Settings")


def test_agent_keep_alive():
    text = only_text_frame(vload_wire.run(AGENT, [{"send": "keep_alive"}])[0])
    dg.validate_strictly(AgentV1KeepAlive, text)
    checked("agent", "KeepAlive")


def test_agent_inject_user_message():
    content = 'What\'s the weather in "Paris"? — ünïcode ✓'
    text = only_text_frame(vload_wire.run(AGENT, [{"send": "text", "text": content}])[0])
    message = dg.validate_strictly(AgentV1InjectUserMessage, text)
    assert message.content == content
    checked("agent", "InjectUserMessage")


def test_agent_function_call_response():
    output = json.dumps({"temperature_c": 18, "sky": "cloudy"})
    action = {"send": "tool_result", "call_id": "fc_12345678-90ab", "name": "get_weather", "output": output}
    text = only_text_frame(vload_wire.run(AGENT, [action])[0])
    message = dg.validate_strictly(AgentV1SendFunctionCallResponse, text)
    assert (message.id, message.name, message.content) == ("fc_12345678-90ab", "get_weather", output)
    checked("agent", "FunctionCallResponse")


def test_agent_sends_nothing_before_welcome():
    """The client must wait for Welcome; the agent API has no close message."""
    opened, stopped = vload_wire.run(AGENT, [{"send": "open"}, {"send": "stop"}])
    assert opened["frames"] == [] and stopped["frames"] == []


# =========================================================================================
# Voice Agent: server → client, one test per SDK message model
# =========================================================================================

def _expect_welcome(events, replies):
    assert events == [{"event": "session.started", "ids": {"request_id": "req-42"}}]
    assert len(replies) == 1, f"Welcome must be answered with Settings, got {replies}"
    dg.validate_strictly(AgentV1Settings, vload_wire.frame_text(replies[0]))


def _expect_names(*names):
    def expect(events, replies):
        assert [event["event"] for event in events] == list(names)
    return expect


def _expect_user_transcript(events, replies):
    assert events == [{"event": "transcript", "role": "user", "text": "what's the weather", "final": True}]


def _latencies(events):
    return {event["name"]: event["value_ms"] for event in of(events, "server_latency")}


def _expect_agent_started(events, replies):
    assert [event["event"] for event in events][:1] == ["agent.speech_started"]
    assert _latencies(events) == pytest.approx(
        {"server_total_latency_ms": 1250.0, "server_tts_latency_ms": 500.0, "server_ttt_latency_ms": 750.0}
    )
    assert len(events) == 4, events


def _expect_audio_done(events, replies):
    names = [event["event"] for event in events]
    assert "turn.complete" in names and "agent.speech_ended" in names, f"AgentAudioDone must end the agent's turn: {events}"


LATENCY_REPORT = {
    "stt_latency": 0.1, "ttt_token_latency": 0.2, "ttt_text_latency": 0.3, "ttt_tool_latency": 0.05,
    "ttt_thinking_latency": 0.15, "tts_latency": 0.25, "total_latency": 1.05,
}


def _expect_latency_report(events, replies):
    assert_known(events, "LatencyReport")
    expected = {f"server_{field}_ms": seconds * 1000 for field, seconds in LATENCY_REPORT.items()}
    assert _latencies(events) == pytest.approx(expected)


def _expect_function_call(events, replies):
    assert events == [{
        "event": "tool.call", "name": "get_weather", "status": "requested", "id": "fc_1",
        "arguments": '{"city":"Paris"}',
    }]


def _expect_function_cancelled(events, replies):
    # Assumed shape: a `tool.call` of the same id and name with status "cancelled".
    assert_known(events, "FunctionCallCancelled")
    assert events == [{"event": "tool.call", "name": "get_weather", "status": "cancelled", "id": "fc_1"}], (
        f"FunctionCallCancelled must withdraw pending call fc_1: {events}"
    )


def _expect_error(events, replies):
    assert events == [{"event": "error", "code": "FAILED_TO_THINK", "message": "The LLM failed.", "fatal": True}]


def _expect_warning(events, replies):
    assert_known(events, "Warning")
    carrying = [
        event for event in events
        if event.get("code") == "SLOW_THINK_REQUEST"
        and (event["event"] == "warning" or (event["event"] == "error" and event.get("fatal") is False))
    ]
    assert len(carrying) == 1, f"Warning must give one non-fatal event with its code: {events}"


def _expect_known(events, replies):
    pass  # assert_known runs for every message


#: Per message type: the fields that matter (on top of the SDK-built minimal instance) and the
#: events vload must give. A type the SDK adds later gets `_expect_known`.
AGENT_EXPECTATIONS = {
    "Welcome": ({"request_id": "req-42"}, _expect_welcome),
    "SettingsApplied": ({}, _expect_names("session.ready")),
    "ConversationText": ({"role": "user", "content": "what's the weather"}, _expect_user_transcript),
    "UserStartedSpeaking": ({}, _expect_names("user.speech_started")),
    "AgentStartedSpeaking": ({"total_latency": 1.25, "tts_latency": 0.5, "ttt_latency": 0.75}, _expect_agent_started),
    "AgentAudioDone": ({}, _expect_audio_done),
    "LatencyReport": (LATENCY_REPORT, _expect_latency_report),
    "FunctionCallRequest": (
        {"functions": [{"id": "fc_1", "name": "get_weather", "arguments": '{"city":"Paris"}', "client_side": True}]},
        _expect_function_call,
    ),
    "FunctionCallCancelled": ({"functions": [{"id": "fc_1", "name": "get_weather"}]}, _expect_function_cancelled),
    "Error": ({"code": "FAILED_TO_THINK", "description": "The LLM failed."}, _expect_error),
    "Warning": ({"code": "SLOW_THINK_REQUEST", "description": "The LLM is slow."}, _expect_warning),
    "History": ({}, _expect_known),
    "InjectionRefused": ({"message": "The agent is speaking."}, _expect_known),
    "FunctionCallResponse": ({"id": "fc_1", "name": "get_weather", "content": '{"ok":true}'}, _expect_known),
}


def _agent_model_id(model):
    kind = dg.message_type(model)
    return kind if kind != "History" else f"History-{model.__name__}"


@pytest.mark.parametrize("model", dg.AGENT_SERVER_MODELS, ids=_agent_model_id)
def test_agent_server_message(model):
    kind = dg.message_type(model)
    checked("agent", kind if kind != "FunctionCallResponse" else "FunctionCallResponse.server")
    overrides, expect = AGENT_EXPECTATIONS.get(kind, ({}, _expect_known))
    if model.__name__ == "ConversationHistoryMessage":
        overrides = {"role": "assistant", "content": "Hello!"}
    if model.__name__ == "FunctionCallHistoryMessage":
        overrides = {"function_calls": [{"id": "fc_1", "name": "get_weather", "client_side": True, "arguments": "{}", "response": "{}"}]}
    message = dg.build(model, **overrides)
    answer = receive(AGENT, message)
    events, replies = answer["events"], answer["replies"]
    if expect is not _expect_error:
        assert_known(events, kind)
    expect(events, replies)
    if kind != "Welcome":
        assert replies == [], f"{kind}: unexpected replies {replies}"


def test_agent_server_types_enumerated():
    """The SDK's receive union is where the server messages come from: it must hold the ones
    this file gives meanings to, so that none is silently skipped."""
    sdk_types = set(dg.AGENT_SERVER_MODELS_BY_TYPE)
    assert set(AGENT_EXPECTATIONS) <= sdk_types, set(AGENT_EXPECTATIONS) - sdk_types
    assert dg.AGENT_SERVER_SENDS_BINARY


def test_agent_function_call_server_side():
    """`client_side: false`: the server runs the function; vload must not answer it."""
    message = dg.build(dg.AGENT_SERVER_MODELS_BY_TYPE["FunctionCallRequest"], functions=[
        {"id": "fc_1", "name": "get_weather", "arguments": "{}", "client_side": True},
        {"id": "fc_2", "name": "lookup_order", "arguments": '{"order":7}', "client_side": False},
    ])
    events = receive(AGENT, message)["events"]
    assert [(event["event"], event.get("id"), event.get("name")) for event in events] == [
        ("tool.call", "fc_1", "get_weather"), ("tool.call", "fc_2", "lookup_order"),
    ]
    assert events[0]["status"] == "requested"
    assert events[1]["status"] != "requested", "a server-side function (client_side false) is one vload must not answer"
    assert events[1]["arguments"] == '{"order":7}'
    checked("agent", "FunctionCallRequest")


def test_agent_conversation_text_assistant():
    message = dg.build(dg.AGENT_SERVER_MODELS_BY_TYPE["ConversationText"], role="assistant", content="It is sunny.")
    events = receive(AGENT, message)["events"]
    assert len(events) == 1 and events[0]["event"] == "transcript", events
    assert events[0]["role"] in ("assistant", "agent") and events[0]["text"] == "It is sunny." and events[0]["final"] is True
    checked("agent", "ConversationText")


#: The `conversational_behavior` values vload treats as asides (not the answer); every other
#: value of the SDK's literal is a standard turn.
ASIDE_BEHAVIORS = {"backchannel", "filler", "presence_check"}


def test_agent_aside_behaviors_are_the_sdks():
    """The behaviors vload sets apart are the SDK's non-default ones, no more, no fewer."""
    annotation = dg.AGENT_SERVER_MODELS_BY_TYPE["ConversationText"].model_fields["conversational_behavior"].annotation
    assert dg._open_enum_literals(annotation) == ASIDE_BEHAVIORS | {"default"}


@pytest.mark.parametrize("behavior", sorted(ASIDE_BEHAVIORS))
def test_agent_aside_is_not_the_answer(behavior):
    """A backchannel (filler, presence check) and its audio neither start nor end the turn;
    the `default` line after it does."""
    model = dg.AGENT_SERVER_MODELS_BY_TYPE["ConversationText"]
    started = dg.build(dg.AGENT_SERVER_MODELS_BY_TYPE["AgentStartedSpeaking"], total_latency=0.2, tts_latency=0.1, ttt_latency=0.1)
    done = dg.build(dg.AGENT_SERVER_MODELS_BY_TYPE["AgentAudioDone"])
    report = dg.build(dg.AGENT_SERVER_MODELS_BY_TYPE["LatencyReport"], **LATENCY_REPORT)
    frames = []
    for content, kind in (("Mm-hmm.", behavior), ("It is sunny.", "default")):
        line = dg.build(model, role="assistant", content=content, conversational_behavior=kind)
        frames += [vload_wire.receive_text(dg.wire_text(line)), vload_wire.receive_text(dg.wire_text(started)),
                   vload_wire.receive_binary(bytes(4800)), vload_wire.receive_text(dg.wire_text(done)),
                   vload_wire.receive_text(dg.wire_text(report))]
    answers = vload_wire.run(AGENT, frames)
    aside, answer = [[event for a in answers[i:i + 5] for event in a["events"]] for i in (0, 5)]
    assert [event["event"] for event in aside] == ["transcript"], aside
    assert "agent.audio" in [event["event"] for event in answer] and "turn.complete" in [event["event"] for event in answer], answer
    checked("agent", f"ConversationText.{behavior}")


def test_agent_binary_audio():
    """Binary frames are agent audio (linear16 24 kHz, as vload's Settings asks)."""
    events = receive(AGENT, bytes(4800))["events"]
    assert len(events) == 1 and events[0]["event"] == "agent.audio", events
    assert (events[0]["bytes"], events[0]["duration_us"]) == (4800, 100_000)
    checked("agent", "<binary audio>")


# =========================================================================================
# Streaming STT: client → server
# =========================================================================================

@pytest.mark.parametrize(
    "send, model, kind",
    [("keep_alive", ListenV1KeepAlive, "KeepAlive"), ("commit", ListenV1Finalize, "Finalize"), ("stop", ListenV1CloseStream, "CloseStream")],
    ids=["KeepAlive", "Finalize", "CloseStream"],
)
def test_listen_control_message(send, model, kind):
    text = only_text_frame(vload_wire.run(LISTEN, [{"send": send}])[0])
    message = dg.validate_strictly(model, text)
    assert message.type == kind
    assert json.loads(text) == dg._sanitize_numeric_types(model(type=kind).dict()), "not what the SDK itself sends"
    checked("listen", kind)


LISTEN_SESSIONS = {
    "default": None,
    "custom": {
        "model": "nova-2", "language": "en-US", "keyterm": ["vload", "Deepgram"], "smart_format": True,
        "punctuate": True, "interim_results": False, "endpointing": None, "utterance_end_ms": 1500, "tag": "vload",
    },
}


def _listen_url(tmp_path, session, base=LISTEN_BASE):
    scenario = None if session is None else vload_wire.write_scenario(tmp_path, "dg", LISTEN, session=session)
    return vload_wire.run(LISTEN, [{"endpoint": base}], scenario=scenario)[0]["url"]


@pytest.mark.parametrize("name", sorted(LISTEN_SESSIONS))
def test_listen_query_matches_sdk_connect(tmp_path, name):
    """Every query parameter is a `listen.v1.connect` option with a value the SDK knows, the
    SDK's required ones are there, and the SDK given the same options opens the same URL."""
    checked("listen", "connect")
    url = _listen_url(tmp_path, LISTEN_SESSIONS[name])
    items = dg.query_items(url)
    names = [key for key, _ in items]
    unknown = sorted(set(names) - set(dg.LISTEN_CONNECT_HINTS))
    assert not unknown, f"query parameters the SDK does not know: {unknown} in {url}"
    for key, value in items:
        literals = dg.listen_literals(key)
        assert literals is None or value in literals, f"{key}={value}: the SDK knows {sorted(literals)}"
    missing = [key for key in dg.LISTEN_CONNECT_REQUIRED if key not in names]
    assert not missing, f"the SDK requires {missing}; vload's URL has none: {url}"
    options = {}
    for key, value in items:
        options[key] = options[key] + [value] if key in options and isinstance(options[key], list) else (
            [options[key], value] if key in options else value
        )
    sdk_url = dg.sdk_listen_url(**options)
    assert sorted(dg.query_items(sdk_url)) == sorted(items)
    assert url.split("?")[0] == sdk_url.split("?")[0]


def test_listen_default_model_is_nova3(tmp_path):
    items = dg.query_items(_listen_url(tmp_path, None))
    assert [value for key, value in items if key == "model"] == ["nova-3"], f"default query: {items}"


@pytest.mark.parametrize(
    "session, base, expected",
    [({"model": "nova-2"}, LISTEN_BASE, "nova-2"), (None, LISTEN_BASE + "?model=nova-2-phonecall", "nova-2-phonecall")],
    ids=["session", "url"],
)
def test_listen_model_overridable(tmp_path, session, base, expected):
    items = dg.query_items(_listen_url(tmp_path, session, base))
    assert [value for key, value in items if key == "model"] == [expected], f"query: {items}"


# =========================================================================================
# Streaming STT: server → client, one test per SDK message model
# =========================================================================================

def _results(**fields):
    words = [
        {"word": "hello", "start": 1.5, "end": 1.9, "confidence": 0.99, "punctuated_word": "Hello"},
        {"word": "world", "start": 1.9, "end": 2.25, "confidence": 0.98, "punctuated_word": "world."},
    ]
    values = {
        "channel_index": [0, 1], "start": 1.5, "duration": 0.75,
        "channel": {"alternatives": [{"transcript": "Hello world.", "confidence": 0.98, "words": words}]},
    }
    values.update(fields)
    return dg.build(dg.LISTEN_SERVER_MODELS_BY_TYPE["Results"], **values)



def _expect_final_results(events):
    assert events == [
        {"event": "speech_result", "text": "Hello world.", "final": True, "speech_final": True,
         "start_s": 1.5, "duration_s": 0.75, "from_finalize": True},
        {"event": "transcript", "role": "user", "text": "Hello world.", "final": True},
        {"event": "user.speech_stopped"},
    ]


def _expect_listen_error(events):
    # Assumed: Deepgram closes the stream after an Error, so the error is fatal.
    assert events == [{"event": "error", "code": "NET-0001", "message": "No audio received.", "fatal": True}]


def _expect_listen(*names):
    def expect(events):
        assert [event["event"] for event in events] == list(names)
    return expect


LISTEN_EXPECTATIONS = {
    "Results": (None, _expect_final_results),
    "SpeechStarted": ({"channel": [0, 1], "timestamp": 2.5}, _expect_listen("user.speech_started")),
    "UtteranceEnd": ({"channel": [0, 1], "last_word_end": 2.25}, _expect_listen("utterance_end")),
    "Metadata": ({"request_id": "req-42", "duration": 12.5, "channels": 1}, _expect_listen("session.ended")),
    "Error": ({"variant": "error", "code": "NET-0001", "description": "No audio received."}, _expect_listen_error),
}


@pytest.mark.parametrize("model", dg.LISTEN_SERVER_MODELS, ids=dg.message_type)
def test_listen_server_message(model):
    kind = dg.message_type(model)
    checked("listen", kind)
    overrides, expect = LISTEN_EXPECTATIONS.get(kind, ({}, lambda events: None))
    message = _results(is_final=True, speech_final=True, from_finalize=True) if kind == "Results" else dg.build(model, **overrides)
    answer = receive(LISTEN, message)
    if kind != "Error":
        assert_known(answer["events"], kind)
    expect(answer["events"])
    assert answer["replies"] == []


def test_listen_interim_results():
    events = receive(LISTEN, _results(is_final=False, speech_final=False))["events"]
    assert events == [
        {"event": "speech_result", "text": "Hello world.", "final": False, "speech_final": False,
         "start_s": 1.5, "duration_s": 0.75, "from_finalize": False},
        {"event": "transcript", "role": "user", "text": "Hello world.", "final": False},
    ]
    checked("listen", "Results")


def test_listen_results_from_finalize_without_speech_final():
    events = receive(LISTEN, _results(is_final=True, speech_final=False, from_finalize=True))["events"]
    assert of(events, "speech_result") and of(events, "speech_result")[0]["from_finalize"] is True
    assert not of(events, "user.speech_stopped")
    checked("listen", "Results")


def test_listen_server_types_enumerated():
    assert set(LISTEN_EXPECTATIONS) <= set(dg.LISTEN_SERVER_MODELS_BY_TYPE)


# =========================================================================================
# The checker itself: it must reject what the SDK does not accept
# =========================================================================================

GOOD_SETTINGS = {
    "type": "Settings",
    "audio": {"input": {"encoding": "linear16", "sample_rate": 16000}, "output": {"encoding": "linear16", "sample_rate": 24000, "container": "none"}},
    "agent": {"listen": {"provider": {"type": "deepgram", "model": "nova-3"}},
              "think": {"provider": {"type": "open_ai", "model": "gpt-4o-mini"}, "prompt": "p"},
              "speak": {"provider": {"type": "deepgram", "model": "aura-2-thalia-en"}}},
}


def _mutated(path, value):
    document = json.loads(json.dumps(GOOD_SETTINGS))
    *parents, last = path
    target = document
    for key in parents:
        target = target[key]
    if value is KeyError:
        del target[last]
    else:
        target[last] = value
    return json.dumps(document)


@pytest.mark.parametrize("path, value", [
    (("agent", "think", "provider", "colour"), "blue"),           # a member the SDK does not know
    (("audio", "input", "sample_rate"), 16000.0),                 # a float where the SDK wants an int
    (("audio", "output", "container"), "mp4"),                    # a value outside an SDK enumeration
    (("audio",), KeyError),                                       # a required member missing
    (("agent", "speak", "provider", "model"), 7),                 # the wrong JSON type
], ids=["unknown-member", "float-for-int", "unknown-enum-value", "missing-required", "wrong-type"])
def test_strict_checker_rejects(path, value):
    dg.validate_strictly(AgentV1Settings, json.dumps(GOOD_SETTINGS))
    with pytest.raises(AssertionError):
        dg.validate_strictly(AgentV1Settings, _mutated(path, value))


# =========================================================================================
# The other way round: every message type vload reads is one the SDK still defines
# =========================================================================================

@pytest.mark.parametrize("dialect, sdk_types", [
    (AGENT, dg.AGENT_SERVER_MODELS_BY_TYPE), (LISTEN, dg.LISTEN_SERVER_MODELS_BY_TYPE),
], ids=["agent", "listen"])
def test_every_type_vload_reads_is_still_an_sdk_message(dialect, sdk_types):
    """A server message type vload reads by name that the SDK's receive union no longer
    defines fails here."""
    [answer] = vload_wire.run(dialect, [{"types_read": True}])
    read = set(answer["types"])
    assert read, "vload lists the types it reads"
    assert read <= set(sdk_types), sorted(read - set(sdk_types))
