#!/bin/bash
# vload against an independent aiortc caller (Tests/Conformance/aiortc_caller.py), on real Pipecat
# 1.14 SmallWebRTC bots (Tests/Conformance/pipecat_webrtc_server.py) on loopback: ROUNDS rounds,
# each a vload run of CLIENTS callers and AIORTC_CLIENTS aiortc callers, every caller making
# Tests/Conformance/scenarios/pipecat-webrtc-compare.yaml's call: a question, then
# scenarios/audio/one-moment.wav over the answer 800 ms into it. Prints each round's first audio and int_ack_ms (min, median, max) for both,
# then the medians over all rounds and how far apart they are.
#
#   VLOAD_BIN=.build-tests/release/vload bench/aiortc-compare.sh      # ROUNDS=5 CLIENTS=1 by default
#   ROUNDS=3 CLIENTS=20 AIORTC_CLIENTS=4 BOTS=10 TOGETHER=1 bench/aiortc-compare.sh
#
# BOTS=1 (the default) runs one bot process; BOTS=N > 1 runs N behind one offer URL
# (Tests/Conformance/pipecat_webrtc_pool.py): one Python bot process carries about a dozen calls
# (BENCHMARKS.md, "20 callers against real Pipecat bots"). TOGETHER=0 (the default) runs vload's
# callers, then the aiortc callers; TOGETHER=1 runs both at once, so both measure the same bots
# under the same load. The bots and both callers run at nice -15 so that a build beside them
# disturbs them less (run as root, or set NICE=0); BOT_NICE sets the bots' apart, so that on a
# machine the bots fill, the callers' clocks are not the ones that wait.
#
# START_JITTER_MS=N (0 by default: the question right at bot-ready) has both callers wait a random
# 0-N ms between the bot's bot-ready and the question (vload: a `silence: [0, N]` step, the round
# as the scenario's seed). A bot's answer moves with where the speech falls against its VAD's
# 32 ms windows (920-1,040 ms here): callers that start at a fixed offset from bot-ready sample
# one such phase each, and with random waits a median of a few dozen calls wanders by ~20 ms.
#
# BOT_STAMPS=1 has the bots stamp each call themselves (bench/bot-stamps/sitecustomize.py): from the
# arrival of the packet holding the question's speech end to their reply's first packet, one clock
# for the bots and both callers; the last lines print its medians for each caller's calls beside
# the callers' own, so a gap between the callers is seen to be in the bots' answers or in a caller.
#
# Needs the conformance venv (scripts/conformance builds it in .build-conformance/venv).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PY=${PYTHON:-$ROOT/.build-conformance/venv/bin/python}
VLOAD=$(realpath "${VLOAD_BIN:-$ROOT/.build/release/vload}")
ROUNDS=${ROUNDS:-5}; CLIENTS=${CLIENTS:-1}; AIORTC_CLIENTS=${AIORTC_CLIENTS:-$CLIENTS}
BOTS=${BOTS:-1}; TOGETHER=${TOGETHER:-0}; NICE=${NICE:--15}; BOT_NICE=${BOT_NICE:-$NICE}; BOT_STAMPS=${BOT_STAMPS:-0}
START_JITTER_MS=${START_JITTER_MS:-0}
WORK=$(mktemp -d); trap 'kill $SERVER 2>/dev/null; wait; rm -rf "$WORK"' EXIT
PORT=$($PY -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cd "$ROOT/Tests/Conformance"
BOT_ARGS=(--in-rate 16000 --out-rate 24000 --speech-timeout-s 0.6 --reply-wav "$ROOT/scenarios/audio/thanks.wav"
  --max-lifetime-s 1800 --call-timeout-s 60)
if [ "$BOT_STAMPS" = 1 ]; then
  export PYTHONPATH="$ROOT/bench/bot-stamps${PYTHONPATH:+:$PYTHONPATH}" VLOAD_BOT_STAMPS="$WORK/stamps"
fi
if [ "$BOTS" -gt 1 ]; then
  nice -n "$BOT_NICE" "$PY" pipecat_webrtc_pool.py --bots "$BOTS" --port "$PORT" "${BOT_ARGS[@]}" > "$WORK/server.out" 2>&1 &
else
  nice -n "$BOT_NICE" "$PY" pipecat_webrtc_server.py --port "$PORT" "${BOT_ARGS[@]}" > "$WORK/server.out" 2>&1 &
fi
SERVER=$!
for _ in $(seq $((60 + 15 * BOTS))); do grep -q "ready on port" "$WORK/server.out" && break; sleep 1; done
grep -q "ready on port" "$WORK/server.out" || { cat "$WORK/server.out"; exit 1; }
summary() {  # name, then a list of numbers on stdin
  python3 -c '
import statistics, sys
values = [float(v) for v in sys.stdin.read().split()]
print("  %-26s n=%-3d min %7.1f  median %7.1f  max %7.1f" % (sys.argv[1], len(values), min(values), statistics.median(values), max(values)) if values else "  %-26s none" % sys.argv[1])' "$1"
}
vload_column() {  # turns.csv's column $1 (the question's turn for first audio), one value a line
  python3 -c 'import csv,sys; [print(r[sys.argv[2]]) for r in csv.DictReader(open(sys.argv[1])) if r[sys.argv[2]] and (sys.argv[2] != "first_audio_from_end_ms" or r["label"] == "question")]' "$WORK/out/turns.csv" "$1"
}
aiortc_column() {
  python3 -c 'import json,sys; [print(r[sys.argv[2]]) for r in map(json.loads, open(sys.argv[1])) if r[sys.argv[2]] is not None]' "$WORK/aiortc.jsonl" "$1"
}
# The call vload makes, written for each round: the scenario with START_JITTER_MS's wait before
# the question, and the round as its seed, so that each round draws its callers' waits anew.
write_scenario() {  # the round
  if [ "$START_JITTER_MS" = 0 ]; then JITTER_STEP=''; else JITTER_STEP="  - silence: [0, $START_JITTER_MS]"; fi
  awk -v step="$JITTER_STEP" -v audio="$ROOT/scenarios/audio/" -v seed="$1" '
    /^  - say: / && !said { said = 1; if (step != "") print step }
    /^quiet_ms:/ { print; print "seed: " seed; next }
    { gsub(/\.\.\/\.\.\/\.\.\/scenarios\/audio\//, audio); print }' scenarios/pipecat-webrtc-compare.yaml > "$WORK/compare.yaml"
}
run_vload() {
  nice -n "$NICE" "$VLOAD" run --url "http://127.0.0.1:$PORT" --dialect pipecat-webrtc --clients "$CLIENTS" \
    --scenario "$WORK/compare.yaml" --out "$WORK/out" --quiet > "$WORK/vload.log" 2>&1
}
run_aiortc() {
  nice -n "$NICE" "$PY" aiortc_caller.py --url "http://127.0.0.1:$PORT/api/offer" --clients "$AIORTC_CLIENTS" --barge-in \
    --barge-in-wav one-moment.wav --start-jitter-ms "$START_JITTER_MS" > "$WORK/aiortc.jsonl"
}
: > "$WORK/all"
for round in $(seq "$ROUNDS"); do
  rm -rf "$WORK/out"
  write_scenario "$round"
  status=0
  if [ "$TOGETHER" = 1 ]; then
    run_aiortc & AIORTC=$!
    run_vload || status=$?
    wait $AIORTC
  else
    run_vload || status=$?
    run_aiortc
  fi
  grep -E "^(send_lag_ms|receive_lag_ms|verdict)" "$WORK/vload.log" | sed 's/^/  /' || true
  echo "round $round: vload, $CLIENTS callers (exit $status; $(grep -o 'CPU [0-9.]*% of one core[^·]*· [a-zA-Z]*' "$WORK/vload.log" || true))"
  for key in first_audio_from_end_ms int_ack_ms; do
    vload_column "$key" | tee -a "$WORK/vload-$key" | summary "$key"
  done
  echo "round $round: aiortc caller, $AIORTC_CLIENTS callers$([ "$TOGETHER" = 1 ] && echo ', at the same time')"
  aiortc_column speech_end_send_late_ms | summary speech_end_send_late_ms
  for key in first_audio_from_end_ms int_ack_ms; do
    aiortc_column "$key" | tee -a "$WORK/aiortc-$key" | summary "$key"
  done
done
echo "all rounds:"
for key in first_audio_from_end_ms int_ack_ms; do
  python3 -c '
import statistics, sys
v, a = ([float(x) for x in open(p).read().split()] for p in sys.argv[2:4])
if v and a:
    print("  %-26s vload median %7.1f (n=%d)  aiortc median %7.1f (n=%d)  apart %5.1f ms" % (
        sys.argv[1], statistics.median(v), len(v), statistics.median(a), len(a), abs(statistics.median(v) - statistics.median(a))))' \
    "$key" "$WORK/vload-$key" "$WORK/aiortc-$key"
done
if [ "$BOT_STAMPS" = 1 ]; then
  kill "$SERVER"; wait "$SERVER" || true  # the bots write their stamps as they exit
  echo "the bots' own stamps (speech-end packet in, first reply packet out):"
  python3 -c '
import glob, json, statistics, sys
rows = [json.loads(line) for path in glob.glob(sys.argv[1] + "/stamps-*.jsonl") for line in open(path)]
for caller in ("vload", "aiortc"):
    values = [r["from_end_ms"] for r in rows if r["caller"] == caller and r["from_end_ms"] is not None]
    print("  %-26s %s calls: median %7.1f (n=%d)" % ("first_audio_from_end_ms", caller, statistics.median(values), len(values)) if values else "  %s calls: none" % caller)
    if values and len(values) <= 12:  # a few calls: each, in the order a bot took them (one bot: the rounds order)
        print("    " + " ".join("%.1f" % v for v in values))' "$WORK/stamps"
fi
