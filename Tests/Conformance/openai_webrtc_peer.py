"""An OpenAI Realtime agent over WebRTC on loopback, built from aiortc 1.16 and the official
`openai` SDK's event models, for `vload run --dialect openai-realtime-webrtc`.

What a browser's Realtime call talks to: `POST /v1/realtime/calls` with `Authorization: Bearer
KEY` and the SDK's form (`client.realtime.calls.create`: an `sdp` part, `application/sdp`, and
a `session` part, JSON, checked against the SDK's `RealtimeSessionCreateRequest`), answered
`201 Created` with the SDP answer itself. The caller opens the `oai-events` data channel; every
event it sends must pass the SDK's client-event union strictly, and every event sent back is
made and serialized by the SDK's server-event models: `session.created` when the channel opens,
`session.updated` for each `session.update`.

Timing is fixed so vload's figures can be checked against it: the agent hears the end of the
caller's speech after HANG_MS of quiet decoded audio (an energy detector on what aiortc
decodes), sends `input_audio_buffer.speech_stopped`, `committed` and `response.created`, waits
REPLY_DELAY_MS, then plays a 440 Hz tone for REPLY_MS on its audio track
(`output_audio_buffer.started`), sends `response.done` while the tone still plays, as the real
service does, and `output_audio_buffer.stopped` once it has played. The track sends digital
silence when the agent is quiet. Caller speech during a reply cuts it off
(`response.done` cancelled, `output_audio_buffer.cleared`). Loopback only; one asyncio loop in a
thread.
"""
import asyncio
import fractions
import json
import math
import struct
import threading
import time
from unittest import mock

from aiohttp import web
from aiortc import MediaStreamTrack, RTCPeerConnection, RTCSessionDescription
from av import AudioFrame
from openai.types.realtime.realtime_session_create_request import RealtimeSessionCreateRequest

from openai_realtime_models import GA_CLIENT_UNION, GA_SERVER_MODELS, minimal_event, strict_validate

HANG_MS = 300
REPLY_DELAY_MS = 400
REPLY_MS = 2000
SPEECH_RMS = 300
RATE_HZ = 48_000
FRAME_SAMPLES = 960  # 20 ms at 48 kHz

#: aioice leaves 127.0.0.1 out of its host candidates; here they are limited to it, as vload
#: reaches no other address.
LOOPBACK_ONLY = mock.patch("aioice.ice.get_host_addresses", return_value=["127.0.0.1"])


def rms(pcm: bytes) -> float:
    count = len(pcm) // 2
    if count == 0:
        return 0.0
    values = struct.unpack(f"<{count}h", pcm[: count * 2])
    return math.sqrt(sum(v * v for v in values) / count)


def server_event(event_type: str, **fields) -> str:
    """The SDK's serialization of a `event_type` server event with `fields` (its other
    required fields minimal)."""
    return minimal_event(GA_SERVER_MODELS[event_type], fields).model_dump_json(exclude_unset=True)


class ReplyTrack(MediaStreamTrack):
    """The agent's microphone: 20 ms frames of 48 kHz mono, paced in real time; digital silence,
    or the reply's tone from `play()` until it has played or `stop_reply()`."""

    kind = "audio"

    def __init__(self):
        super().__init__()
        self._tone = b"".join(
            struct.pack("<h", int(8000 * math.sin(2 * math.pi * 440 * n / RATE_HZ))) for n in range(RATE_HZ * REPLY_MS // 1000))
        self._offset = None
        self._start = None
        self._timestamp = 0
        self.on_reply_end = None
        self.on_reply_start = None

    def play(self):
        self._offset = 0

    def stop_reply(self):
        self._offset = None

    async def recv(self):
        if self._start is None:
            self._start = time.time()
        else:
            self._timestamp += FRAME_SAMPLES
            await asyncio.sleep(max(0.0, self._start + self._timestamp / RATE_HZ - time.time()))
        frame = AudioFrame(format="s16", layout="mono", samples=FRAME_SAMPLES)
        if self._offset == 0 and self.on_reply_start is not None:
            self.on_reply_start()
        if self._offset is not None:
            chunk = self._tone[self._offset:self._offset + FRAME_SAMPLES * 2]
            chunk += bytes(FRAME_SAMPLES * 2 - len(chunk))
            self._offset += FRAME_SAMPLES * 2
            if self._offset >= len(self._tone):
                self._offset = None
                if self.on_reply_end is not None:
                    self.on_reply_end()
        else:
            chunk = bytes(FRAME_SAMPLES * 2)
        frame.planes[0].update(chunk)
        frame.pts = self._timestamp
        frame.sample_rate = RATE_HZ
        frame.time_base = fractions.Fraction(1, RATE_HZ)
        return frame


class Call:
    """One call: its peer connection, data channel, energy detector and reply."""

    def __init__(self, peer, number):
        self.peer = peer
        self.number = number
        self.pc = RTCPeerConnection()
        self.track = ReplyTrack()
        self.track.on_reply_end = self.reply_played
        self.track.on_reply_start = self.tone_started
        self.pc.addTrack(self.track)
        self.channel = None
        self.in_speech = False
        self.quiet_ms = 0.0
        self.response = 0
        self.reply_task = None
        self.playing = None  # the response id whose audio plays
        self.pc.on("datachannel", self.on_datachannel)
        self.pc.on("track", self.on_track)

    def send(self, text):
        if self.channel is not None and self.channel.readyState == "open":
            self.channel.send(text)

    def on_datachannel(self, channel):
        self.peer.channel_labels.append(channel.label)
        self.channel = channel
        # The SDK's session.created, as the service sends it first on the channel.
        self.send(server_event("session.created", session={"type": "realtime", "model": "gpt-realtime"}))
        channel.on("message", self.on_message)

    def on_message(self, message):
        try:
            text = message if isinstance(message, str) else message.decode()
            model = strict_validate(text, GA_CLIENT_UNION)
            self.peer.client_types.append(model.type)
            if model.type == "session.update":
                session = json.loads(text)["session"]
                self.send(server_event("session.updated", session=session))
        except Exception as error:  # noqa: BLE001 - shown by the test
            self.peer.errors.append(f"call {self.number}: {error!r}")

    def on_track(self, track):
        if track.kind == "audio":
            asyncio.ensure_future(self.listen(track))

    async def listen(self, track):
        try:
            while True:
                frame = await track.recv()
                pcm = bytes(frame.planes[0])[: frame.samples * 2 * len(frame.layout.channels)]
                frame_ms = frame.samples / frame.sample_rate * 1000
                if rms(pcm) >= SPEECH_RMS:
                    if not self.in_speech:
                        self.speech_started()
                    self.in_speech = True
                    self.quiet_ms = 0.0
                elif self.in_speech:
                    self.quiet_ms += frame_ms
                    if self.quiet_ms >= HANG_MS:
                        self.in_speech = False
                        self.speech_stopped()
        except Exception:  # noqa: BLE001 - the track ends when the call does
            return

    def speech_started(self):
        self.send(server_event("input_audio_buffer.speech_started", audio_start_ms=0, item_id=f"item_{self.number}"))
        if self.reply_task is not None and not self.reply_task.done():
            self.reply_task.cancel()
        if self.playing is not None:
            response_id, self.playing = self.playing, None
            self.track.stop_reply()
            self.peer.log.append(("cut_off", self.number, time.monotonic()))
            self.send(server_event("output_audio_buffer.cleared", response_id=response_id))

    def speech_stopped(self):
        self.peer.log.append(("speech_end_heard", self.number, time.monotonic()))
        self.send(server_event("input_audio_buffer.speech_stopped", audio_end_ms=0, item_id=f"item_{self.number}"))
        self.send(server_event("input_audio_buffer.committed", item_id=f"item_{self.number}"))
        self.response += 1
        response_id = f"resp_{self.number}_{self.response}"
        self.send(server_event("response.created", response={"id": response_id, "object": "realtime.response", "status": "in_progress"}))
        self.reply_task = asyncio.ensure_future(self.reply(response_id))

    async def reply(self, response_id):
        await asyncio.sleep(REPLY_DELAY_MS / 1000)
        self.playing = response_id
        self.track.play()
        self.peer.log.append(("reply_started", self.number, time.monotonic()))
        self.send(server_event("output_audio_buffer.started", response_id=response_id))
        # The service finishes generating before the audio has played: response.done comes now.
        self.send(server_event("response.done", response={"id": response_id, "object": "realtime.response", "status": "completed"}))

    def tone_started(self):
        """The track hands the tone's first frame to aiortc's sender: late by as much as this loop is."""
        self.peer.log.append(("tone_started", self.number, time.monotonic()))

    def reply_played(self):
        if self.playing is None:
            return
        response_id, self.playing = self.playing, None
        self.peer.log.append(("reply_played", self.number, time.monotonic()))
        self.send(server_event("output_audio_buffer.stopped", response_id=response_id))


class OpenAIWebRTCPeer:
    """The server on 127.0.0.1, on a free port, in its own thread; `key` is the bearer key it takes."""

    def __init__(self, key: str):
        self.key = key
        self.calls = []
        self.sessions = []
        self.channel_labels = []
        self.client_types = []
        self.log = []
        self.errors = []
        self.port = None
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._stop = None
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def forget(self):
        """Clears what the peer recorded, before a run is tried again: the records are the last try's."""
        for records in (self.sessions, self.channel_labels, self.client_types, self.log, self.errors):
            records.clear()

    async def _create_call(self, request):
        if request.headers.get("Authorization") != f"Bearer {self.key}":
            return web.json_response(
                {"error": {"message": "Incorrect API key provided", "type": "invalid_request_error", "code": "invalid_api_key"}},
                status=401)
        parts = {}
        reader = await request.multipart()
        async for part in reader:
            parts[part.name] = (part.headers.get("Content-Type"), (await part.read()).decode())
        assert parts["sdp"][0] == "application/sdp" and parts["session"][0] == "application/json", parts
        # The session part is the SDK's RealtimeSessionCreateRequest.
        session = RealtimeSessionCreateRequest.model_validate(json.loads(parts["session"][1]))
        self.sessions.append(session)
        call = Call(self, len(self.calls) + 1)
        self.calls.append(call)
        await call.pc.setRemoteDescription(RTCSessionDescription(sdp=parts["sdp"][1], type="offer"))
        await call.pc.setLocalDescription(await call.pc.createAnswer())
        return web.Response(status=201, text=call.pc.localDescription.sdp, content_type="application/sdp",
                            headers={"Location": f"/v1/realtime/calls/rtc_{call.number}"})

    def _serve(self):
        asyncio.set_event_loop(self._loop)

        async def main():
            self._stop = asyncio.Event()
            app = web.Application()
            app.router.add_post("/v1/realtime/calls", self._create_call)
            runner = web.AppRunner(app)
            await runner.setup()
            site = web.TCPSite(runner, "127.0.0.1", 0)
            await site.start()
            self.port = site._server.sockets[0].getsockname()[1]
            self._ready.set()
            await self._stop.wait()
            for call in self.calls:
                await call.pc.close()
            await runner.cleanup()

        with LOOPBACK_ONLY:
            self._loop.run_until_complete(main())

    def __enter__(self):
        self._thread.start()
        assert self._ready.wait(10), "the OpenAI WebRTC peer did not start"
        return self

    def __exit__(self, *exc):
        self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(15)
