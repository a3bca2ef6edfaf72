"""An independent WebRTC caller of a Pipecat SmallWebRTC bot, written with aiortc 1.16 alone,
that measures what vload measures on the same call, so the two can be compared:

- `first_audio_from_end_ms`: from the acoustic end of the question's speech (the instant the
  clip's first frame left plus the clip's end-of-speech offset, found with vload's rule: 10 ms
  windows voiced within 30 dB of the loudest and above -50 dBFS, runs under 30 ms are clicks)
  to the arrival of the first packet of the bot's reply that decodes to audio that is not
  digital silence. Packets are stamped when aiortc's receiver is handed them, before its jitter
  buffer holds them back (80 ms of prefetch for audio), and a decoded frame is matched to its
  packet by its RTP timestamp;
- `int_ack_ms`: once `after_heard_ms` of the reply has arrived, the barge-in clip starts; from
  that instant to the arrival of the bot's first acknowledgement on the data channel, as vload
  reads it: RTVI `user-started-speaking` (the bot is audible then) or `bot-interrupted`.

    python aiortc_caller.py --url http://127.0.0.1:PORT/api/offer --clients N [--barge-in]

prints one JSON object per call. Loopback only.
"""
import argparse
import asyncio
import fractions
import json
import math
import struct
import time
import wave
from pathlib import Path
from unittest import mock

import aiohttp
from aiortc import MediaStreamTrack, RTCPeerConnection, RTCSessionDescription
from aiortc.rtcrtpreceiver import RTCRtpReceiver
from av import AudioFrame

AUDIO = Path(__file__).resolve().parents[2] / "scenarios" / "audio"
FRAME_MS = 20
LOOPBACK_ONLY = mock.patch("aioice.ice.get_host_addresses", return_value=["127.0.0.1"])


def read_wav(path: Path):
    with wave.open(str(path)) as wav:
        assert wav.getsampwidth() == 2 and wav.getnchannels() == 1, path
        return wav.getframerate(), wav.readframes(wav.getnframes())


def speech_end_ms(pcm: bytes, rate: int) -> float:
    """vload's end of speech (VoicingRule): the end of the last voiced run of 3+ 10 ms windows."""
    size = rate // 100
    count = (len(pcm) // 2 + size - 1) // size
    samples = struct.unpack(f"<{len(pcm) // 2}h", pcm)
    sums = [sum(s * s for s in samples[i * size:(i + 1) * size]) for i in range(count)]
    floor = (32768 * 10 ** (-50 / 20)) ** 2 * size
    loudest = max(sums)
    voiced = [s > floor and s >= loudest * 10 ** (-30 / 10) for s in sums]
    end, run = None, 0
    for index, flag in enumerate(voiced + [False]):
        if flag:
            run += 1
            continue
        if run >= 3:
            end = index
        run = 0
    assert end is not None, "no speech in the clip"
    return end * 10.0


class Microphone(MediaStreamTrack):
    """20 ms frames paced in real time: silence, or a clip from `say()`; stamps when the clip's
    first frame left."""

    kind = "audio"

    def __init__(self, rate):
        super().__init__()
        self.rate = rate
        self.samples = rate * FRAME_MS // 1000
        self.clip = None
        self.offset = 0
        self.started = None
        self.start_time = None
        self.timestamp = 0
        self.done = None

    def say(self, pcm: bytes):
        self.clip, self.offset, self.started = pcm, 0, None
        self.done = asyncio.get_running_loop().create_future()
        return self.done

    async def recv(self):
        if self.start_time is None:
            self.start_time = time.monotonic()
        else:
            self.timestamp += self.samples
            await asyncio.sleep(max(0.0, self.start_time + self.timestamp / self.rate - time.monotonic()))
        size = self.samples * 2
        if self.clip is not None:
            if self.started is None:
                self.started = time.monotonic()
            chunk = self.clip[self.offset:self.offset + size]
            self.offset += size
            if self.offset >= len(self.clip):
                self.clip = None
                if not self.done.done():
                    self.done.set_result(self.started)
            chunk += bytes(size - len(chunk))
        else:
            chunk = bytes(size)
        frame = AudioFrame(format="s16", layout="mono", samples=self.samples)
        frame.planes[0].update(chunk)
        frame.pts = self.timestamp
        frame.sample_rate = self.rate
        frame.time_base = fractions.Fraction(1, self.rate)
        return frame


#: Per receiver: the RTP timestamp since its first packet's (what aiortc's `TimestampMapper` makes a
#: decoded frame's pts) -> arrival (time.monotonic()), stamped as aiortc's receiver is handed each packet.
ARRIVALS = {}
ORIGINS = {}
_handle_rtp_packet = RTCRtpReceiver._handle_rtp_packet


async def _stamped(self, packet, arrival_time_ms):
    origin = ORIGINS.setdefault(id(self), packet.timestamp)
    ARRIVALS.setdefault(id(self), {})[(packet.timestamp - origin) & 0xFFFFFFFF] = time.monotonic()
    return await _handle_rtp_packet(self, packet, arrival_time_ms)


RTCRtpReceiver._handle_rtp_packet = _stamped


async def call(session: aiohttp.ClientSession, url: str, barge_in: bool, after_heard_ms: float = 800) -> dict:
    rate, question = read_wav(AUDIO / "weather.wav")
    _, interruption = read_wav(AUDIO / "barge-in.wav")
    end_offset_ms = speech_end_ms(question, rate)
    pc = RTCPeerConnection()
    microphone = Microphone(rate)
    pc.addTrack(microphone)
    channel = pc.createDataChannel("aiortc-caller")
    ready = asyncio.get_running_loop().create_future()
    result = {"first_audio_from_end_ms": None, "int_ack_ms": None}
    state = {"speech_end": None, "heard_ms": 0.0, "barge_start": None, "first_audio": None}
    barge = asyncio.get_running_loop().create_future()

    @channel.on("open")
    def on_open():
        channel.send(json.dumps({"label": "rtvi-ai", "type": "client-ready", "id": "aiortc-client-ready",
                                 "data": {"version": "1.0.0", "about": {"library": "aiortc-caller"}}}))

    @channel.on("message")
    def on_message(message):
        kind = json.loads(message).get("type")
        if kind == "bot-ready" and not ready.done():
            ready.set_result(time.monotonic())
        elif kind in ("bot-interrupted", "user-started-speaking") and state["barge_start"] is not None and result["int_ack_ms"] is None:
            result["int_ack_ms"] = (time.monotonic() - state["barge_start"]) * 1000

    async def listen(track, receiver):
        arrivals = ARRIVALS.setdefault(id(receiver), {})
        while True:
            try:
                frame = await track.recv()
            except Exception:  # noqa: BLE001 - the call ended
                return
            pcm = bytes(frame.planes[0])
            if state["speech_end"] is None or not any(pcm):
                continue
            arrived = arrivals.get(frame.pts & 0xFFFFFFFF)
            if arrived is None or arrived < state["speech_end"]:
                continue
            if state["first_audio"] is None:
                state["first_audio"] = arrived
                result["first_audio_from_end_ms"] = (arrived - state["speech_end"]) * 1000
            state["heard_ms"] += frame.samples / frame.sample_rate * 1000
            if barge_in and state["heard_ms"] >= after_heard_ms and not barge.done():
                barge.set_result(None)

    @pc.on("track")
    def on_track(track):
        receiver = next(t.receiver for t in pc.getTransceivers() if t.receiver.track is track)
        asyncio.ensure_future(listen(track, receiver))

    await pc.setLocalDescription(await pc.createOffer())
    async with session.post(url, json={"sdp": pc.localDescription.sdp, "type": "offer"}) as response:
        answer = await response.json()
    await pc.setRemoteDescription(RTCSessionDescription(sdp=answer["sdp"], type=answer["type"]))
    try:
        await asyncio.wait_for(ready, 15)
        started = await asyncio.wait_for(microphone.say(question), 15)
        state["speech_end"] = started + end_offset_ms / 1000
        if barge_in:
            await asyncio.wait_for(barge, 15)
            done = microphone.say(interruption)
            while microphone.started is None:
                await asyncio.sleep(0.001)
            state["barge_start"] = microphone.started
            await asyncio.wait_for(done, 15)
            await asyncio.sleep(1.0)
        else:
            deadline = time.monotonic() + 15
            while state["first_audio"] is None and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)
    finally:
        await pc.close()
    return result


async def main(url: str, clients: int, barge_in: bool) -> list:
    with LOOPBACK_ONLY:
        async with aiohttp.ClientSession() as session:
            return await asyncio.gather(*(call(session, url, barge_in) for _ in range(clients)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--clients", type=int, default=1)
    parser.add_argument("--barge-in", action="store_true")
    args = parser.parse_args()
    for row in asyncio.run(main(args.url, args.clients, args.barge_in)):
        print(json.dumps(row))
