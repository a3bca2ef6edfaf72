"""An independent WebRTC caller of a Pipecat SmallWebRTC bot, written with aiortc 1.16 alone,
that measures what vload measures on the same call, so the two can be compared:

- `first_audio_from_end_ms`: from the acoustic end of the question's speech (the clip's mic
  open, one frame before the packet carrying its first frame left, plus the clip's
  end-of-speech offset, found with vload's rule: 10 ms windows voiced within 30 dB of the
  loudest and above -50 dBFS, runs under 30 ms are clicks) to the arrival of the first packet
  of the bot's reply that decodes to audio that is not digital silence. Packets are stamped
  when aiortc's receiver is handed them, before its jitter buffer holds them back (80 ms of
  prefetch for audio), and a decoded frame is matched to its packet by its RTP timestamp;
- `speech_end_send_late_ms`: how much later than the frame schedule the packet holding the
  question's last speech left (a caller's own lateness, which delays the bot's reply);
- `int_ack_ms`: once `after_heard_ms` of the reply has arrived, the barge-in clip starts; from
  the start of its speech (its mic open plus the same rule's start of the first voiced run) to
  the arrival of the bot's first acknowledgement on the data channel, as vload reads it: RTVI
  `user-started-speaking` (the bot is audible then) or `bot-interrupted`.

The clips are resampled to 48 kHz once, before the call, and sent as 20 ms frames of 960
samples, so aiortc's encoder passes them through its resampler untouched: handed 16 kHz
frames, that resampler (libswresample, 960-sample output frames) holds each frame back a whole
frame and its filter's delay, and the bot heard the clip ~21 ms after the frame was handed
over. A clip's first frame is stamped when aiortc's sender hands its packet to the transport,
and the speech offsets are found on the 48 kHz clip as sent.

With `--start-jitter-ms N` a call starts its question a random 0-N ms after `bot-ready` (drawn
for each call), as vload's `silence: [0, N]` step does: a bot's answer moves with where the
speech falls against its VAD's 32 ms windows, and a caller that starts at a fixed offset from
`bot-ready` samples one such phase only (BENCHMARKS.md, "The bots' own stamps").

    python aiortc_caller.py --url http://127.0.0.1:PORT/api/offer --clients N [--barge-in] [--after-heard-ms MS]
                            [--barge-in-wav one-moment.wav] [--start-jitter-ms MS]

prints one JSON object per call (with `srtp_profile`, the SRTP profile DTLS agreed). Loopback only.
"""
import argparse
import asyncio
import fractions
import json
import math
import random
import struct
import time
import wave
from pathlib import Path
from unittest import mock

import aiohttp
from aiortc import MediaStreamTrack, RTCPeerConnection, RTCSessionDescription
from aiortc.rtcrtpreceiver import RTCRtpReceiver
from aiortc.rtcrtpsender import RTCRtpSender
from av import AudioFrame, AudioResampler

AUDIO = Path(__file__).resolve().parents[2] / "scenarios" / "audio"
FRAME_MS = 20
LOOPBACK_ONLY = mock.patch("aioice.ice.get_host_addresses", return_value=["127.0.0.1"])


RATE_HZ = 48_000


def read_wav(path: Path):
    """The clip as sent: mono s16 at 48 kHz (Opus's rate), resampled once, whole."""
    with wave.open(str(path)) as wav:
        assert wav.getsampwidth() == 2 and wav.getnchannels() == 1, path
        rate, pcm = wav.getframerate(), wav.readframes(wav.getnframes())
    if rate == RATE_HZ:
        return RATE_HZ, pcm
    frame = AudioFrame(format="s16", layout="mono", samples=len(pcm) // 2)
    frame.planes[0].update(pcm)
    frame.sample_rate = rate
    resampler = AudioResampler(format="s16", layout="mono", rate=RATE_HZ)
    out = resampler.resample(frame) + resampler.resample(None)
    return RATE_HZ, b"".join(bytes(f.planes[0])[:f.samples * 2] for f in out)


def speech_span_ms(pcm: bytes, rate: int) -> tuple[float, float]:
    """vload's speech span (VoicingRule): the start of the first and the end of the last voiced
    run of 3+ 10 ms windows."""
    size = rate // 100
    count = (len(pcm) // 2 + size - 1) // size
    samples = struct.unpack(f"<{len(pcm) // 2}h", pcm)
    sums = [sum(s * s for s in samples[i * size:(i + 1) * size]) for i in range(count)]
    floor = (32768 * 10 ** (-50 / 20)) ** 2 * size
    loudest = max(sums)
    voiced = [s > floor and s >= loudest * 10 ** (-30 / 10) for s in sums]
    start, end, run = None, None, 0
    for index, flag in enumerate(voiced + [False]):
        if flag:
            run += 1
            continue
        if run >= 3:
            start = index - run if start is None else start
            end = index
        run = 0
    assert end is not None, "no speech in the clip"
    return start * 10.0, end * 10.0


class Microphone(MediaStreamTrack):
    """20 ms frames paced in real time: silence, or a clip from `say()`; notes the pts of the
    clip's first frame (`started`), whose departure `SENT` stamps."""

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
                self.started = self.timestamp
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

#: Per sender: an encoded frame's timestamp (the frame's pts: 48 kHz frames pass the encoder's
#: resampler untouched) -> when its packet left (time.monotonic()); the sender hands the packet
#: to the transport right after this returns.
SENT = {}
_next_encoded_frame = RTCRtpSender._next_encoded_frame


async def _departing(self, codec):
    frame = await _next_encoded_frame(self, codec)
    if frame is not None:
        SENT.setdefault(id(self), {})[frame.timestamp] = time.monotonic()
    return frame


RTCRtpSender._next_encoded_frame = _departing


async def mic_open(sender, pts: int) -> float:
    """vload's mic open of a clip whose first frame is at `pts`: the start of that frame's slot,
    one frame before its packet left (a microphone's frame leaves once its last sample was
    spoken; docs/metrics.md, "Mic open and the frame schedule")."""
    sent = SENT.setdefault(id(sender), {})
    for _ in range(1000):
        if pts in sent:
            return sent[pts] - FRAME_MS / 1000
        await asyncio.sleep(0.001)
    raise TimeoutError(f"no packet left for pts {pts}")


async def call(session: aiohttp.ClientSession, url: str, barge_in: bool, after_heard_ms: float = 800,
               barge_in_wav: str = "barge-in.wav", start_jitter_ms: float = 0) -> dict:
    rate, question = read_wav(AUDIO / "weather.wav")
    _, interruption = read_wav(AUDIO / barge_in_wav)
    end_offset_ms = speech_span_ms(question, rate)[1]
    onset_offset_ms = speech_span_ms(interruption, rate)[0]
    pc = RTCPeerConnection()
    microphone = Microphone(rate)
    sender = pc.addTrack(microphone)
    channel = pc.createDataChannel("aiortc-caller")
    ready = asyncio.get_running_loop().create_future()
    result = {"first_audio_from_end_ms": None, "int_ack_ms": None, "speech_end_send_late_ms": None, "srtp_profile": None}
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
        # The SRTP profile DTLS agreed (pyOpenSSL's name), as the bot's answer or its order made it.
        profile = sender.transport._ssl.get_selected_srtp_profile()
        result["srtp_profile"] = profile.decode() if profile else None
        await asyncio.sleep(random.uniform(0, start_jitter_ms) / 1000)
        first_pts = await asyncio.wait_for(microphone.say(question), 15)
        started = await mic_open(sender, first_pts)
        state["speech_end"] = started + end_offset_ms / 1000
        # How late the packet holding the speech's last sample left against the frame schedule
        # (its slot's end): lateness here moves the bot's reply, not the caller's stamp.
        last = math.ceil(end_offset_ms / FRAME_MS)
        result["speech_end_send_late_ms"] = round(
            ((await mic_open(sender, first_pts + (last - 1) * microphone.samples)) - started - (last - 1) * FRAME_MS / 1000) * 1000, 3)
        if barge_in:
            await asyncio.wait_for(barge, 15)
            done = microphone.say(interruption)
            while microphone.started is None:
                await asyncio.sleep(0.001)
            state["barge_start"] = await mic_open(sender, microphone.started) + onset_offset_ms / 1000
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


async def main(url: str, clients: int, barge_in: bool, after_heard_ms: float, barge_in_wav: str,
               start_jitter_ms: float) -> list:
    with LOOPBACK_ONLY:
        async with aiohttp.ClientSession() as session:
            return await asyncio.gather(*(call(session, url, barge_in, after_heard_ms, barge_in_wav, start_jitter_ms)
                                          for _ in range(clients)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--clients", type=int, default=1)
    parser.add_argument("--barge-in", action="store_true")
    parser.add_argument("--after-heard-ms", type=float, default=800)
    parser.add_argument("--barge-in-wav", default="barge-in.wav", help="the barge-in clip, in scenarios/audio")
    parser.add_argument("--start-jitter-ms", type=float, default=0,
                        help="start the question a random 0 to this many ms after bot-ready (default 0)")
    args = parser.parse_args()
    if args.start_jitter_ms < 0:
        parser.error("--start-jitter-ms must be 0 or more")
    for row in asyncio.run(main(args.url, args.clients, args.barge_in, args.after_heard_ms, args.barge_in_wav,
                                args.start_jitter_ms)):
        print(json.dumps(row))
