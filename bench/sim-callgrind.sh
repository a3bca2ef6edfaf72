#!/usr/bin/env bash
# The built-in simulator's instructions per call, counted exactly by valgrind's callgrind
# (BENCHMARKS.md, "The built-in simulator at the reply instant"): the simulator
# (bench/sim-profile) serves under callgrind; `vload run` sends CLIENTS clients of the greeting
# at it twice; the counters are zeroed after the first run (start-up and first-use costs) and
# dumped after the second. Prints, per call, the simulator's timer firings, its actions, the
# codec's frames and the writes. Needs valgrind; builds release first.
#
#   bench/sim-callgrind.sh deepgram-stt 20
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then echo "usage: bench/sim-callgrind.sh DIALECT [CLIENTS]" >&2; exit 2; fi
dialect=$1 clients=${2:-20}
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/.build-bench/callgrind/$dialect-$clients"
rm -rf "$out" && mkdir -p "$out"
cd "$root"
scripts/build-release >/dev/null
scripts/build-release --product vload-sim-profile >/dev/null
# valgrind 3.19 cannot read the DWARF of these binaries ("possibly corrupted debuginfo"): the
# profiled copy keeps its symbols and drops the debug information.
objcopy --strip-debug .build/release/vload-sim-profile "$out/vload-sim-profile"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
valgrind --tool=callgrind --callgrind-out-file="$out/callgrind.out" \
    "$out/vload-sim-profile" "$dialect" "$port" 60 >"$out/simulator.log" 2>&1 &
simulator=$!
trap 'kill $simulator 2>/dev/null || true' EXIT
for _ in $(seq 1 120); do grep -q "^listening" "$out/simulator.log" && break; sleep 1; done
run() {
    .build/release/vload run --dialect "$dialect" --clients "$clients" --scenario greeting --quiet \
        --url "ws://127.0.0.1:$port/ws/voice" --max-lag-ms 1000 --out "$out/$1" >"$out/$1.log" 2>&1
}
run warm-up
sleep 3
callgrind_control --zero $simulator >/dev/null 2>&1
run measured
sleep 3
callgrind_control --dump $simulator >/dev/null 2>&1
wait $simulator || true
trap - EXIT
grep -v "^==" "$out/simulator.log"
callgrind_annotate --inclusive=yes --tree=caller --threshold=100 "$out/callgrind.out.1" 2>/dev/null | swift demangle --simplified \
    >"$out/annotated.txt"
# Each function's inclusive instructions, its calls (summed over its callers) and the two divided.
awk '
    /^ *[0-9,]+ \([ 0-9.]+%\)  < / {
        if (match($0, /\(([0-9,]+)x\)/)) { n = substr($0, RSTART + 1, RLENGTH - 3); gsub(/,/, "", n); calls += n }
        next
    }
    /^ *[0-9,]+ \([ 0-9.]+%\)  \*  / {
        name = $0; sub(/^.*\*  \?\?\?:/, "", name); sub(/ \[.*$/, "", name); total = $1; gsub(/,/, "", total)
        if (calls > 0 && name ~ /^(closure #1 in closure #1 in SimulatorConnection\.perform|SimulatorConnection\.perform|SimulatorConnection\.pacingDue|(specialized )?(static )?DeepgramResultsMessage\.text|[A-Za-z]+ServerCodec\.(frames\(for:\)|audioFrame)|WebSocketServerConnection\.(send|queue|flush)|DeepgramSTTServerCodec\.metadataText)/)
            printf "%10d instructions per call, %6d calls  %s\n", total / calls, calls, name
        calls = 0
        next
    }
    /^$/ { calls = 0 }
' "$out/annotated.txt"
echo "annotated profile: $out/annotated.txt"
