"""The RTP fixture vload's unit tests replay is what the pinned aiortc makes (rtp_fixtures.py)."""

import rtp_fixtures


def test_committed_rtp_fixture_is_aiortcs():
    assert rtp_fixtures.FIXTURE.read_text() == rtp_fixtures.text(), (
        "Tests/Conformance/fixtures/aiortc_rtp.json differs from what aiortc makes now: "
        "run Tests/Conformance/rtp_fixtures.py with the suite's venv and review the change"
    )
