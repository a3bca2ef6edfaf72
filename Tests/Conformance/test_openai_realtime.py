"""vload's `openai-realtime` dialect codec against the official `openai` SDK's message models.

The SDK (openai==3.51.0, `openai.types.realtime`, beta `openai.types.beta.realtime`) is the
judge: every client event vload writes must validate against the SDK's client event union with
no field the SDK does not know, and every server event type of the SDK's server unions, built
and serialized by the SDK itself, must decode to the normalized events vload measures from (docs/conformance.md)
(and the types vload does not measure to no event at all: never `unknown`, never `malformed`).
"""
import base64
import json
import math
import struct
import warnings

import pytest

import openai_realtime_models as sdk
import vload_wire
from openai.types.realtime.realtime_session_create_request import RealtimeSessionCreateRequest

DIALECT = "openai-realtime"
SDK = "openai"
PCM_24K = {"type": "audio/pcm", "rate": 24000}
PCMU = {"type": "audio/pcmu"}


def run(actions, scenario=None):
    return vload_wire.run(DIALECT, actions, scenario=scenario)


def tone_pcm16(samples: int, rate: int = 24000) -> bytes:
    """Real PCM16 little-endian audio: a 440 Hz tone."""
    return b"".join(
        struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * n / rate))) for n in range(samples)
    )


AGENT_PCM = tone_pcm16(480)  # 960 bytes: 20 ms at 24 kHz
AGENT_PCM_B64 = base64.b64encode(AGENT_PCM).decode()


# ---------------------------------------------------------------------------------------------
# Client events

def client_events(answer) -> list:
    """The frames of one answer, each strictly validated by the SDK: [(raw dict, SDK model)]."""
    events = []
    for frame in answer["frames"]:
        assert "text" in frame, f"OpenAI Realtime events are text frames, got {frame}"
        text = vload_wire.frame_text(frame)
        model = sdk.strict_validate(text, sdk.GA_CLIENT_UNION)
        vload_wire.checked(SDK, model.type)
        events.append((model.model_dump(mode="json", exclude_unset=True), model))
    return events


def single_event(answer, expected_type):
    events = client_events(answer)
    assert [raw["type"] for raw, _ in events] == [expected_type], f"frames: {answer['frames']}"
    return events[0]


@pytest.fixture(params=["block", "nested"])
def spelling(request):
    """How a scenario gives OpenAI session fields: as its `session:` block itself (`block`), or
    nested in it, `session: {session: {...}}` (`nested`, the older spelling README.md names)."""
    return request.param


def scenario_file(tmp_path, session, spelling="block", name="scenario"):
    return vload_wire.write_scenario(
        tmp_path, name, DIALECT, session=session if spelling == "block" else {"session": session}
    )


def session_updates(tmp_path, session, spelling="block"):
    """The `session.update` vload sends on open and on start for a scenario with `session`
    (`...` for a scenario without a session block, None for no scenario at all)."""
    scenario = None
    if session is ...:
        scenario = vload_wire.write_scenario(tmp_path, "no_session", DIALECT)
    elif session is not None:
        scenario = scenario_file(tmp_path, session, spelling)
    on_open, on_start = run([{"send": "open"}, {"send": "start"}], scenario=scenario)
    updates = []
    for answer in (on_open, on_start):
        raw, model = single_event(answer, "session.update")
        assert isinstance(model.session, RealtimeSessionCreateRequest), (
            f"the SDK reads the session as {type(model.session).__name__}, not a realtime session: {raw}"
        )
        updates.append(raw["session"])
    assert updates[0] == updates[1], "open and start send different session.update events"
    return updates[0]


def audio_input(session) -> dict:
    return session.get("audio", {}).get("input", {})


def assert_pcm_24k(session):
    for direction in ("input", "output"):
        fmt = session["audio"][direction]["format"]
        assert fmt == PCM_24K, f"audio.{direction}.format is {fmt}"
        assert type(fmt["rate"]) is int, f"audio.{direction}.format.rate is {fmt['rate']!r}, not an integer"


@pytest.mark.parametrize("scenario", ["none", "no_session_block"])
def test_session_update_defaults(tmp_path, scenario):
    """(a) No session block: a realtime session with server VAD, transcription, PCM 24 kHz."""
    session = session_updates(tmp_path, None if scenario == "none" else ...)
    assert session["type"] == "realtime"
    turn_detection = audio_input(session).get("turn_detection")
    assert turn_detection is not None and turn_detection["type"] == "server_vad", turn_detection
    transcription = audio_input(session).get("transcription")
    assert transcription and transcription.get("model"), f"no input transcription: {transcription}"
    assert_pcm_24k(session)


def test_session_update_semantic_vad(tmp_path, spelling):
    """(b) Semantic VAD with eagerness high."""
    session = session_updates(
        tmp_path, {"audio": {"input": {"turn_detection": {"type": "semantic_vad", "eagerness": "high"}}}}, spelling
    )
    assert audio_input(session)["turn_detection"] == {"type": "semantic_vad", "eagerness": "high"}
    assert_pcm_24k(session)


def test_session_update_manual_turns_ga(tmp_path, spelling):
    """(c) Manual turns, GA spelling: `audio.input.turn_detection` present and null."""
    session = session_updates(tmp_path, {"audio": {"input": {"turn_detection": None}}}, spelling)
    assert "turn_detection" in audio_input(session), f"turn_detection missing: {session}"
    assert audio_input(session)["turn_detection"] is None
    assert "turn_detection" not in session


def test_session_update_manual_turns_beta_key(tmp_path, spelling):
    """(d) Manual turns, beta top-level `turn_detection: null`: vload sends the GA form only."""
    session = session_updates(tmp_path, {"turn_detection": None}, spelling)
    assert "turn_detection" not in session, f"beta top-level turn_detection sent as is: {session}"
    assert "turn_detection" in audio_input(session), f"audio.input.turn_detection missing: {session}"
    assert audio_input(session)["turn_detection"] is None


@pytest.mark.parametrize("session", [{"audio": {"input": {"turn_detection": None}}}, {"turn_detection": None}])
def test_manual_turns_commit_and_create_a_response_after_each_utterance(tmp_path, session):
    """Manual turns: after each `say` clip vload sends `input_audio_buffer.commit`, then
    `response.create`, both valid SDK client events; with server VAD it sends nothing."""
    manual = scenario_file(tmp_path, session, name="manual")
    (answer,) = run([{"send": "end_of_utterance"}], scenario=manual)
    assert [raw["type"] for raw, _ in client_events(answer)] == ["input_audio_buffer.commit", "response.create"]
    (vad,) = run([{"send": "end_of_utterance"}], scenario=scenario_file(tmp_path, {}, name="vad"))
    assert vad["frames"] == []


def test_session_update_transcription_off(tmp_path, spelling):
    """(e) Input transcription off: `audio.input.transcription` present and null."""
    session = session_updates(tmp_path, {"audio": {"input": {"transcription": None}}}, spelling)
    assert "transcription" in audio_input(session), f"transcription missing: {session}"
    assert audio_input(session)["transcription"] is None
    assert audio_input(session)["turn_detection"]["type"] == "server_vad"


def test_session_update_tools(tmp_path, spelling):
    """(f) A function tool and tool_choice auto."""
    tool = {
        "type": "function", "name": "get_weather", "description": "The weather in a city.",
        "parameters": {"type": "object", "properties": {}},
    }
    session = session_updates(tmp_path, {"tools": [tool], "tool_choice": "auto"}, spelling)
    assert session["tools"] == [tool]
    assert session["tool_choice"] == "auto"


def test_session_update_pcm_24k_and_audio(tmp_path):
    """(g) The default format, PCM16 24 kHz, both ways; 20 ms of input is 960 bytes."""
    session = session_updates(tmp_path, ...)
    assert_pcm_24k(session)
    (answer,) = run([{"send": "audio", "ms": 20}])
    raw, _ = single_event(answer, "input_audio_buffer.append")
    assert len(base64.b64decode(raw["audio"])) == 960


MULAW_SESSION = {"audio": {"input": {"format": PCMU}, "output": {"format": PCMU}}}


def test_session_update_mulaw(tmp_path, spelling):
    """(h) G.711 µ-law selected by the scenario: session.update says audio/pcmu both ways."""
    session = session_updates(tmp_path, MULAW_SESSION, spelling)
    assert session["audio"]["input"]["format"] == PCMU, f"input format {session['audio']['input']['format']}"
    assert session["audio"]["output"]["format"] == PCMU, f"output format {session['audio']['output']['format']}"


PCMA = {"type": "audio/pcma"}
ALAW_SESSION = {"audio": {"input": {"format": PCMA}, "output": {"format": PCMA}}}


def test_session_update_alaw(tmp_path, spelling):
    """G.711 A-law selected by the scenario: session.update says audio/pcma both ways (the SDK's
    session model takes it), and user audio is 8 kHz A-law (20 ms = 160 bytes)."""
    session = session_updates(tmp_path, ALAW_SESSION, spelling)
    assert session["audio"]["input"]["format"] == PCMA, f"input format {session['audio']['input']['format']}"
    assert session["audio"]["output"]["format"] == PCMA, f"output format {session['audio']['output']['format']}"
    (audio,) = run([{"send": "audio", "ms": 20}], scenario=scenario_file(tmp_path, ALAW_SESSION, spelling))
    raw, _ = single_event(audio, "input_audio_buffer.append")
    assert len(base64.b64decode(raw["audio"])) == 160


def test_mulaw_audio_is_8khz(tmp_path, spelling):
    """(h) With µ-law selected, user audio is 8 kHz µ-law (20 ms = 160 bytes) and agent audio
    is read as µ-law (160 bytes = 20 ms)."""
    scenario = scenario_file(tmp_path, MULAW_SESSION, spelling)
    delta = sdk.sdk_frames(sdk.GA_SERVER_MODELS["response.output_audio.delta"], {
        "delta": base64.b64encode(b"\xff" * 160).decode(), "response_id": "resp_1",
    })["minimal"]
    audio, received = run([{"send": "audio", "ms": 20}, vload_wire.receive_text(delta)], scenario=scenario)
    raw, _ = single_event(audio, "input_audio_buffer.append")
    sent = base64.b64decode(raw["audio"])
    assert sent == base64.b64decode(audio["audio"])
    assert len(sent) == 160, f"20 ms of µ-law at 8 kHz is 160 bytes, vload sent {len(sent)}"
    vload_wire.checked(SDK, "response.output_audio.delta")
    events = received["events"]
    assert [e["event"] for e in events] == ["agent.audio"], events
    assert events[0]["bytes"] == 160 and events[0]["duration_us"] == 20_000, events[0]


def test_input_audio_buffer_append():
    (answer,) = run([{"send": "audio", "ms": 40}])
    raw, _ = single_event(answer, "input_audio_buffer.append")
    sent = base64.b64decode(raw["audio"], validate=True)
    assert sent == base64.b64decode(answer["audio"])
    assert len(sent) == 1920  # 40 ms of PCM16 at 24 kHz


def test_input_audio_buffer_commit():
    (answer,) = run([{"send": "commit"}])
    single_event(answer, "input_audio_buffer.commit")


def test_response_cancel():
    (answer,) = run([{"send": "interrupt"}])
    single_event(answer, "response.cancel")


@pytest.mark.parametrize("flavor,delta_type", [("ga", "response.output_audio.delta"), ("beta", "response.audio.delta")])
def test_conversation_item_truncate(flavor, delta_type):
    """Barge-in truncates the item whose audio was playing, at the played position."""
    models = sdk.GA_SERVER_MODELS if flavor == "ga" else sdk.BETA_SERVER_MODELS
    delta = sdk.sdk_frames(models[delta_type], {"delta": AGENT_PCM_B64, "item_id": "item_7"})["minimal"]
    before, _, after = run([
        {"send": "playback_truncated", "audio_end_ms": 1200},
        vload_wire.receive_text(delta),
        {"send": "playback_truncated", "audio_end_ms": 1200},
    ])
    assert before["frames"] == [], "nothing to truncate before any agent audio"
    raw, _ = single_event(after, "conversation.item.truncate")
    assert (raw["item_id"], raw["content_index"], raw["audio_end_ms"]) == ("item_7", 0, 1200), raw


def test_tool_result():
    (answer,) = run([{"send": "tool_result", "call_id": "call_9", "name": "get_weather", "output": '{"t":21}'}])
    events = client_events(answer)
    assert [raw["type"] for raw, _ in events] == ["conversation.item.create", "response.create"], answer["frames"]
    item = events[0][0]["item"]
    assert type(events[0][1].item).__name__ == "RealtimeConversationItemFunctionCallOutput"
    assert (item["type"], item["call_id"], item["output"]) == ("function_call_output", "call_9", '{"t":21}')


def test_user_text():
    (answer,) = run([{"send": "text", "text": "hi there"}])
    events = client_events(answer)
    assert [raw["type"] for raw, _ in events] == ["conversation.item.create", "response.create"], answer["frames"]
    item = events[0][0]["item"]
    assert type(events[0][1].item).__name__ == "RealtimeConversationItemUserMessage"
    assert (item["type"], item["role"]) == ("message", "user")
    assert item["content"] == [{"type": "input_text", "text": "hi there"}]


def test_client_event_coverage():
    """Everything vload can send is an SDK client event; the SDK's client events vload never
    sends are reported (as a warning, not a failure)."""
    delta = sdk.sdk_frames(sdk.GA_SERVER_MODELS["response.output_audio.delta"], {"delta": AGENT_PCM_B64})["minimal"]
    answers = run([
        {"send": "open"}, {"send": "start"}, {"send": "audio", "ms": 20}, {"send": "commit"},
        {"send": "interrupt"}, {"send": "text", "text": "hi"}, {"send": "keep_alive"}, {"send": "stop"},
        {"send": "tool_result", "call_id": "c", "name": "n", "output": "{}"},
        vload_wire.receive_text(delta), {"send": "playback_truncated", "audio_end_ms": 100},
        {"send": "mark_played", "name": "m"}, {"send": "dtmf", "digit": "5"},
    ])
    sent = {raw["type"] for answer in answers if "frames" in answer for raw, _ in client_events(answer)}
    assert sent <= set(sdk.GA_CLIENT_MODELS), sent - set(sdk.GA_CLIENT_MODELS)
    never = sorted(set(sdk.GA_CLIENT_MODELS) - sent)
    if never:
        warnings.warn(f"SDK client events vload never sends: {', '.join(never)}")


# ---------------------------------------------------------------------------------------------
# Server events

# What each server event type must decode to: [(case, overrides of the SDK instance, expected
# events)]. Expected events are matched in order, each as a subset of the event vload decoded;
# a case named `...unordered` matches in any order. Types absent here must decode to nothing.
AUDIO_DELTA = [("audio", {"delta": AGENT_PCM_B64, "response_id": "resp_1", "item_id": "item_1"}, [
    {"event": "agent.audio", "bytes": len(AGENT_PCM), "duration_us": 20_000, "turn_key": "resp_1"},
])]
AUDIO_DONE = [("done", {"response_id": "resp_1"}, [{"event": "agent.speech_ended", "turn_key": "resp_1"}])]
AGENT_TRANSCRIPT_DELTA = [("delta", {"delta": "Hello"}, [
    {"event": "transcript", "role": "agent", "text": "Hello", "final": False},
])]
AGENT_TRANSCRIPT_DONE = [("done", {"transcript": "Hello there"}, [
    {"event": "transcript", "role": "agent", "text": "Hello there", "final": True},
])]
AGENT_TEXT_DONE = [("done", {"text": "Hello there"}, [
    {"event": "transcript", "role": "agent", "text": "Hello there", "final": True},
])]

EXPECTED = {
    "session.created": [("started", {}, [{"event": "session.started"}])],
    "session.updated": [("ready", {}, [{"event": "session.ready"}])],
    "response.created": [("created", {"response": {"id": "resp_1", "status": "in_progress"}}, [
        {"event": "agent.speech_started", "turn_key": "resp_1"},
    ])],
    "response.output_audio.delta": AUDIO_DELTA,
    "response.audio.delta": AUDIO_DELTA,
    "response.output_audio.done": AUDIO_DONE,
    "response.audio.done": AUDIO_DONE,
    "response.done": [
        ("completed", {"response": {"id": "resp_1", "status": "completed"}}, [
            {"event": "turn.complete", "turn_key": "resp_1"},
        ]),
        ("incomplete", {"response": {"id": "resp_1", "status": "incomplete",
                                     "status_details": {"type": "incomplete", "reason": "max_output_tokens"}}}, [
            {"event": "turn.complete", "turn_key": "resp_1"},
        ]),
        ("cancelled", {"response": {"id": "resp_1", "status": "cancelled",
                                    "status_details": {"type": "cancelled", "reason": "turn_detected"}}}, [
            {"event": "response.cancelled", "turn_key": "resp_1"},
            {"event": "turn.complete", "turn_key": "resp_1"},
        ]),
        ("failed_unordered", {"response": {"id": "resp_1", "status": "failed", "status_details": {
            "type": "failed", "error": {"type": "server_error", "code": "internal_error"}}}}, [
            {"event": "turn.complete", "turn_key": "resp_1"},
            {"event": "error", "code": "internal_error", "fatal": False},
        ]),
    ],
    "input_audio_buffer.speech_started": [("started", {}, [{"event": "user.speech_started"}])],
    "input_audio_buffer.speech_stopped": [("stopped", {}, [{"event": "user.speech_stopped"}])],
    "conversation.item.input_audio_transcription.delta": [("delta", {"delta": "Hel"}, [
        {"event": "transcript", "role": "user", "text": "Hel", "final": False},
    ])],
    "conversation.item.input_audio_transcription.completed": [("completed", {"transcript": "Hello"}, [
        {"event": "transcript", "role": "user", "text": "Hello", "final": True},
    ])],
    "conversation.item.input_audio_transcription.failed": [("failed", {"error": {
        "type": "transcription_error", "code": "audio_unintelligible", "message": "could not transcribe"}}, [
        {"event": "error", "code": "audio_unintelligible", "fatal": False},
    ])],
    "response.output_audio_transcript.delta": AGENT_TRANSCRIPT_DELTA,
    "response.audio_transcript.delta": AGENT_TRANSCRIPT_DELTA,
    "response.output_audio_transcript.done": AGENT_TRANSCRIPT_DONE,
    "response.audio_transcript.done": AGENT_TRANSCRIPT_DONE,
    "response.output_text.delta": AGENT_TRANSCRIPT_DELTA,
    "response.text.delta": AGENT_TRANSCRIPT_DELTA,
    "response.output_text.done": AGENT_TEXT_DONE,
    "response.text.done": AGENT_TEXT_DONE,
    "response.function_call_arguments.done": [("done", {"call_id": "call_1", "arguments": '{"city":"Paris"}'}, [
        {"event": "tool.call", "id": "call_1", "arguments": '{"city":"Paris"}', "status": "requested"},
    ])],
    "error": [("error", {"error": {"type": "invalid_request_error", "code": "invalid_value", "message": "bad"}}, [
        {"event": "error", "code": "invalid_value", "message": "bad", "fatal": False},
    ])],
}

# Per-flavor refinements the SDK's models call for.
FLAVOR_OVERRIDES = {
    # The beta session model has an id; vload reports it. (The GA union's session is the
    # request model, which has none.)
    ("beta", "session.created"): {"session": {"id": "sess_1"}},
    ("ga", "input_audio_buffer.dtmf_event_received"): {"event": "5"},
}
FLAVOR_EXPECTED_EXTRA = {
    ("beta", "session.created"): [{"ids": {"session_id": "sess_1"}}],
    ("ga", "response.function_call_arguments.done"): [{"name": "get_weather"}],
}


def server_cases():
    cases = []
    for flavor, models in (("ga", sdk.GA_SERVER_MODELS), ("beta", sdk.BETA_SERVER_MODELS)):
        for event_type in models:
            expected = EXPECTED.get(event_type, [("ignored", {}, [])])
            for case, overrides, events in expected:
                case_id = f"{flavor}:{event_type}" + (f":{case}" if len(expected) > 1 else "")
                cases.append(pytest.param(flavor, event_type, case, overrides, events, id=case_id))
    return cases


def assert_events_match(actual, expected, unordered=False, context=""):
    assert len(actual) == len(expected), f"{context}: vload decoded {actual}, expected {expected}"
    if unordered:
        remaining = list(actual)
        for want in expected:
            match = next((e for e in remaining if all(e.get(k) == v for k, v in want.items())), None)
            assert match is not None, f"{context}: no event like {want} in {actual}"
            remaining.remove(match)
        return
    for got, want in zip(actual, expected):
        mismatched = {k: (got.get(k), v) for k, v in want.items() if got.get(k) != v}
        assert not mismatched, f"{context}: {got} differs from {want} in (got, expected) {mismatched}"


@pytest.mark.parametrize("flavor,event_type,case,overrides,expected", server_cases())
def test_server_event(flavor, event_type, case, overrides, expected):
    """One SDK server event type, in the SDK's minimal and full serializations, through vload."""
    models = sdk.GA_SERVER_MODELS if flavor == "ga" else sdk.BETA_SERVER_MODELS
    overrides = sdk.deep_merge(overrides, FLAVOR_OVERRIDES.get((flavor, event_type), {}))
    expected = [
        {**want, **extra}
        for want, extra in zip(expected, FLAVOR_EXPECTED_EXTRA.get((flavor, event_type), [{}] * len(expected)))
    ] if expected else []
    frames = sdk.sdk_frames(models[event_type], overrides)
    answers = run([vload_wire.receive_text(frames["minimal"]), vload_wire.receive_text(frames["full"])])
    vload_wire.checked(SDK, event_type)
    for form, answer in zip(("minimal", "full"), answers):
        context = f"{flavor} {event_type} ({form} SDK frame {frames[form][:300]})"
        bad = [e for e in answer["events"] if e["event"] in ("unknown", "malformed")]
        assert not bad, f"{context}: vload decoded {bad}"
        assert answer["replies"] == [], f"{context}: unexpected replies {answer['replies']}"
        assert_events_match(answer["events"], expected, unordered=case.endswith("unordered"), context=context)


@pytest.mark.parametrize("flavor", ["ga", "beta"])
def test_function_name_remembered_from_output_item(flavor):
    """A `response.function_call_arguments.done` without `name` (beta) or with it (GA) reports
    the name announced by the `response.output_item.added` function-call item."""
    models = sdk.GA_SERVER_MODELS if flavor == "ga" else sdk.BETA_SERVER_MODELS
    item = {"type": "function_call", "call_id": "call_5", "name": "get_weather", "arguments": ""}
    if flavor == "ga":
        item["id"] = "item_5"
    added = sdk.sdk_frames(models["response.output_item.added"], {"item": item})["minimal"]
    done = sdk.minimal_event(models["response.function_call_arguments.done"],
                             {"call_id": "call_5", "arguments": '{"city":"Oslo"}'})
    done_raw = done.model_dump(mode="json", exclude_unset=True)
    done_raw.pop("name", None)  # as the beta event, which has no name
    first, second = run([vload_wire.receive_text(added), vload_wire.receive_text(json.dumps(done_raw))])
    vload_wire.checked(SDK, "response.output_item.added")
    vload_wire.checked(SDK, "response.function_call_arguments.done")
    assert first["events"] == []
    assert_events_match(second["events"], [
        {"event": "tool.call", "name": "get_weather", "id": "call_5", "arguments": '{"city":"Oslo"}'},
    ], context=f"{flavor} function_call_arguments.done after output_item.added")


def test_error_response_cancel_not_active():
    """A `response.cancel` with no response in progress: vload's dedicated event, which counts a
    commanded cancel as late (not an error); any other error keeps its code."""
    frame = sdk.sdk_frames(sdk.GA_SERVER_MODELS["error"], {"error": {
        "type": "invalid_request_error", "code": "response_cancel_not_active",
        "message": "Cancellation failed: no active response found",
    }})["minimal"]
    (answer,) = run([vload_wire.receive_text(frame)])
    vload_wire.checked(SDK, "error")
    events = answer["events"]
    assert [e["event"] for e in events] == ["cancel_not_active"], events


# ---------------------------------------------------------------------------------------------
# Endpoint

def test_endpoint_adds_default_model():
    (answer,) = run([{"endpoint": "wss://api.openai.com/v1/realtime"}])
    assert answer["url"] == "wss://api.openai.com/v1/realtime?model=gpt-realtime"


def test_endpoint_keeps_given_model():
    (answer,) = run([{"endpoint": "wss://api.openai.com/v1/realtime?model=gpt-realtime-mini"}])
    assert answer["url"] == "wss://api.openai.com/v1/realtime?model=gpt-realtime-mini"


# ---------------------------------------------------------------------------------------------
# The other way round: every server event type vload reads is one the SDK still defines.

#: The beta names vload still reads: Azure OpenAI's dated api-versions send them.
BETA_ALIASES = {"response.audio.delta", "response.audio.done", "response.audio_transcript.delta",
                "response.audio_transcript.done", "response.text.delta", "response.text.done"}


#: Beta-only events vload knows and ignores (Azure's dated api-versions, being the beta shape,
#: send them too).
BETA_ONLY_IGNORED = {"transcription_session.updated"}


def test_every_type_vload_reads_is_still_an_sdk_server_event():
    """A type vload reads by name that neither of the SDK's server-event unions defines any
    more fails here; the only names outside the GA union are the beta aliases and the
    beta-only events vload ignores."""
    [answer] = vload_wire.run(DIALECT, [{"types_read": True}])
    read = set(answer["types"])
    ga, beta = set(sdk.GA_SERVER_MODELS), set(sdk.BETA_SERVER_MODELS)
    assert read, "vload lists the types it reads"
    assert read <= ga | beta, sorted(read - ga - beta)
    assert read - ga <= BETA_ALIASES | BETA_ONLY_IGNORED, sorted(read - ga - BETA_ALIASES - BETA_ONLY_IGNORED)
    assert BETA_ALIASES <= beta, sorted(BETA_ALIASES - beta)
