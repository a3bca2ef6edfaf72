#!/bin/bash
# vload against an independent aiortc caller (Tests/Conformance/aiortc_caller.py), on one real
# Pipecat 1.14 SmallWebRTC bot (Tests/Conformance/pipecat_webrtc_server.py) on loopback: ROUNDS
# rounds, each a vload run of CLIENTS callers, then CLIENTS aiortc callers, one after the other,
# every caller asking Tests/Conformance/scenarios/pipecat-webrtc-barge-in.yaml's question and
# talking over the answer 800 ms into it. Prints each round's first audio and int_ack_ms (min,
# median, max) for both. The bot and both callers run at nice -15 so that a build beside them
# disturbs them less (run as root, or set NICE=0).
#
#   VLOAD_BIN=.build-tests/release/vload bench/aiortc-compare.sh      # ROUNDS=5 CLIENTS=1 by default
#
# Needs the conformance venv (scripts/conformance builds it in .build-conformance/venv).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-$ROOT/.build-conformance/venv/bin/python}
VLOAD=$(realpath "${VLOAD_BIN:-$ROOT/.build/release/vload}")
ROUNDS=${ROUNDS:-5}; CLIENTS=${CLIENTS:-1}; NICE=${NICE:--15}
WORK=$(mktemp -d); trap 'kill $SERVER 2>/dev/null; wait; rm -rf "$WORK"' EXIT
PORT=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cd "$ROOT/Tests/Conformance"
nice -n "$NICE" "$PY" pipecat_webrtc_server.py --port "$PORT" --in-rate 16000 --out-rate 24000 --speech-timeout-s 0.6 \
  --reply-wav "$ROOT/scenarios/audio/thanks.wav" --max-lifetime-s 1800 --call-timeout-s 60 > "$WORK/server.out" 2>&1 &
SERVER=$!
for _ in $(seq 60); do grep -q "ready on port" "$WORK/server.out" && break; sleep 1; done
grep -q "ready on port" "$WORK/server.out" || { cat "$WORK/server.out"; exit 1; }
summary() {  # name, then a list of numbers on stdin
  python3 -c '
import statistics, sys
values = [float(v) for v in sys.stdin.read().split()]
print("  %-26s n=%-2d min %7.1f  median %7.1f  max %7.1f" % (sys.argv[1], len(values), min(values), statistics.median(values), max(values)) if values else "  %-26s none" % sys.argv[1])' "$1"
}
for round in $(seq "$ROUNDS"); do
  rm -rf "$WORK/out"
  status=0
  nice -n "$NICE" "$VLOAD" run --url "http://127.0.0.1:$PORT" --dialect pipecat-webrtc --clients "$CLIENTS" \
    --scenario scenarios/pipecat-webrtc-barge-in.yaml --out "$WORK/out" --quiet --max-lag-ms 20 > /dev/null 2>&1 || status=$?
  echo "round $round: vload (exit $status)"
  python3 -c 'import csv,sys; [print(r["first_audio_from_end_ms"]) for r in csv.DictReader(open(sys.argv[1])) if r["label"] == "question" and r["first_audio_from_end_ms"]]' "$WORK/out/turns.csv" | summary first_audio_from_end_ms
  python3 -c 'import csv,sys; [print(r["int_ack_ms"]) for r in csv.DictReader(open(sys.argv[1])) if r["int_ack_ms"]]' "$WORK/out/turns.csv" | summary int_ack_ms
  echo "round $round: aiortc caller"
  nice -n "$NICE" "$PY" aiortc_caller.py --url "http://127.0.0.1:$PORT/api/offer" --clients "$CLIENTS" --barge-in > "$WORK/aiortc.jsonl"
  for key in first_audio_from_end_ms int_ack_ms; do
    python3 -c 'import json,sys; [print(r[sys.argv[2]]) for r in map(json.loads, open(sys.argv[1])) if r[sys.argv[2]] is not None]' "$WORK/aiortc.jsonl" "$key" | summary "$key"
  done
done
