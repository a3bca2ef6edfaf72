"""The bot's own stamps, for bench/aiortc-compare.sh (BOT_STAMPS=1): loaded by Python at start-up
from PYTHONPATH, it acts only in a process running Tests/Conformance/pipecat_webrtc_server.py with
VLOAD_BOT_STAMPS set to a folder, and leaves every other process alone.

In the bot, every RTP packet is stamped with time.monotonic() (one clock for every process of the
machine) as aiortc's receiver is handed it, and every packet the bot sends as its sender hands it
to the transport. When the bot exits, one JSON line a call goes to VLOAD_BOT_STAMPS/stamps-PID.jsonl:

- `from_end_ms`: from the arrival of the packet that holds the question's speech end to the first
  packet of the bot's reply (the first after ten or more of its 3-byte silence packets); the
  figure both callers measure as first_audio_from_end_ms, less one loopback transit;
- `caller`: "aiortc" when the call's packets carry the `mid` header extension (aiortc sends it),
  else "vload".

The question's first packet is the call's first that is not the caller's silence, which is what
it sends while it waits for the reply (aiortc: a running encoder's 3-byte packets of digital
silence; vload: one packet of silence, repeated). A call may begin with the question: vload's
microphone opens as the call does, and its question can go out in the stream's first packet. The
packet holding the speech end is the question's (VLOAD_BOT_STAMPS_END_MS / 20)th: 2,020 ms into
weather.wav, the 101st. Checked against both callers, one call a round, and against the decoded
voice onset (BENCHMARKS.md, "The bots' own stamps").
"""
import atexit
import json
import math
import os
import sys
import time

FOLDER = os.environ.get("VLOAD_BOT_STAMPS")
if FOLDER and any(arg.endswith("pipecat_webrtc_server.py") for arg in sys.argv):
    from aiortc.rtcrtpreceiver import RTCRtpReceiver
    from aiortc.rtcrtpsender import RTCRtpSender

    END_PACKETS = math.ceil(float(os.environ.get("VLOAD_BOT_STAMPS_END_MS", "2020")) / 20)
    ARRIVALS, DEPARTURES, CALLERS = {}, {}, {}  # by the call's DTLS transport
    _receive = RTCRtpReceiver._handle_rtp_packet
    _next = RTCRtpSender._next_encoded_frame

    async def _stamp_arrival(self, packet, arrival_time_ms):
        call = id(self.transport)
        CALLERS.setdefault(call, "aiortc" if packet.extensions.mid else "vload")
        ARRIVALS.setdefault(call, []).append((time.monotonic(), bytes(packet.payload)))
        return await _receive(self, packet, arrival_time_ms)

    async def _stamp_departure(self, codec):
        frame = await _next(self, codec)
        if frame is not None:
            DEPARTURES.setdefault(id(self.transport), []).append((time.monotonic(), sum(map(len, frame.payloads))))
        return frame

    def from_end_ms(call):
        silent, reply = 0, None
        for sent, size in DEPARTURES[call]:
            if size <= 3:
                silent += 1
            elif silent >= 10:
                reply = sent
                break
            else:
                silent = 0
        heard = [(arrived, payload) for arrived, payload in ARRIVALS[call] if reply is not None and arrived < reply]
        if not heard:
            return None
        silence = heard[-1][1]  # what the caller sends while it waits for the reply
        start = next((i for i, (_, payload) in enumerate(heard) if len(payload) > 3 and payload != silence), None)
        if start is None:
            return None
        end = start + END_PACKETS - 1
        return round((reply - heard[end][0]) * 1000, 2) if end < len(heard) else None

    def write():
        os.makedirs(FOLDER, exist_ok=True)
        with open(os.path.join(FOLDER, f"stamps-{os.getpid()}.jsonl"), "a") as out:
            for call in ARRIVALS:
                if call in DEPARTURES:
                    out.write(json.dumps({"caller": CALLERS[call], "from_end_ms": from_end_ms(call)}) + "\n")

    RTCRtpReceiver._handle_rtp_packet = _stamp_arrival
    RTCRtpSender._next_encoded_frame = _stamp_departure
    atexit.register(write)
