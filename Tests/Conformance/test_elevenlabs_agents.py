"""vload's shipped `elevenlabs-agents` dialect file against the official `elevenlabs` SDK.

The SDK (elevenlabs==2.78.0, `elevenlabs.conversational_ai.conversation`) has no pydantic
models for the conversation WebSocket's events: its `Conversation` client writes them as dicts
and reads server messages in `_handle_message_core`. So the judge is the SDK's own code:
- client frames: the initiation message validates with the SDK's
  `ConversationInitiationClientDataRequestInput` and its type is the SDK's
  `ClientToOrchestratorEvent.CONVERSATION_INITIATION_CLIENT_DATA`; an audio frame has exactly
  the one key the SDK's input callback writes; a pong equals the one the SDK's ping handler
  sends for the same ping;
- server frames: built as the SDK reads them, and first run through the SDK's own
  `_handle_message_core` (which must take them: audio decoded, interruption and ping
  handled), then fed to vload, which must decode them to the events it measures from.
"""
import base64
import json

import pytest
import yaml

import vload_wire
from elevenlabs.conversational_ai.conversation import BaseConversation, ClientToOrchestratorEvent, Conversation
from elevenlabs.types.client_event import ClientEvent
from elevenlabs.types.conversation_initiation_client_data_request_input import (
    ConversationInitiationClientDataRequestInput,
)

DIALECT = "elevenlabs-agents"
SDK = "elevenlabs"


def run(actions, scenario=None):
    return vload_wire.run(DIALECT, actions, scenario=scenario)


AGENT_PCM = vload_wire.tone_pcm16(320, 16000)  # 20 ms at pcm_16000
AGENT_PCM_B64 = base64.b64encode(AGENT_PCM).decode()


class RecordingHandler:
    """The message handler `_handle_message_core` calls, recording what the SDK did."""

    callback_agent_response = None
    callback_agent_response_correction = None
    callback_agent_chat_response_part = None
    callback_user_transcript = None
    callback_latency_measurement = None
    callback_audio_alignment = None

    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        if not name.startswith("handle_"):
            raise AttributeError(name)
        return lambda *args: self.calls.append((name, args))


def sdk_handles(message: dict) -> RecordingHandler:
    """Runs `message` through the SDK's own server-message handling; returns what it did."""
    conversation = object.__new__(BaseConversation)
    conversation._conversation_id = None
    conversation._last_interrupt_id = 0
    handler = RecordingHandler()
    conversation._handle_message_core(json.loads(json.dumps(message)), handler)
    return handler


def sdk_pong(ping: dict) -> dict:
    """The pong the SDK's synchronous client sends for `ping`."""
    sent = []

    class Socket:
        def send(self, text):
            sent.append(json.loads(text))

    conversation = object.__new__(Conversation)
    for name in ("callback_agent_response", "callback_agent_response_correction", "callback_agent_chat_response_part",
                 "callback_user_transcript", "callback_latency_measurement", "callback_audio_alignment"):
        setattr(conversation, name, None)
    conversation.audio_interface = None
    conversation._conversation_id = None
    conversation._last_interrupt_id = 0
    conversation._handle_message(ping, Socket())
    return sent[0]


# ---------------------------------------------------------------------------------------------
# Client frames

def test_initiation_message_validates_with_the_sdk_model(tmp_path):
    scenario = vload_wire.write_scenario(tmp_path, "el", DIALECT, session={
        "dynamic_variables": {"customer": "Ada"},
        "conversation_config_override": {"agent": {"language": "en"}},
    })
    [answer] = run([{"send": "open"}], scenario=scenario)
    [frame] = answer["frames"]
    assert "text" in frame, "the SDK sends JSON text frames"
    message = json.loads(frame["text"])
    assert message.pop("type") == ClientToOrchestratorEvent.CONVERSATION_INITIATION_CLIENT_DATA.value
    model = ConversationInitiationClientDataRequestInput.model_validate(message)
    assert model.dynamic_variables == {"customer": "Ada"}
    assert model.conversation_config_override.agent.language == "en"
    # Every key vload writes is a field of the SDK's model (the model allows extras: check by name).
    assert set(message) <= set(ConversationInitiationClientDataRequestInput.model_fields)
    vload_wire.checked(SDK, "conversation_initiation_client_data")


def test_initiation_message_without_session_fields_is_the_sdk_default():
    [answer] = run([{"send": "open"}])
    message = json.loads(answer["frames"][0]["text"])
    # The SDK's own default initiation message carries these keys as null.
    assert message == {"type": "conversation_initiation_client_data", "conversation_config_override": None,
                       "custom_llm_extra_body": None, "dynamic_variables": None}
    ConversationInitiationClientDataRequestInput.model_validate({k: v for k, v in message.items() if k != "type"})


def test_audio_frame_is_the_sdk_user_audio_chunk():
    [answer] = run([{"send": "audio", "ms": 100}])
    [frame] = answer["frames"]
    message = json.loads(frame["text"])
    assert list(message) == ["user_audio_chunk"], "the SDK's audio frame has this one key and no type"
    audio = base64.b64decode(message["user_audio_chunk"], validate=True)
    assert audio == base64.b64decode(answer["audio"])
    assert len(audio) == 3200, "100 ms of 16 kHz 16-bit mono (pcm_16000)"
    vload_wire.checked(SDK, "user_audio_chunk")


def test_pong_equals_the_sdk_pong():
    ping = {"type": "ping", "ping_event": {"event_id": 7, "ping_ms": 42}}
    assert sdk_handles(ping).calls[0][0] == "handle_ping"
    [answer] = run([vload_wire.receive_text(json.dumps(ping))])
    assert answer["events"] == [], "a ping is answered, not measured"
    [reply] = answer["replies"]
    assert json.loads(vload_wire.frame_text(reply)) == sdk_pong(ping)
    assert json.loads(vload_wire.frame_text(reply))["type"] == ClientToOrchestratorEvent.PONG.value
    vload_wire.checked(SDK, "pong")


def test_user_message_text():
    [answer] = run([{"send": "text", "text": "Where is my order?"}])
    message = json.loads(answer["frames"][0]["text"])
    assert message == {"type": ClientToOrchestratorEvent.USER_MESSAGE.value, "text": "Where is my order?"}
    vload_wire.checked(SDK, "user_message")


# ---------------------------------------------------------------------------------------------
# Server frames: what the SDK reads, decoded by vload

METADATA = {"type": "conversation_initiation_metadata", "conversation_initiation_metadata_event": {
    "conversation_id": "conv_123", "agent_output_audio_format": "pcm_16000", "user_input_audio_format": "pcm_16000"}}
AUDIO = {"type": "audio", "audio_event": {"audio_base_64": AGENT_PCM_B64, "event_id": 3}}
INTERRUPTION = {"type": "interruption", "interruption_event": {"event_id": 3}}
USER_TRANSCRIPT = {"type": "user_transcript", "user_transcription_event": {"user_transcript": "where is my order"}}
AGENT_RESPONSE = {"type": "agent_response", "agent_response_event": {"agent_response": "It ships today."}}
TOOL_CALL = {"type": "client_tool_call", "client_tool_call": {
    "tool_name": "lookup_order", "tool_call_id": "call_1", "parameters": {"order": "42"}}}


def decode(message):
    [answer] = run([vload_wire.receive_text(json.dumps(message))])
    vload_wire.checked(SDK, message["type"])
    return answer["events"]


def test_initiation_metadata_is_ready():
    assert sdk_handles(METADATA).calls == []  # the SDK takes the conversation id
    events = decode(METADATA)
    assert [e["event"] for e in events] == ["session.started", "session.ready"]
    assert events[0]["ids"] == {"conversation_id": "conv_123"}


def test_audio_is_agent_audio():
    [(name, (audio,))] = sdk_handles(AUDIO).calls
    assert (name, audio) == ("handle_audio_output", AGENT_PCM)
    [event] = decode(AUDIO)
    assert event["event"] == "agent.audio" and event["bytes"] == len(AGENT_PCM)


def test_interruption_is_barge_in_ack():
    assert [name for name, _ in sdk_handles(INTERRUPTION).calls] == ["handle_interruption"]
    assert vload_wire.event_names({"events": decode(INTERRUPTION)}) == ["agent.interrupted"]


def test_transcripts_and_tool_call():
    assert vload_wire.event_names({"events": decode(USER_TRANSCRIPT)}) == ["transcript"]
    assert vload_wire.event_names({"events": decode(AGENT_RESPONSE)}) == ["transcript"]
    assert vload_wire.event_names({"events": decode(TOOL_CALL)}) == ["tool.call"]


RESPONSE_COMPLETE = {"type": "agent_response_complete"}


def test_agent_response_complete_ends_the_turn():
    """The SDK names `agent_response_complete` in its ClientEvent list and has no model for it
    (its handler does nothing with it): vload reads the type alone as the end of the turn."""
    assert "agent_response_complete" in ClientEvent.__args__[0].__args__
    assert sdk_handles(RESPONSE_COMPLETE).calls == []
    assert vload_wire.event_names({"events": decode(RESPONSE_COMPLETE)}) == ["turn.complete"]


SAMPLES = {m["type"]: m for m in (METADATA, AUDIO, INTERRUPTION, USER_TRANSCRIPT, AGENT_RESPONSE, TOOL_CALL,
                                     {"type": "ping", "ping_event": {"event_id": 1, "ping_ms": None}})}


@pytest.mark.parametrize("event_type", list(ClientEvent.__args__[0].__args__))
def test_every_sdk_server_event_type_is_known(event_type):
    """Every type of the SDK's ClientEvent list decodes to events or is knowingly ignored:
    never `unknown`, never `malformed`."""
    message = SAMPLES.get(event_type, {"type": event_type})
    [answer] = run([vload_wire.receive_text(json.dumps(message))])
    names = vload_wire.event_names(answer)
    assert "unknown" not in names and "malformed" not in names, answer
    vload_wire.checked(SDK, event_type)


def _types_matched(node):
    """Every `type` value a matcher anywhere in the dialect file names (`"$.type": x` or
    `"$.type": {in: [...]}`)."""
    found = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$.type":
                found |= set(value["in"]) if isinstance(value, dict) else {value}
            else:
                found |= _types_matched(value)
    elif isinstance(node, list):
        for item in node:
            found |= _types_matched(item)
    return found


def test_every_type_the_dialect_file_reads_is_still_an_sdk_event():
    """The other way round: a server event the file matches (as an event, audio, a reply's
    trigger or one to ignore) that the SDK's ClientEvent list no longer defines fails here."""
    document = yaml.safe_load((vload_wire.ROOT / "dialects" / "elevenlabs-agents.yaml").read_text())
    read = _types_matched({key: document[key] for key in ("events", "ignore")})
    read |= _types_matched(document["audio"]["output"]) | _types_matched(document["send"]["replies"])
    assert "agent_response_complete" in read and "audio" in read
    assert read <= set(ClientEvent.__args__[0].__args__), read - set(ClientEvent.__args__[0].__args__)


def test_an_unlisted_type_is_unknown_by_name():
    [answer] = run([vload_wire.receive_text(json.dumps({"type": "brand_new_event"}))])
    assert answer["events"] == [{"event": "unknown", "type": "brand_new_event"}]
