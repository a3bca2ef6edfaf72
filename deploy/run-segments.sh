#!/bin/sh
# The Kubernetes job's local equivalent: N vload processes, each with --segment i/N, at once,
# then `vload merge` of their reports (tested by Tests/EndToEndTests/LoadModelRunTests.swift).
#   deploy/run-segments.sh N OUT [vload run options...]
#   deploy/run-segments.sh 4 reports/split --scenario greeting --clients 40 --url ws://127.0.0.1:8765/ws/voice
# Give a --url (for instance a `vload serve`): without one each process runs its own simulator.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: deploy/run-segments.sh N OUT [vload run options...]" >&2
    exit 2
fi
count=$1
out=$2
shift 2
vload=${VLOAD:-.build/release/vload}
mkdir -p "$out"
pids=""
i=1
while [ "$i" -le "$count" ]; do
    "$vload" run "$@" --quiet --segment "$i/$count" --out "$out/segment-$i" > "$out/segment-$i.log" 2>&1 &
    pids="$pids $!"
    i=$((i + 1))
done
# A segment exits 0, or 3 when its generator was saturated (the merge then says the run is
# invalid); 2 (bad input) or 4 (the endpoint unreachable) leave nothing worth merging.
status=0
for pid in $pids; do
    code=0
    wait "$pid" || code=$?
    if [ "$code" -ne 0 ] && [ "$code" -ne 3 ]; then status=$code; fi
done
if [ "$status" -ne 0 ]; then
    echo "a segment exited $status (see $out/segment-*.log)" >&2
    exit "$status"
fi
exec "$vload" merge "$out"/segment-*/report.json --out "$out/merged"
