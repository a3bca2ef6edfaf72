"""RTP packets and receive statistics made by aiortc, for vload's RTP unit tests.

aiortc (the WebRTC stack under pipecat-ai's SmallWebRTC transport) packs the packets with its
`RtpPacket`, reads each back with `RtpPacket.parse`, rejects the malformed ones with its own
errors, and counts a stream with the `StreamStatistics` its receiver keeps (RFC 3550 loss and
jitter). `python rtp_fixtures.py` writes fixtures/aiortc_rtp.json, which
Tests/VoiceLoadTests/RTP/AiortcRTPFixtureTests.swift replays through vload's parser and
statistics; test_rtp_fixtures.py checks that the committed file is what the pinned aiortc makes.
"""

import json
import struct
import sys
from importlib.metadata import version
from pathlib import Path
from unittest import mock

from aiortc import rtcrtpreceiver
from aiortc.rtcrtpparameters import RTCRtpHeaderExtensionParameters, RTCRtpParameters
from aiortc.rtp import HeaderExtensionsMap, RtpPacket

FIXTURE = Path(__file__).parent / "fixtures" / "aiortc_rtp.json"
OPUS_PAYLOAD_TYPE = 111
CLOCK_RATE_HZ = 48_000


def _extensions_map() -> HeaderExtensionsMap:
    extensions = HeaderExtensionsMap()
    extensions.configure(
        RTCRtpParameters(
            headerExtensions=[
                RTCRtpHeaderExtensionParameters(id=1, uri="urn:ietf:params:rtp-hdrext:ssrc-audio-level"),
                RTCRtpHeaderExtensionParameters(id=4, uri="urn:ietf:params:rtp-hdrext:sdes:mid"),
            ]
        )
    )
    return extensions


def _packet(name, *, marker=0, sequence_number, timestamp, ssrc, payload, csrc=(), padding_size=0, mid=None):
    packet = RtpPacket(
        payload_type=OPUS_PAYLOAD_TYPE,
        marker=marker,
        sequence_number=sequence_number,
        timestamp=timestamp,
        ssrc=ssrc,
        payload=payload,
    )
    packet.csrc = list(csrc)
    packet.padding_size = padding_size
    extensions = _extensions_map()
    if mid is not None:
        packet.extensions.mid = mid
        packet.extensions.audio_level = (True, 40)
    # aiortc pads with random bytes; zeros keep the fixture the same from run to run.
    with mock.patch("aiortc.rtp.os.urandom", lambda count: bytes(count)):
        data = packet.serialize(extensions)
    parsed = RtpPacket.parse(data, extensions)
    position = 12 + 4 * len(parsed.csrc)
    extension_profile = extension_data = None
    if data[0] & 0x10:
        extension_profile, words = struct.unpack_from("!HH", data, position)
        extension_data = data[position + 4 : position + 4 + 4 * words].hex()
    return {
        "name": name,
        "bytes": data.hex(),
        "marker": bool(parsed.marker),
        "payload_type": parsed.payload_type,
        "sequence_number": parsed.sequence_number,
        "timestamp": parsed.timestamp,
        "ssrc": parsed.ssrc,
        "csrc": parsed.csrc,
        "extension_profile": extension_profile,
        "extension_data": extension_data,
        "padding_size": parsed.padding_size,
        "payload": parsed.payload.hex(),
    }


def packets():
    opus = bytes.fromhex("78") + bytes(range(1, 40))
    return [
        _packet("talkspurt start", marker=1, sequence_number=1, timestamp=960, ssrc=0x12345678, payload=opus),
        _packet("sequence and timestamp at their top", sequence_number=0xFFFF, timestamp=0xFFFFFC40, ssrc=0xFFFFFFFF, payload=opus),
        _packet("CSRCs", sequence_number=7, timestamp=6720, ssrc=1, payload=opus, csrc=(0xDEADBEEF, 2, 3)),
        _packet("one-byte header extensions", sequence_number=8, timestamp=7680, ssrc=1, payload=opus, mid="0"),
        _packet("padding", sequence_number=9, timestamp=8640, ssrc=1, payload=opus, padding_size=5),
        _packet("everything", marker=1, sequence_number=10, timestamp=9600, ssrc=1, payload=opus, csrc=(4,), padding_size=1, mid="audio"),
        _packet("empty payload", sequence_number=11, timestamp=10560, ssrc=1, payload=b""),
    ]


def malformed():
    header = bytes.fromhex("806f0001000003c012345678")
    cases = [
        ("tooShort", header[:11]),
        ("unsupportedVersion", bytes([0x40]) + header[1:]),
        ("truncatedCSRCList", bytes([0x82]) + header[1:] + bytes(4)),
        ("truncatedHeaderExtension", bytes([0x90]) + header[1:] + bytes(2)),
        ("truncatedHeaderExtension", bytes([0x90]) + header[1:] + bytes.fromhex("bede0002") + bytes(4)),
        ("invalidPadding", bytes([0xA0]) + header[1:] + b"\x01\x02\x00"),
        ("invalidPadding", bytes([0xA0]) + header[1:] + b"\x01\x02\x04"),
    ]
    result = []
    for kind, data in cases:
        try:
            RtpPacket.parse(data)
        except ValueError as error:
            result.append({"kind": kind, "bytes": data.hex(), "aiortc_error": str(error)})
        else:
            raise AssertionError(f"aiortc accepted {data.hex()}")
    return result


def statistics():
    """A stream with loss, reordering, a duplicate and a sequence wrap, at arrival instants that
    are multiples of 1/512 s: exact in binary floating point, so aiortc's int(time × rate) is
    the floor vload computes from whole nanoseconds."""
    arrivals = [  # (sequence number, timestamp, arrival in 1/512 s)
        (65530, 100_000, 0), (65531, 100_960, 10), (65532, 101_920, 21), (65534, 103_840, 41),
        (65533, 102_880, 42), (65535, 104_800, 51), (0, 105_760, 62), (0, 105_760, 63),
        (1, 106_720, 73), (4, 109_600, 103), (3, 108_640, 104), (5, 110_560, 112),
        (6, 111_520, 150), (7, 112_480, 151), (8, 113_440, 152), (9, 114_400, 153),
    ]
    stream = rtcrtpreceiver.StreamStatistics(CLOCK_RATE_HZ)
    steps = []
    for sequence_number, timestamp, ticks in arrivals:
        with mock.patch.object(rtcrtpreceiver.time, "time", lambda: ticks / 512):
            stream.add(RtpPacket(payload_type=OPUS_PAYLOAD_TYPE, sequence_number=sequence_number, timestamp=timestamp))
        steps.append(
            {
                "sequence_number": sequence_number,
                "timestamp": timestamp,
                "arrival_ns": ticks * 1_953_125,
                "packets_received": stream.packets_received,
                "packets_expected": stream.packets_expected,
                "packets_lost": stream.packets_lost,
                "jitter": stream.jitter,
            }
        )
    return {"clock_rate_hz": CLOCK_RATE_HZ, "steps": steps}


def fixture():
    return {
        "made_by": f"Tests/Conformance/rtp_fixtures.py with aiortc {version('aiortc')}",
        "packets": packets(),
        "malformed": malformed(),
        "statistics": statistics(),
    }


def text():
    return json.dumps(fixture(), indent=1) + "\n"


if __name__ == "__main__":
    FIXTURE.write_text(text())
    sys.stdout.write(f"wrote {FIXTURE}\n")
