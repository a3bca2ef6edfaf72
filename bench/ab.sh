#!/usr/bin/env bash
# One A/B load for comparing two builds (BENCHMARKS.md, "The pacer's wake-ups"): starts
# `BINARY serve` and `BINARY run` with one event-loop thread each, N sessions of
# bench/scenarios/bench-DIALECT.yaml for 40 s (10 s ramp-up, 15 s warm-up), and prints one line:
# the CPU of both processes over seconds 15–39 (cores), send-lag p50/p99/max, the first-audio
# error against the injected 700 ms, and the TCP segments the kernel retransmitted meanwhile.
# Alternate the builds run by run; the machine's speed drifts.
#
#   bench/ab.sh 300 openai-realtime .build/release/vload new
set -euo pipefail
if [ $# -ne 4 ]; then echo "usage: bench/ab.sh N DIALECT BINARY TAG" >&2; exit 2; fi
sessions=$1 dialect=$2 binary=$3 tag=$4
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/.build-bench/ab/$tag"
rm -rf "$out" && mkdir -p "$out"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
retransmitted() { awk '/^Tcp:/ { n++; if (n == 2) print $13 }' /proc/net/snmp; }

"$binary" serve --dialect "$dialect" --port "$port" --sim-reply-latency 700 --threads 1 >"$out/serve.log" 2>&1 &
server=$!
trap 'kill -INT $server 2>/dev/null || true' EXIT
sleep 1
"$binary" run --scenario "$root/bench/scenarios/bench-$dialect.yaml" --url "ws://127.0.0.1:$port" \
    --dialect "$dialect" --clients "$sessions" --ramp-up 10s --duration 40s --drain 0s --warmup 15s \
    --quiet --threads 1 --max-lag-ms 2 --out "$out/report" >"$out/run.log" 2>&1 &
tester=$!
sleep 15
t0=$(cpu $tester) s0=$(cpu $server) r0=$(retransmitted)
sleep 24
t1=$(cpu $tester) s1=$(cpu $server) r1=$(retransmitted)
status=0
wait $tester || status=$?
ticks=$(getconf CLK_TCK)
python3 - "$out/report/report.json" "$tag" "$sessions" "$(( t1 - t0 ))" "$(( s1 - s0 ))" "$ticks" "$(( r1 - r0 ))" "$status" <<'PY'
import json, sys
path, tag, sessions, tester, server, ticks, retransmits, status = sys.argv[1:]
report = json.load(open(path))
lag, first = report["generator"]["send_lag_ms"], report["metrics"]["first_audio_from_end_ms"]
window = 24 * int(ticks)
print(f"{tag} N={sessions} tester {int(tester) / window:.2f} sim {int(server) / window:.2f} cores  "
      f"send lag p50 {lag['p50']:.2f} p99 {lag['p99']:.2f} max {lag['max']:.1f} ms  "
      f"error p50 {first['p50'] - 700:+.1f} p99 {first['p99'] - 700:+.1f} max {first['max'] - 700:+.1f} ms  "
      f"retransmits {retransmits}  exit {status}")
PY
