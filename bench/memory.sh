#!/usr/bin/env bash
# Heap per session: what one more virtual client costs in memory, measured exactly with
# valgrind's massif (BENCHMARKS.md, "Memory per session").
#
#   bench/memory.sh [BINARY] [DIALECT] [FEW] [MANY] [SECONDS]
#   bench/memory.sh .build/release/vload openai-realtime 20 60 25
#   VLOAD_RUN_ARGS='--record none' bench/memory.sh ...   # more options for the run
#
# It starts `BINARY serve --dialect DIALECT` natively (700 ms injected latency) and runs
# `BINARY run` under massif twice, FEW and then MANY clients of bench/scenarios/bench-DIALECT.yaml
# for SECONDS each (all started within the first second). The heap (with malloc's own overhead)
# averaged over the middle of each run, difference divided by MANY - FEW, is the heap a session
# adds; the per-site differences say where it goes (`python3 bench/valgrind/heap.py`). Fixed
# costs (histograms, the prepared audio, threads) cancel out. RSS adds the pages the heap
# touches and malloc's free lists, so it moves with timing; the heap does not.
#
# valgrind (Debian's package) dies in libdispatch's sigsuspend() unless vload runs with
# bench/valgrind/sigsuspend-copy.c preloaded (bench/valgrind/setup.sh builds it).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
binary=$(realpath "${1:-$root/.build/release/vload}")
dialect=${2:-openai-realtime}
few=${3:-20}
many=${4:-60}
seconds=${5:-25}
scenario="$root/bench/scenarios/bench-$dialect.yaml"
[ -f "$scenario" ] || { echo "bench/memory.sh: no scenario $scenario" >&2; exit 2; }
[ -x "$binary" ] || { echo "bench/memory.sh: no binary $binary" >&2; exit 2; }
[ "$many" -gt "$few" ] || { echo "bench/memory.sh: MANY ($many) must be more than FEW ($few)" >&2; exit 2; }
command -v valgrind >/dev/null 2>&1 || { echo "bench/memory.sh: valgrind not found: apt-get install valgrind" >&2; exit 2; }
out="$root/.build-bench/memory"
source "$root/bench/valgrind/setup.sh"
valgrind_setup "$out" "$binary" vload
stripped="$out/vload"
start_simulator "$binary" "$dialect" "$out/serve.log"
# A WebRTC dialect's caller posts its offer over HTTP; the others open a WebSocket.
case "$dialect" in *-webrtc) url="http://127.0.0.1:$port" ;; *) url="ws://127.0.0.1:$port" ;; esac

# Swift's allocation entry points count as malloc, so each site is the code that allocated.
for clients in "$few" "$many"; do
    LD_PRELOAD="$out/sigsuspend-copy.so" "${pin_tester[@]}" valgrind --tool=massif \
        --massif-out-file="$out/massif-$clients.out" --detailed-freq=1 --max-snapshots=60 --threshold=0.5 \
        --alloc-fn=swift_slowAlloc --alloc-fn=swift_allocObject --alloc-fn=realloc --alloc-fn=posix_memalign \
        "$stripped" run --scenario "$scenario" --url "$url" --dialect "$dialect" \
        --clients "$clients" --ramp-up 1s --duration "${seconds}s" --drain 0s --quiet --threads 1 \
        --out "$out/run-$clients" ${VLOAD_RUN_ARGS:-} >"$out/run-$clients.log" 2>&1 || true
    [ -f "$out/run-$clients/report.json" ] || { echo "bench/memory.sh: the run wrote no report ($out/run-$clients.log)" >&2; exit 1; }
done
python3 "$root/bench/valgrind/heap.py" "$out/massif-$few.out" "$out/massif-$many.out" "$((many - few))" \
    "$out/run-$few/report.json" "$out/run-$many/report.json"
