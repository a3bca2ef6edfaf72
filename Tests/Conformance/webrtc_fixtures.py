"""STUN messages and SDP made and read by aioice and aiortc, for vload's WebRTC unit tests.

aioice (the ICE agent under aiortc, and so under pipecat-ai's SmallWebRTC transport) packs the
Binding requests, responses and errors ICE exchanges, with MESSAGE-INTEGRITY and FINGERPRINT.
aiortc's SDP parser reads the offer vload writes (fixtures/vload_sdp_offer.sdp, which a vload
unit test checks is what vload writes), and aiortc's SDP writer answers it: once as a full ICE
agent taking the DTLS client role, once as an ICE-lite agent. `python webrtc_fixtures.py` writes
fixtures/aiortc_webrtc.json, which Tests/VoiceLoadTests/WebRTC/AiortcWebRTCFixtureTests.swift
replays through vload's STUN codec and SDP reader; test_webrtc_fixtures.py checks the committed
file is what the pinned aioice and aiortc make.
"""

import copy
import json
import sys
from importlib.metadata import version
from pathlib import Path

from aioice import stun
from aiortc import sdp
from aiortc.rtcdtlstransport import RTCDtlsFingerprint, RTCDtlsParameters
from aiortc.rtcicetransport import RTCIceCandidate, RTCIceParameters

FIXTURES = Path(__file__).parent / "fixtures"
FIXTURE = FIXTURES / "aiortc_webrtc.json"
OFFER = FIXTURES / "vload_sdp_offer.sdp"
PASSWORD = "0123456789abcdefghijklmnop"
TRANSACTION_ID = bytes(range(1, 13))
TIE_BREAKER = 0x0123_4567_89AB_CDEF


def _stun(name, message_class, attributes, *, key=PASSWORD, fingerprint_only=False):
    message = stun.Message(
        message_method=stun.Method.BINDING,
        message_class=message_class,
        transaction_id=TRANSACTION_ID,
        attributes=dict(attributes),
    )
    if fingerprint_only:
        message.add_fingerprint()
    else:
        message.add_message_integrity(key.encode())
    data = bytes(message)
    parsed = stun.parse_message(data)
    assert fingerprint_only or parsed.check_message_integrity(key.encode())
    read = {k: v for k, v in parsed.attributes.items() if k not in ("MESSAGE-INTEGRITY", "FINGERPRINT")}
    return {
        "name": name,
        "bytes": data.hex(),
        "type": int(message.message_method | message.message_class),
        "transaction_id": TRANSACTION_ID.hex(),
        "integrity": not fingerprint_only,
        "attributes": [_attribute(k, v) for k, v in read.items()],
    }


def _attribute(name, value):
    if name in ("XOR-MAPPED-ADDRESS",):
        return {"name": name, "host": value[0], "port": value[1]}
    if name == "ERROR-CODE":
        return {"name": name, "code": value[0], "reason": value[1]}
    if name in ("USERNAME", "SOFTWARE"):
        return {"name": name, "text": value}
    if name == "USE-CANDIDATE":
        return {"name": name}
    return {"name": name, "number": value}


def stun_messages():
    request = [
        ("USERNAME", "peerUfrag:vloadUfrag"),
        ("PRIORITY", 1_853_824_767),
        ("ICE-CONTROLLING", TIE_BREAKER),
        ("USE-CANDIDATE", None),
    ]
    return [
        _stun("controlling nominating request", stun.Class.REQUEST, request),
        _stun(
            "controlled request",
            stun.Class.REQUEST,
            [("USERNAME", "vloadUfrag:peerUfrag"), ("PRIORITY", 1_845_501_695), ("ICE-CONTROLLED", TIE_BREAKER)],
        ),
        _stun("IPv4 success", stun.Class.RESPONSE, [("XOR-MAPPED-ADDRESS", ("127.0.0.1", 50_123))]),
        _stun("IPv6 success", stun.Class.RESPONSE, [("XOR-MAPPED-ADDRESS", ("::1", 65_535))]),
        _stun("role conflict", stun.Class.ERROR, [("ERROR-CODE", (487, "Role Conflict"))]),
        _stun("software, no integrity", stun.Class.INDICATION, [("SOFTWARE", "aioice")], fingerprint_only=True),
    ]


def _offer_facts(offer):
    media = offer.media[0]
    return {
        "kind": media.kind,
        "port": media.port,
        "profile": media.profile,
        "direction": media.direction,
        "rtcp_mux": media.rtcp_mux,
        "mid": media.rtp.muxId,
        "codecs": [f"{c.payloadType} {c}" for c in media.rtp.codecs],
        "fmtp": [dict(c.parameters) for c in media.rtp.codecs],
        "ice_ufrag": media.ice.usernameFragment,
        "ice_pwd": media.ice.password,
        "candidates": [sdp.candidate_to_sdp(c) for c in media.ice_candidates],
        "candidates_complete": media.ice_candidates_complete,
        "fingerprints": [f"{f.algorithm} {f.value}" for f in media.dtls.fingerprints],
        "dtls_role": media.dtls.role,
        "ssrc": [{"ssrc": s.ssrc, "cname": s.cname} for s in media.ssrc],
        "bundle": [str(g) for g in offer.group],
    }


def _answer(offer, *, lite):
    answer = copy.deepcopy(offer)
    answer.origin = "- 3900000000 0 IN IP4 0.0.0.0"
    media = answer.media[0]
    media.port = 40_000
    media.host = "127.0.0.1"
    media.ssrc = []
    media.ice = RTCIceParameters(usernameFragment="peerUfrag", password=PASSWORD, iceLite=lite)
    media.ice_candidates = [
        RTCIceCandidate(
            component=1, foundation="a1b2", ip="127.0.0.1", port=40_000, priority=2_130_706_431, protocol="udp", type="host"
        ),
        RTCIceCandidate(
            component=1, foundation="c3d4", ip="::1", port=40_002, priority=2_130_706_175, protocol="udp", type="host"
        ),
    ]
    media.ice_candidates_complete = True
    digest = ":".join(f"{b:02X}" for b in range(0xA0, 0xA0 + 32))
    media.dtls = RTCDtlsParameters(fingerprints=[RTCDtlsFingerprint(algorithm="sha-256", value=digest)], role="client")
    return str(answer)


def text():
    offer = sdp.SessionDescription.parse(OFFER.read_text())
    fixture = {
        "aioice": version("aioice"),
        "aiortc": version("aiortc"),
        "stun": stun_messages(),
        "offer": _offer_facts(offer),
        "answers": {"full": _answer(offer, lite=False), "lite": _answer(offer, lite=True)},
    }
    return json.dumps(fixture, indent=1) + "\n"


if __name__ == "__main__":
    FIXTURE.write_text(text())
    sys.stdout.write(f"wrote {FIXTURE}\n")
