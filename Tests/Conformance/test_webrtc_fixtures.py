"""The STUN and SDP fixture vload's unit tests replay is what the pinned aioice and aiortc make
(webrtc_fixtures.py), and aiortc reads vload's offer as vload means it."""

import webrtc_fixtures


def test_committed_webrtc_fixture_is_aiortcs():
    assert webrtc_fixtures.FIXTURE.read_text() == webrtc_fixtures.text(), (
        "Tests/Conformance/fixtures/aiortc_webrtc.json differs from what aioice and aiortc make now: "
        "run Tests/Conformance/webrtc_fixtures.py with the suite's venv and review the change"
    )


def test_aiortc_reads_vloads_offer():
    from aiortc import sdp

    offer = sdp.SessionDescription.parse(webrtc_fixtures.OFFER.read_text())
    media = offer.media[0]
    assert media.kind == "audio" and media.profile == "UDP/TLS/RTP/SAVPF"
    assert media.direction == "sendrecv" and media.rtcp_mux
    assert [(c.payloadType, c.mimeType, c.clockRate, c.channels) for c in media.rtp.codecs] == [(111, "audio/opus", 48000, 2)]
    assert [(c.type, c.ip, c.protocol) for c in media.ice_candidates] == [("host", "127.0.0.1", "udp")]
    assert media.dtls.role == "auto" and [f.algorithm for f in media.dtls.fingerprints] == ["sha-256"]
