"""pipecat_webrtc_pool.py: two real Pipecat bots, one process each, behind one POST /api/offer,
as bench/aiortc-compare.sh runs them for more calls than one Python bot process carries
(docs/webrtc.md, "More calls than one bot process carries"). vload's two callers are answered by
different bots, and each call is whole: ready, the question, the reply."""
import json
import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from test_pipecat_server import PipecatServer  # noqa: E402
from test_pipecat_webrtc_run import FIRST_AUDIO_MAX_MS, FIRST_AUDIO_MIN_MS, SPEECH_TIMEOUT_S, run_vload  # noqa: E402

BOTS = 2
CLIENTS = 2


@pytest.fixture(scope="module")
def pool(tmp_path_factory):
    instance = PipecatServer(tmp_path_factory.mktemp("pipecat-webrtc-pool"), script="pipecat_webrtc_pool.py",
                             extra_args=["--bots", str(BOTS), "--speech-timeout-s", str(SPEECH_TIMEOUT_S)])
    instance.start()
    yield instance
    instance.stop()


def test_calls_are_spread_over_the_bots(pool, tmp_path):
    out = tmp_path / "out"
    returncode, output = run_vload(pool, "pipecat-webrtc-one-question.yaml", CLIENTS, out)
    output += "\n" + "\n".join(pool.stdout_lines)
    report = json.loads((out / "report.json").read_text())
    assert returncode == 0 and report["sessions"]["completed"] == CLIENTS, output
    assert report["errors"]["total"] == 0, json.dumps(report["errors"], indent=1) + output
    assert report["metrics"]["ready_ms"]["count"] == CLIENTS, output
    first_audio = report["metrics"]["first_audio_from_end_ms"]
    assert first_audio["count"] == CLIENTS, output
    assert FIRST_AUDIO_MIN_MS <= first_audio["min"] and first_audio["max"] <= FIRST_AUDIO_MAX_MS, (first_audio, output)
    # The pool names the bot each offer went to: one call each, in turn.
    ready = re.search(r"\((\d+) bots on ports ([\d, ]+)\)", "\n".join(pool.stdout_lines))
    assert ready and int(ready.group(1)) == BOTS, output
    routed = [int(m.group(1)) for line in pool.stdout_lines if (m := re.match(r"POST /api/offer to bot on port (\d+)", line))]
    assert sorted(routed) == sorted(int(p) for p in ready.group(2).split(", ")), output
    print(f"pool of {BOTS}: offers to {routed}, first_audio_from_end_ms {first_audio}")
