#!/usr/bin/env bash
# Installs the system libraries vload builds against (libsndfile, libsamplerate, libopus, Rubber Band,
# and OpenSSL, libsrtp2 and libusrsctp for the WebRTC transport), when missing;
# with --test also what the test suite uses (openssl, which makes the TLS tests' certificates, and
# sox, which scripts/check-recording-snr measures the recordings' noise with).
# Safe to run again: it does nothing when they are already there.
set -euo pipefail

packages=()
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists sndfile samplerate opus rubberband openssl libsrtp2 usrsctp; then
    packages+=(pkg-config libsndfile1-dev libsamplerate0-dev libopus-dev librubberband-dev libssl-dev libsrtp2-dev libusrsctp-dev)
fi
if [ "${1:-}" = "--test" ] && ! command -v openssl >/dev/null 2>&1; then
    packages+=(openssl)
fi
if [ "${1:-}" = "--test" ] && ! command -v sox >/dev/null 2>&1; then
    packages+=(sox)
fi
if [ ${#packages[@]} -eq 0 ]; then
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    sudo=()
elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
else
    echo "vload setup: need root (or sudo) to install: ${packages[*]}" >&2
    exit 2
fi

echo "vload setup: installing ${packages[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
if ! "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null; then
    # Seen on some images: apt cannot access its archive after a libcap2 upgrade until these are installed.
    "${sudo[@]}" apt-get install -y -qq libcap2 libcap2-bin libpam-cap >/dev/null
    "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
fi
pkg-config --exists sndfile samplerate opus rubberband openssl libsrtp2 usrsctp
