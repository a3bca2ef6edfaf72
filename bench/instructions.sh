#!/usr/bin/env bash
# Counts vload's user-space instructions per frame sent, with valgrind's callgrind: exact and
# repeatable on a noisy machine, so every change to the frame path can be measured
# (BENCHMARKS.md, "Instructions per frame").
#
#   bench/instructions.sh DIALECT [BINARY] [CLIENTS] [SECONDS]
#   bench/instructions.sh openai-realtime .build/release/vload 8 20
#   VLOAD_RUN_ARGS='--record none' bench/instructions.sh deepgram-agent   # more options for the run
#
# It starts `BINARY serve --dialect DIALECT` natively (700 ms injected latency), runs `BINARY run`
# under callgrind with CLIENTS clients of bench/scenarios/bench-DIALECT.yaml for SECONDS, and
# counts only what the event loop does for the frames:
#
#   send     the pacer's wake-ups (`FramePacer.fire`): the frames due, encoded, masked and
#            written (`writev`'s user-space side), and the timer set again;
#   receive  every readiness event of a TCP connection (`SelectableEventLoop.handleEvent` on a
#            socket): the read, the WebSocket decoding, the dialect's decoding of what the agent
#            sent (greeting, replies) and the caller's handling of it; for a WebRTC dialect
#            (`pipecat-webrtc`, `openai-realtime-webrtc`), every readiness event of a UDP socket
#            and the media it queued for after the loop's reads (`WebRTCMediaReceiver.readMedia`:
#            SRTP, the Opus decoding, the caller's handling), with `--url http://…` for signalling;
#
# divided by the frames sent. Start-up, connecting, the receive-lag probe's pipe (1,000 reads a
# second whatever the load), the loop's own waiting and the report at the end are left out:
# they do not grow with the frames, and some depend on timing, which valgrind's slowness would
# distort. Each frame here has a wake-up of its own (the clients' deadlines are milliseconds
# apart); a loaded loop shares one among several, so this errs high.
#
# valgrind (Debian's package) dies in libdispatch's sigsuspend() unless vload runs with
# bench/valgrind/sigsuspend-copy.c preloaded (bench/valgrind/setup.sh builds it). The profile (the
# functions by their own instructions) is left in .build-bench/instructions/DIALECT.txt;
# `python3 bench/valgrind/profile.py` prints it demangled.
set -euo pipefail
if [ $# -lt 1 ]; then
    echo "usage: bench/instructions.sh DIALECT [BINARY] [CLIENTS] [SECONDS]" >&2
    exit 2
fi
dialect=$1
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
binary=$(realpath "${2:-$root/.build/release/vload}")
clients=${3:-8}
seconds=${4:-20}
scenario="$root/bench/scenarios/bench-$dialect.yaml"
[ -f "$scenario" ] || { echo "bench/instructions.sh: no scenario $scenario" >&2; exit 2; }
[ -x "$binary" ] || { echo "bench/instructions.sh: no binary $binary" >&2; exit 2; }
valgrind=${VALGRIND:-valgrind}
if ! command -v "$valgrind" >/dev/null 2>&1 || ! command -v callgrind_annotate >/dev/null 2>&1; then
    echo "bench/instructions.sh: valgrind not found: apt-get install valgrind (or set VALGRIND=PATH)" >&2
    exit 2
fi
out="$root/.build-bench/instructions"
source "$root/bench/valgrind/setup.sh"
valgrind_setup "$out" "$binary" "vload-$dialect"
stripped="$out/vload-$dialect"
start_simulator "$binary" "$dialect" "$out/serve-$dialect.log"

# The functions whose instructions are counted, as the binary names them (NIO 2.101's and vload's).
send_path='$s9VoiceLoad10FramePacerC4fire*'
receive_path='$s8NIOPosix19SelectableEventLoopC06handleC0_7channelyAA08SelectorC3SetV_xtAA0B7ChannelRzlFAA06SocketI0C_Tg5Tf4nnd_n'
url="ws://127.0.0.1:PORT"
receive_toggles=(--toggle-collect="$receive_path")
key=()
case "$dialect" in
openai-realtime-webrtc) key=(--token sk-vload-simulator) ;;&  # the simulator wants a key, any key
*-webrtc)
    url="http://127.0.0.1:PORT"
    receive_toggles=(
        --toggle-collect='$s8NIOPosix19SelectableEventLoopC06handleC0_7channelyAA08SelectorC3SetV_xtAA0B7ChannelRzlFAA08DatagramI0C_Tg5Tf4nnd_n'
        --toggle-collect='$s6WebRTC0A16RTCMediaReceiverPAAE9readMedia_4from2onySays5UInt8VG_7NIOCore13SocketAddressOAJ9EventLoop_ptFyyYbcfU_AA0A17RTCChannelHandlerC_Tg5'
    )
    ;;
esac
profile="$out/$dialect.callgrind"
rm -rf "$out/$dialect" "$profile"
LD_PRELOAD="$out/sigsuspend-copy.so" "${pin_tester[@]}" "$valgrind" --tool=callgrind --callgrind-out-file="$profile" \
    --collect-atstart=no --toggle-collect="$send_path" "${receive_toggles[@]}" \
    "$stripped" run --scenario "$scenario" --url "${url/PORT/$port}" --dialect "$dialect" \
    --clients "$clients" --duration "${seconds}s" --drain 0s --quiet --threads 1 "${key[@]}" \
    --out "$out/$dialect" ${VLOAD_RUN_ARGS:-} >"$out/$dialect.log" 2>&1 || true
[ -f "$out/$dialect/report.json" ] || { echo "bench/instructions.sh: the run wrote no report ($out/$dialect.log)" >&2; exit 1; }
callgrind_annotate --inclusive=yes --threshold=100 "$profile" >"$out/$dialect-inclusive.txt" 2>/dev/null || true
callgrind_annotate --inclusive=no "$profile" >"$out/$dialect.txt" 2>/dev/null || true
python3 - "$dialect" "$clients" "$seconds" "$out/$dialect/report.json" "$out/$dialect-inclusive.txt" <<'PY'
import json, re, sys
dialect, clients, seconds, report_path, inclusive_path = sys.argv[1:]
frames = json.load(open(report_path))["generator"]["frames_sent"]
send = receive = datagram = media = 0
parts = {}
for line in open(inclusive_path):
    match = re.match(r"\s*([\d,]+) \(", line)
    if not match:
        continue
    count = int(match.group(1).replace(",", ""))
    if "FramePacerC4fire" in line:
        send = max(send, count)
    elif "SelectableEventLoopC06handleC0_7channel" in line and "AA06SocketI0C_" in line:
        receive = max(receive, count)
    elif "SelectableEventLoopC06handleC0_7channel" in line and "AA08DatagramI0C_" in line:
        datagram = max(datagram, count)
    elif "RTCMediaReceiverPAAE9readMedia" in line and "RTCChannelHandlerC_Tg5 " in line:
        media = max(media, count)
    elif re.search(r"\?\?\?:(opus_decode|srtp_protect|srtp_unprotect) ", line):
        parts[line.split("???:")[1].split()[0]] = count
receive = receive or datagram + media
if frames == 0 or send == 0 or receive == 0:
    sys.exit(f"bench/instructions.sh: nothing counted (frames {frames}, send {send}, receive {receive}): "
             "have the functions' names changed? (see the script)")
print(f"{dialect}: {clients} clients, {seconds} s, {frames:,} frames sent; instructions per frame: "
      f"{(send + receive) / frames:,.0f} (send {send / frames:,.0f}, receive {receive / frames:,.0f})")
if parts:
    print("  of which, per frame sent: " + ", ".join(f"{name} {count / frames:,.0f}" for name, count in sorted(parts.items())))
PY
