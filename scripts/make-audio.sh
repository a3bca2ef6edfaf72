#!/usr/bin/env bash
# Makes the speech WAVs vload ships with, using espeak-ng and sox:
#   scenarios/audio/{hello,arrival,thanks,barge-in,weather,one-moment}.wav  user utterances, 16 kHz mono PCM16
#   Sources/SimulatorAudio/Resources/agent-greeting.wav  agent greeting, 24 kHz mono PCM16
#   Sources/SimulatorAudio/Resources/agent-reply.wav     agent reply, 24 kHz mono PCM16
# espeak's own leading/trailing padding is kept, and 300 ms of silence is added at each end
# so the speech offsets inside the files are not trivial. `sox -R` makes the dither repeatable,
# so re-running the script reproduces the committed files byte for byte.
# Usage: scripts/make-audio.sh   (from anywhere; writes relative to the repository root)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

for tool in espeak-ng sox; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "make-audio.sh: $tool is not installed (apt-get install espeak-ng sox)" >&2
        exit 1
    fi
done

# speak VOICE RATE_HZ OUT TEXT — synthesize TEXT and write a mono PCM16 WAV at RATE_HZ.
speak() {
    local voice="$1" rate_hz="$2" out="$3" text="$4"
    mkdir -p "$(dirname "$out")"
    espeak-ng -v "$voice" --stdout "$text" \
        | sox -R -t wav - -r "$rate_hz" -c 1 -b 16 -e signed-integer "$out" pad 0.3 0.3
    echo "wrote $out ($(soxi -D "$out") s)"
}

speak en-us 16000 scenarios/audio/hello.wav \
    "Hi there, I would like to check the status of my order please."
speak en-us+f3 24000 Sources/SimulatorAudio/Resources/agent-greeting.wav \
    "Hello! Thanks for calling. How can I help you today?"
speak en-us+f3 24000 Sources/SimulatorAudio/Resources/agent-reply.wav \
    "Sure, I can help with that. Your order shipped yesterday and should arrive on Tuesday."
speak en-us 16000 scenarios/audio/arrival.wav \
    "When will it arrive?"
speak en-us 16000 scenarios/audio/thanks.wav \
    "Great, thank you. That is all."
speak en-us 16000 scenarios/audio/barge-in.wav \
    "Wait, sorry, one more thing."
speak en-us 16000 scenarios/audio/weather.wav \
    "What is the weather in Paris today?"
# A barge-in whose first voiced run is 540 ms long: barge-in.wav's "Wait," is 380 ms with a dip,
# which a VAD needing 200 ms of confident speech (Pipecat's Silero) misses or not by the phase of
# its windows, acknowledging then or only at the next word (bench/aiortc-compare.sh uses this one).
speak en-us 16000 scenarios/audio/one-moment.wav \
    "One moment please, I have another question."
