"""vload's shipped `gemini-live` dialect file against the official `google-genai` SDK.

The SDK (google-genai==3.6.1, `google.genai.types`) is the judge: every frame vload writes
must validate as `types.LiveClientMessage` (whose models refuse unknown fields), and server
messages built with `types.LiveServerMessage` and serialized as the wire carries them
(camelCase JSON, in binary WebSocket frames) must decode to the events vload measures from.
"""
import base64
import json

import pytest

import vload_wire
from google.genai import types

DIALECT = "gemini-live"
SDK = "google-genai"
MODEL = "models/gemini-2.5-flash-native-audio-preview-09-2025"


def run(actions, scenario=None):
    return vload_wire.run(DIALECT, actions, scenario=scenario)


AGENT_PCM = vload_wire.tone_pcm16(480, 24000)  # 20 ms at 24 kHz


def client_message(frame) -> types.LiveClientMessage:
    assert "text" in frame, "the SDK sends its messages as text frames"
    return types.LiveClientMessage.model_validate(json.loads(frame["text"]))


@pytest.fixture
def scenario(tmp_path):
    return vload_wire.write_scenario(tmp_path, "gemini", DIALECT, session={"model": MODEL})


# ---------------------------------------------------------------------------------------------
# Client frames

def test_setup_validates_as_live_client_message(scenario):
    [answer] = run([{"send": "open"}], scenario=scenario)
    [frame] = answer["frames"]
    message = client_message(frame)
    assert message.setup is not None
    assert message.setup.model == MODEL
    assert message.setup.generation_config.response_modalities == [types.Modality.AUDIO]
    vload_wire.checked(SDK, "setup")


def test_audio_validates_as_realtime_input_pcm_16k(scenario):
    [answer] = run([{"send": "audio", "ms": 40}], scenario=scenario)
    [frame] = answer["frames"]
    message = client_message(frame)
    audio = message.realtime_input.audio
    assert audio.mime_type == "audio/pcm;rate=16000"
    assert audio.data == base64.b64decode(answer["audio"])
    assert len(audio.data) == 1280, "40 ms of 16 kHz 16-bit mono"
    vload_wire.checked(SDK, "realtimeInput.audio")


def test_text_validates_as_realtime_input_text(scenario):
    [answer] = run([{"send": "text", "text": "Where is my order?"}], scenario=scenario)
    assert client_message(answer["frames"][0]).realtime_input.text == "Where is my order?"
    vload_wire.checked(SDK, "realtimeInput.text")


def test_lifecycle_sends_nothing_the_sdk_does_not_know(scenario):
    answers = run([{"send": "interrupt"}, {"send": "commit"}, {"send": "keep_alive"}, {"send": "stop"}], scenario=scenario)
    for answer in answers:
        for frame in answer["frames"]:
            client_message(frame)


# ---------------------------------------------------------------------------------------------
# Server frames: built with the SDK's models, sent as the server sends them (binary JSON)

def wire(message: types.LiveServerMessage) -> bytes:
    return message.model_dump_json(exclude_none=True, by_alias=True).encode()


def decode(message: types.LiveServerMessage, name: str):
    data = wire(message)
    # The SDK reads it back as the same message.
    assert types.LiveServerMessage._from_response(response=json.loads(data), kwargs={}) == message
    [answer] = run([vload_wire.receive_binary(data)])
    vload_wire.checked(SDK, name)
    return answer["events"]


def test_setup_complete_is_ready():
    events = decode(types.LiveServerMessage(setup_complete=types.LiveServerSetupComplete()), "setupComplete")
    assert vload_wire.event_names({"events": events}) == ["session.ready"]


def test_model_turn_audio_is_agent_audio_at_24k():
    part = types.Part(inline_data=types.Blob(data=AGENT_PCM, mime_type="audio/pcm;rate=24000"))
    message = types.LiveServerMessage(server_content=types.LiveServerContent(
        model_turn=types.Content(role="model", parts=[part, part])))
    [event] = decode(message, "serverContent.modelTurn")
    assert event["event"] == "agent.audio"
    assert event["bytes"] == 2 * len(AGENT_PCM), "every audio part of the turn"
    assert event["duration_us"] == 40_000, "24 kHz output"


def test_text_only_model_turn_is_not_audio():
    message = types.LiveServerMessage(server_content=types.LiveServerContent(
        model_turn=types.Content(role="model", parts=[types.Part(text="thinking")])))
    assert decode(message, "serverContent.modelTurn.text") == []


def test_interrupted_is_barge_in_ack():
    message = types.LiveServerMessage(server_content=types.LiveServerContent(interrupted=True))
    assert vload_wire.event_names({"events": decode(message, "serverContent.interrupted")}) == ["agent.interrupted"]


def test_turn_complete_ends_the_turn():
    message = types.LiveServerMessage(server_content=types.LiveServerContent(turn_complete=True, generation_complete=True))
    assert vload_wire.event_names({"events": decode(message, "serverContent.turnComplete")}) == ["turn.complete"]


@pytest.mark.parametrize("status", [None, "IDLE", "REQUIRES_ACTION", "INTERACTION_STATUS_UNSPECIFIED"])
def test_turn_complete_with_the_interaction_idle_ends_the_answer(status):
    """`interactionStatus`, always sent alongside `turnComplete` by newer servers: anything but
    IN_PROGRESS (no status: an older server) ends the whole answer."""
    content = types.LiveServerContent(turn_complete=True, interaction_status=status)
    names = vload_wire.event_names({"events": decode(types.LiveServerMessage(server_content=content), "serverContent.interactionStatus")})
    assert names == ["turn.complete"]


def test_turn_complete_in_progress_does_not_end_the_answer():
    """A model turn complete while the interaction is IN_PROGRESS: more model turns of the same
    answer follow, so the answer has not ended."""
    content = types.LiveServerContent(turn_complete=True, interaction_status=types.InteractionStatus.IN_PROGRESS,
                                      turn_complete_reason=types.TurnCompleteReason.NEED_MORE_INPUT)
    assert decode(types.LiveServerMessage(server_content=content), "serverContent.interactionStatus") == []


def test_interaction_statuses_are_the_sdks():
    """The statuses the dialect file names are the SDK's InteractionStatus values."""
    named = {"IN_PROGRESS", "IDLE", "REQUIRES_ACTION", "INTERACTION_STATUS_UNSPECIFIED"}
    assert named == {status.value for status in types.InteractionStatus}


def test_transcriptions():
    message = types.LiveServerMessage(server_content=types.LiveServerContent(
        input_transcription=types.Transcription(text="where is my order", finished=True)))
    [event] = decode(message, "serverContent.inputTranscription")
    assert (event["event"], event["role"], event["final"]) == ("transcript", "user", True)
    message = types.LiveServerMessage(server_content=types.LiveServerContent(
        output_transcription=types.Transcription(text="It ships")))
    [event] = decode(message, "serverContent.outputTranscription")
    assert (event["event"], event["role"], event["final"]) == ("transcript", "agent", False)


def test_tool_call():
    message = types.LiveServerMessage(tool_call=types.LiveServerToolCall(
        function_calls=[types.FunctionCall(id="call_1", name="lookup_order", args={"order": "42"})]))
    [event] = decode(message, "toolCall")
    assert (event["event"], event["name"]) == ("tool.call", "lookup_order")


@pytest.mark.parametrize("message, name", [
    (types.LiveServerMessage(server_content=types.LiveServerContent(generation_complete=True)), "serverContent.generationComplete"),
    (types.LiveServerMessage(usage_metadata=types.UsageMetadata(total_token_count=12)), "usageMetadata"),
    (types.LiveServerMessage(session_resumption_update=types.LiveServerSessionResumptionUpdate(new_handle="h")),
     "sessionResumptionUpdate"),
    (types.LiveServerMessage(tool_call_cancellation=types.LiveServerToolCallCancellation(ids=["call_1"])),
     "toolCallCancellation"),
])
def test_messages_vload_does_not_measure_decode_to_nothing(message, name):
    assert decode(message, name) == []


def test_go_away_is_unknown_by_its_shape():
    message = types.LiveServerMessage(go_away=types.LiveServerGoAway(time_left="5s"))
    assert decode(message, "goAway") == [{"event": "unknown", "type": "{goAway}"}]
