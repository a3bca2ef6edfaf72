# Sourced by bench/instructions.sh and bench/memory.sh: what both need to run vload under
# valgrind against a native `vload serve`.
#
#   valgrind_setup OUT BINARY NAME   builds the sigsuspend shim in OUT (valgrind, Debian's 3.19,
#                                    dies in libdispatch's sigsuspend() without it) and writes
#                                    OUT/NAME, BINARY without its debug information (valgrind's
#                                    reader cannot take the toolchain's DWARF; the symbols stay,
#                                    so profiles still name the functions)
#   start_simulator BINARY DIALECT LOG
#                                    starts `BINARY serve` (700 ms injected latency, one thread)
#                                    on CPU 1 and sets `port` and `pin_tester` (CPU 0) for the run;
#                                    the server is stopped when the script exits

valgrind_setup() {
    local out=$1 binary=$2 name=$3
    mkdir -p "$out"
    cc -O2 -shared -fPIC -o "$out/sigsuspend-copy.so" "$root/bench/valgrind/sigsuspend-copy.c"
    strip --strip-debug -o "$out/$name" "$binary"
}

start_simulator() {
    local binary=$1 dialect=$2 log=$3
    local pin_server=()
    pin_tester=()
    if [ "$(nproc)" -ge 2 ]; then pin_tester=(taskset -c 0) pin_server=(taskset -c 1); fi
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "${pin_server[@]}" "$binary" serve --dialect "$dialect" --port "$port" --sim-reply-latency 700 --threads 1 \
        >"$log" 2>&1 &
    simulator=$!
    trap 'kill -INT $simulator 2>/dev/null || true' EXIT
    sleep 1
}
