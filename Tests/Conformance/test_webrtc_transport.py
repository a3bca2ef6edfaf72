"""vload's WebRTC transport against a real aiortc peer on loopback (docs/webrtc.md).

The probe (bench/webrtc-probe, built as vload-webrtc-probe beside $VLOAD_BIN) offers one audio
m-line; an aiortc RTCPeerConnection answers it as a full ICE agent taking the DTLS client role,
with its host candidates limited to 127.0.0.1. vload connects (ICE, DTLS 1.2, SRTP), sends three
seconds of scenarios/audio/hello.wav as 20 ms Opus frames, and decodes the 100 frames of tone
the peer sends back; aiortc counts and decodes what vload sent. On loopback nothing is lost, so
the counts must match exactly. vload is the DTLS server there, so its preference picks the SRTP
profile: AEAD_AES_128_GCM, which aiortc offers too; with aiortc narrowed to AES128_CM_SHA1_80
(a stack without GCM) the call agrees that instead, and the same counts hold.

The last test adds the data channel: the offer has an m=application section, vload opens a
channel over SCTP (libusrsctp, over the same DTLS association) and sends text messages that the
aiortc peer echoes; every one must come back, in order, and the open time be measured.
"""

import asyncio
import fractions
import json
import math
import os
from pathlib import Path
from unittest import mock

import av
import numpy
import pytest
from aiortc import MediaStreamTrack, RTCPeerConnection, RTCSessionDescription
from aiortc import rtcdtlstransport
from aiortc.mediastreams import MediaStreamError

ROOT = Path(__file__).resolve().parents[2]
PROBE = Path(os.environ.get("VLOAD_BIN", ROOT / ".build-tests/release/vload")).parent / "vload-webrtc-probe"
SECONDS = 3
FRAMES_SENT = SECONDS * 50
TONE_FRAMES = 100
SAMPLES_PER_FRAME = 960
# aiortc's audio receiver keeps a jitter buffer that releases a frame once 4 later ones are in
# (aiortc/rtcrtpreceiver.py: JitterBuffer(capacity=16, prefetch=4)): the last 4 stay undecoded.
AIORTC_PREFETCH_FRAMES = 4
MESSAGES = 50


class ToneTrack(MediaStreamTrack):
    """A 440 Hz tone, `frames` frames of 20 ms at 48 kHz, paced in real time, then the end."""

    kind = "audio"

    def __init__(self, frames):
        super().__init__()
        self.remaining = frames
        self.pts = 0

    async def recv(self):
        if self.remaining == 0:
            self.stop()
            raise MediaStreamError
        self.remaining -= 1
        await asyncio.sleep(0.02)
        times = (self.pts + numpy.arange(SAMPLES_PER_FRAME)) / 48_000
        samples = (8_000 * numpy.sin(2 * math.pi * 440 * times)).astype(numpy.int16).reshape(1, -1)
        frame = av.AudioFrame.from_ndarray(samples, format="s16", layout="mono")
        frame.sample_rate = 48_000
        frame.pts = self.pts
        frame.time_base = fractions.Fraction(1, 48_000)
        self.pts += SAMPLES_PER_FRAME
        return frame


async def _consume(track, decoded):
    try:
        while True:
            await track.recv()
            decoded.append(1)
    except MediaStreamError:
        pass


async def _call(messages=0, srtp_profiles=None):
    """One call of the probe answered by aiortc. `srtp_profiles` narrows the SRTP profiles aiortc
    offers (its own list puts AEAD_AES_256_GCM, AEAD_AES_128_GCM, then AES128_CM_SHA1_80)."""
    profiles = srtp_profiles or rtcdtlstransport.SRTP_PROFILES
    probe = await asyncio.create_subprocess_exec(
        str(PROBE), "--seconds", str(SECONDS), "--linger-ms", "1500", "--messages", str(messages),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, cwd=ROOT,
    )
    offer = json.loads(await asyncio.wait_for(probe.stdout.readline(), 30))
    decoded = []
    tasks = []
    channels = []
    peer = RTCPeerConnection()
    try:

        @peer.on("track")
        def on_track(track):
            tasks.append(asyncio.ensure_future(_consume(track, decoded)))

        @peer.on("datachannel")
        def on_datachannel(channel):
            echoed = []
            channels.append((channel, echoed))

            @channel.on("message")
            def on_message(message):
                echoed.append(message)
                channel.send(message)

        # aioice leaves 127.0.0.1 out of its host candidates; the test stays on loopback.
        with (
            mock.patch("aioice.ice.get_host_addresses", return_value=["127.0.0.1"]),
            mock.patch.object(rtcdtlstransport, "SRTP_PROFILES", profiles),
        ):
            peer.addTrack(ToneTrack(TONE_FRAMES))
            await peer.setRemoteDescription(RTCSessionDescription(sdp=offer["sdp"], type="offer"))
            await peer.setLocalDescription(await peer.createAnswer())
        probe.stdin.write(json.dumps({"sdp": peer.localDescription.sdp}).encode() + b"\n")
        await probe.stdin.drain()
        result = json.loads(await asyncio.wait_for(probe.stdout.readline(), 60))
        stats = await peer.getStats()
        inbound = [s for s in stats.values() if s.type == "inbound-rtp"]
        outbound = [s for s in stats.values() if s.type == "outbound-rtp"]
        received = [(channel.label, echoed) for channel, echoed in channels]
        # The profile the handshake agreed, as aiortc's OpenSSL connection has it (vload was the
        # DTLS server: aiortc answers `a=setup:active`, so vload's preference picked it).
        agreed = peer.getTransceivers()[0].sender.transport._ssl.get_selected_srtp_profile()
        return result, inbound, outbound, len(decoded), offer["sdp"], peer.localDescription.sdp, received, agreed
    finally:
        await peer.close()
        for task in tasks:
            task.cancel()
        await asyncio.wait_for(probe.wait(), 30)


@pytest.mark.skipif(not PROBE.exists(), reason=f"no probe at {PROBE} (build the test build: scripts/test)")
def test_vload_streams_opus_both_ways_with_aiortc():
    result, inbound, outbound, aiortc_decoded, offer, answer, _, agreed = asyncio.run(_call())
    assert "error" not in result, result
    assert "a=setup:active" in answer and "a=ice-lite" not in answer
    # vload, the DTLS server, agreed its first choice, which aiortc offers too.
    assert agreed == b"SRTP_AEAD_AES_128_GCM"
    # Connect phases were measured (loopback: ICE one round trip, DTLS two).
    assert 0 < result["ice_ms"] < 5_000 and 0 < result["dtls_ms"] < 5_000
    # vload -> aiortc: every packet sent arrived, authenticated and decoded.
    assert result["packets_sent"] == FRAMES_SENT
    assert [s.packetsReceived for s in inbound] == [FRAMES_SENT]
    assert [s.packetsLost for s in inbound] == [0]
    # aiortc -> vload: every tone packet aiortc sent arrived, unprotected and decoded.
    assert [s.packetsSent for s in outbound] == [TONE_FRAMES]
    assert result["packets_received"] == TONE_FRAMES
    assert result["packets_decoded"] == TONE_FRAMES
    assert result["samples_decoded"] == TONE_FRAMES * SAMPLES_PER_FRAME
    assert result["packets_lost"] == 0 and result["packets_rejected"] == 0
    assert aiortc_decoded == FRAMES_SENT - AIORTC_PREFETCH_FRAMES
    print(f"ice_ms={result['ice_ms']:.2f} dtls_ms={result['dtls_ms']:.2f} aiortc decoded {aiortc_decoded} frames")


@pytest.mark.skipif(not PROBE.exists(), reason=f"no probe at {PROBE} (build the test build: scripts/test)")
def test_a_peer_without_gcm_agrees_aes_cm():
    """aiortc narrowed to AES128_CM_SHA1_80, as a WebRTC stack without GCM: vload agrees it and
    media flows both ways with its 10-byte tags."""
    only_cm = [rtcdtlstransport.SRTP_AES128_CM_SHA1_80]
    result, inbound, outbound, aiortc_decoded, _, _, _, agreed = asyncio.run(_call(srtp_profiles=only_cm))
    assert "error" not in result, result
    assert agreed == b"SRTP_AES128_CM_SHA1_80"
    assert [s.packetsReceived for s in inbound] == [FRAMES_SENT] and [s.packetsLost for s in inbound] == [0]
    assert result["packets_received"] == TONE_FRAMES and result["packets_rejected"] == 0
    assert aiortc_decoded == FRAMES_SENT - AIORTC_PREFETCH_FRAMES


@pytest.mark.skipif(not PROBE.exists(), reason=f"no probe at {PROBE} (build the test build: scripts/test)")
def test_vload_data_channel_echoes_text_with_aiortc():
    result, inbound, _, _, offer, answer, channels, _ = asyncio.run(_call(MESSAGES))
    assert "error" not in result, result
    assert "m=application" in offer and "a=sctp-port:5000" in offer
    assert "m=application" in answer and "a=sctp-port:5000" in answer
    # The audio still flows beside the channel.
    assert [s.packetsReceived for s in inbound] == [FRAMES_SENT]
    # aiortc saw one channel, vload's, and every message in order; vload got every echo back.
    expected = ['{"vload": %d}' % index for index in range(MESSAGES)]
    assert channels == [("vload", expected)]
    assert result["messages_sent"] == MESSAGES
    assert result["messages_received"] == MESSAGES
    assert result["echoes_in_order"] is True
    assert 0 < result["data_channel_open_ms"] < 5_000
    print(f"ice_ms={result['ice_ms']:.2f} dtls_ms={result['dtls_ms']:.2f} data_channel_open_ms={result['data_channel_open_ms']:.2f}")
