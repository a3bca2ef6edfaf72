#!/usr/bin/env bash
# Makes the audio that varies vload's callers (docs/callers.md), with espeak-ng and sox:
#   scenarios/audio/noise/{babble,road,pink}.wav        8 s noise beds, 16 kHz mono PCM16
#   scenarios/audio/backchannel/{mm-hmm,yeah,okay,cough}.wav   short clips spoken over the agent
# The beds are levelled to the same peak; the mixer scales them to the signal-to-noise ratio a
# caller draws, so their own level does not matter. `sox -R` seeds sox's noise generator and
# its dither, and espeak-ng is deterministic, so re-running the script reproduces the committed
# files byte for byte.
# Usage: scripts/make-caller-audio.sh   (from anywhere; writes relative to the repository root)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

for tool in espeak-ng sox; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "make-caller-audio.sh: $tool is not installed (apt-get install espeak-ng sox)" >&2
        exit 1
    fi
done

noise=scenarios/audio/noise
backchannel=scenarios/audio/backchannel
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$noise" "$backchannel"
format=(-r 16000 -c 1 -b 16 -e signed-integer)

# say VOICE OUT TEXT — TEXT spoken by espeak-ng VOICE, as 16 kHz mono PCM16.
say() {
    espeak-ng -v "$1" --stdout "$3" | sox -R -t wav - "${format[@]}" "$2" gain -n -1
}

# Babble: six talkers, each saying different sentences from a different start, mixed (the
# crowd of a call centre or a café, where no single voice is followed).
sentences=(
    "I told him we would be there by six, but the traffic was terrible."
    "Could you send me the invoice again? I never got the first one."
    "The meeting moved to Thursday, so we have a little more time."
    "She said the new place has the best coffee in town."
    "We need two more chairs for the table by the window."
    "Honestly, I think the second option is cheaper in the long run."
)
voices=(en-us en-gb en-us+m3 en-gb+f2 en-us+f4 en+m7)
talkers=()
for index in "${!voices[@]}"; do
    parts=()
    for turn in 0 1 2; do
        sentence="${sentences[$(((index + turn) % ${#sentences[@]}))]}"
        say "${voices[$index]}" "$work/talker-$index-$turn.wav" "$sentence"
        parts+=("$work/talker-$index-$turn.wav")
    done
    # Each talker starts at a different moment, so their pauses do not line up.
    sox -R "${parts[@]}" "$work/talker-$index.wav" pad "0.$((index * 13 % 10))" 0
    talkers+=("$work/talker-$index.wav")
done
sox -R -m "${talkers[@]}" "$work/babble.wav"
sox -R "$work/babble.wav" "${format[@]}" "$noise/babble.wav" trim 0.5 8 gain -n -3

# Road: the low rumble of a car on a road (brown noise below 300 Hz) under the broadband hiss
# of its tyres (pink noise below 2 kHz, 12 dB lower).
sox -R -n "${format[@]}" "$work/rumble.wav" synth 8 brownnoise lowpass 300 highpass 20
sox -R -n "${format[@]}" "$work/tyres.wav" synth 8 pinknoise lowpass 2000 gain -12
sox -R -m "$work/rumble.wav" "$work/tyres.wav" "${format[@]}" "$noise/road.wav" gain -n -3

# Pink noise: equal energy per octave, the usual broadband test noise.
sox -R -n "${format[@]}" "$noise/pink.wav" synth 8 pinknoise gain -n -3

# Backchannels: short sounds a listener makes without meaning to take the turn.
say en-us "$backchannel/mm-hmm.wav" "mm hmm"
say en-us "$backchannel/yeah.wav" "yeah"
say en-us "$backchannel/okay.wav" "okay"
# A cough: two bursts of band-passed noise with a sharp attack and a fast decay.
sox -R -n "${format[@]}" "$work/burst.wav" synth 0.18 whitenoise bandpass 700 500 fade q 0.005 0.18 0.15 gain -n -6
sox -R "$work/burst.wav" "$work/burst.wav" "$backchannel/cough.wav" pad 0.05 0.05

for file in "$noise"/*.wav "$backchannel"/*.wav; do
    echo "wrote $file ($(soxi -D "$file") s)"
done
