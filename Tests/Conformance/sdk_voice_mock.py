"""A voice agent on loopback that speaks ElevenLabs Agents or Gemini Live with frames built by
the official SDKs' models (or, for ElevenLabs, which has none, shaped as its SDK reads them and
checked with the SDK's own message handling), for `vload run` against the shipped dialect files.

Timing is fixed so vload's figures can be checked against it: the agent hears the end of the
caller's speech after HANG_MS of quiet audio (an energy detector on the PCM vload streams),
waits REPLY_DELAY_MS, then streams a 440 Hz reply in real time, 100 ms a message. Caller speech
during a reply interrupts it at once (`interruption` / `serverContent.interrupted`), and the
agent answers the barge-in after it ends. Loopback only; one asyncio loop in a thread.
"""
import asyncio
import base64
import json
import math
import struct
import threading
import time

from websockets.asyncio.server import serve

import vload_wire

HANG_MS = 300
REPLY_DELAY_MS = 400
REPLY_MS = 3000
CHUNK_MS = 100
SPEECH_RMS = 300


def rms(pcm: bytes) -> float:
    count = len(pcm) // 2
    if count == 0:
        return 0.0
    values = struct.unpack(f"<{count}h", pcm[: count * 2])
    return math.sqrt(sum(v * v for v in values) / count)


class ElevenLabsWire:
    """ElevenLabs Agents conversation messages, as the `elevenlabs` SDK's Conversation reads them."""

    input_rate = 16000
    output_rate = 16000

    def __init__(self):
        from elevenlabs.types.conversation_initiation_client_data_request_input import (
            ConversationInitiationClientDataRequestInput,
        )
        self.initiation_model = ConversationInitiationClientDataRequestInput
        self.event_id = 0
        self.pongs = []

    async def handshake(self, socket):
        first = json.loads(await socket.recv())
        assert first.pop("type") == "conversation_initiation_client_data", first
        self.initiation_model.model_validate(first)
        await socket.send(json.dumps({"type": "conversation_initiation_metadata", "conversation_initiation_metadata_event": {
            "conversation_id": "conv_mock", "agent_output_audio_format": "pcm_16000",
            "user_input_audio_format": "pcm_16000"}}))
        await socket.send(json.dumps({"type": "ping", "ping_event": {"event_id": 99, "ping_ms": None}}))

    def audio_in(self, message):
        """The caller's PCM in `message`, or None (and records pongs)."""
        data = json.loads(message)
        if data.get("type") == "pong":
            self.pongs.append(data)
            return None
        assert list(data) == ["user_audio_chunk"], data
        return base64.b64decode(data["user_audio_chunk"])

    def agent_audio(self, pcm: bytes):
        self.event_id += 1
        return json.dumps({"type": "audio", "audio_event": {"audio_base_64": base64.b64encode(pcm).decode(),
                                                            "event_id": self.event_id}})

    def interrupted(self):
        return json.dumps({"type": "interruption", "interruption_event": {"event_id": self.event_id}})

    def turn_complete(self):
        return None  # ElevenLabs has none: the turn ends with the audio


class GeminiWire:
    """Gemini Live messages built with `google.genai.types.LiveServerMessage`, sent as binary JSON."""

    input_rate = 16000
    output_rate = 24000

    def __init__(self):
        from google.genai import types
        self.types = types
        self.pongs = []

    def _frame(self, message) -> bytes:
        return message.model_dump_json(exclude_none=True, by_alias=True).encode()

    async def handshake(self, socket):
        setup = self.types.LiveClientMessage.model_validate(json.loads(await socket.recv()))
        assert setup.setup is not None
        await socket.send(self._frame(self.types.LiveServerMessage(setup_complete=self.types.LiveServerSetupComplete())))

    def audio_in(self, message):
        blob = self.types.LiveClientMessage.model_validate(json.loads(message)).realtime_input.audio
        assert blob.mime_type == "audio/pcm;rate=16000"
        return blob.data

    def agent_audio(self, pcm: bytes):
        part = self.types.Part(inline_data=self.types.Blob(data=pcm, mime_type="audio/pcm;rate=24000"))
        return self._frame(self.types.LiveServerMessage(server_content=self.types.LiveServerContent(
            model_turn=self.types.Content(role="model", parts=[part]))))

    def interrupted(self):
        return self._frame(self.types.LiveServerMessage(server_content=self.types.LiveServerContent(interrupted=True)))

    def turn_complete(self):
        return self._frame(self.types.LiveServerMessage(server_content=self.types.LiveServerContent(turn_complete=True)))


class Session:
    """One connection: the energy detector, the reply task, and what happened when."""

    def __init__(self, wire, log):
        self.wire = wire
        self.log = log
        self.in_speech = False
        self.quiet_ms = 0.0
        self.reply = None
        self.replies = 0

    async def run(self, socket):
        await self.wire.handshake(socket)
        try:
            await self.listen(socket)
        finally:
            if self.reply is not None:
                self.reply.cancel()

    async def listen(self, socket):
        async for message in socket:
            pcm = self.wire.audio_in(message)
            if pcm is None:
                continue
            chunk_ms = len(pcm) / 2 / self.wire.input_rate * 1000
            if rms(pcm) >= SPEECH_RMS:
                if not self.in_speech and self.reply is not None and not self.reply.done():
                    self.reply.cancel()
                    await socket.send(self.wire.interrupted())
                    self.log.append(("interrupted", time.monotonic()))
                self.in_speech = True
                self.quiet_ms = 0.0
            elif self.in_speech:
                self.quiet_ms += chunk_ms
                if self.quiet_ms >= HANG_MS:
                    self.in_speech = False
                    self.log.append(("speech_end_heard", time.monotonic()))
                    self.reply = asyncio.create_task(self.speak(socket))

    async def speak(self, socket):
        await asyncio.sleep(REPLY_DELAY_MS / 1000)
        chunk = vload_wire.tone_pcm16(self.wire.output_rate * CHUNK_MS // 1000, self.wire.output_rate)
        start = time.monotonic()
        self.log.append(("reply_started", start))
        for index in range(REPLY_MS // CHUNK_MS):
            await socket.send(self.wire.agent_audio(chunk))
            await asyncio.sleep(max(0.0, start + (index + 1) * CHUNK_MS / 1000 - time.monotonic()))
        done = self.wire.turn_complete()
        if done is not None:
            await socket.send(done)


class MockAgent:
    """The server on 127.0.0.1, on a free port, in its own thread."""

    def __init__(self, dialect: str):
        self.wire_type = {"elevenlabs-agents": ElevenLabsWire, "gemini-live": GeminiWire}[dialect]
        self.log = []
        self.wires = []
        self.errors = []
        self.port = None
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._stop = None
        self._thread = threading.Thread(target=self._serve, daemon=True)

    async def _handle(self, socket):
        wire = self.wire_type()
        self.wires.append(wire)
        try:
            await Session(wire, self.log).run(socket)
        except Exception as error:  # noqa: BLE001 - recorded for the test to show
            if type(error).__name__ not in ("ConnectionClosedOK", "ConnectionClosedError", "CancelledError"):
                self.errors.append(repr(error))

    def _serve(self):
        asyncio.set_event_loop(self._loop)

        async def main():
            self._stop = asyncio.Event()
            async with serve(self._handle, "127.0.0.1", 0, max_size=16 * 1024 * 1024) as server:
                self.port = server.sockets[0].getsockname()[1]
                self._ready.set()
                await self._stop.wait()

        self._loop.run_until_complete(main())

    def __enter__(self):
        self._thread.start()
        assert self._ready.wait(10), "the mock agent did not start"
        return self

    def __exit__(self, *exc):
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)
