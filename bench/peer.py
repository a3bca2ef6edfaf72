#!/usr/bin/env python3
"""The peer: a hand-written Python asyncio voice-agent load driver, the tool users write today.

It does by hand what vload's bench scenarios (bench/scenarios/) do, with the PyPI `websockets`
package (v15+ asyncio API): N sessions started over the ramp-up, each one

1. connects and speaks the dialect's opening: openai-realtime sends `session.update` and waits
   for `session.updated`; deepgram-agent waits for `Welcome`, sends `Settings`, waits for
   `SettingsApplied`;
2. waits for the agent's greeting to end (its end event, 1.5 s without agent audio, or 5 s
   without any);
3. opens the microphone: one frame of 20 ms every 20 ms, frame k due at t0 + (k+1)·20 ms on the
   event loop's clock (absolute deadlines: no drift), for as long as the run lasts: the clip,
   then silence until the reply ended (its end event, 1.5 s without agent audio after some, or
   20 s), then 0.5 s more silence (the scenario's `think: 500`), then the clip again.

Audio: the WAV (PCM16, mono) is resampled once (linear interpolation) to the dialect's input
rate, 24 kHz for openai-realtime (as vload and the simulator use, docs/dialects.md: 960-byte
frames) and 16 kHz for deepgram-agent (640-byte frames). Every frame is encoded once before
the run: openai-realtime frames are whole `input_audio_buffer.append` JSON texts (base64
inside), deepgram-agent frames are binary.

Figures (all after the warm-up: frames due, and turns whose speech started, at or after W s):
- send lag per frame = when the send was issued minus its deadline, in ms (the primary figure);
- first_audio_from_end_ms = arrival of the first agent audio after the end of the user's speech
  minus that end, where the end is acoustic as in vload (docs/metrics.md): the
  moment the clip's last speech sample was due in the paced stream, t_mic_open + speech end,
  the speech end found by the same energy detector vload uses (10 ms windows, −30 dB under the
  loudest, above −50 dBFS, runs of 30 ms or more).

Every inbound message is parsed (json.loads for text; a binary message is agent audio; an
openai-realtime audio delta's base64 is not decoded: only the arrival counts). At D s every session closes;
the process ends by D + 10 s whatever happens, and prints one JSON object on stdout. It writes
`peer: start` on stderr when its clock starts (bench/run.py times its samples from it).

This file's pure parts (LagHistogram, percentile, speech_bounds, resample_linear, frames) have
no dependency beyond the standard library; `websockets` is imported when the run starts.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import math
import resource
import sys
import wave

FRAME_MS = 20
THINK_S = 0.5
REPLY_QUIET_S = 1.5
REPLY_TIMEOUT_S = 20.0
GREETING_ABSENT_S = 5.0
GREETING_TIMEOUT_S = 20.0
OPEN_TIMEOUT_S = 10.0
CLOSE_TIMEOUT_S = 2.0
INPUT_RATE_HZ = {"openai-realtime": 24_000, "deepgram-agent": 16_000}


def percentile(sorted_values: list[float], percent: float) -> float | None:
    """Nearest-rank percentile of an ascending list (the value at rank ceil(p/100 · n)); None when empty."""
    if not sorted_values:
        return None
    rank = max(1, math.ceil(percent / 100.0 * len(sorted_values)))
    return sorted_values[min(rank, len(sorted_values)) - 1]


class LagHistogram:
    """Send lags in buckets of `resolution_ms` up to `limit_ms` (above it: the last bucket), so
    that a million frames cost a fixed 100,001 counters, not a million floats (the peer's RSS is
    one of the figures). Negative lags count as 0. Percentiles are nearest-rank, reported as the
    bucket's upper edge (at most `resolution_ms` above the true value; the overflow bucket
    reports the maximum)."""

    def __init__(self, resolution_ms: float = 0.01, limit_ms: float = 1_000.0) -> None:
        self.resolution_ms = resolution_ms
        self.buckets = [0] * (int(round(limit_ms / resolution_ms)) + 1)
        self.count = 0
        self.max_ms = 0.0

    def record(self, lag_ms: float) -> None:
        lag_ms = max(0.0, lag_ms)
        index = min(int(lag_ms / self.resolution_ms), len(self.buckets) - 1)
        self.buckets[index] += 1
        self.count += 1
        if lag_ms > self.max_ms:
            self.max_ms = lag_ms

    def percentile(self, percent: float) -> float | None:
        if self.count == 0:
            return None
        rank = max(1, math.ceil(percent / 100.0 * self.count))
        seen = 0
        for index, bucket in enumerate(self.buckets):
            seen += bucket
            if seen >= rank:
                if index == len(self.buckets) - 1:  # the overflow bucket
                    return self.max_ms
                return min((index + 1) * self.resolution_ms, self.max_ms)
        return self.max_ms

    def summary(self) -> dict:
        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, 3)

        return {
            "count": self.count,
            "p50": rounded(self.percentile(50)),
            "p90": rounded(self.percentile(90)),
            "p99": rounded(self.percentile(99)),
            "max": rounded(self.max_ms) if self.count else None,
        }


def latency_summary(values_ms: list[float]) -> dict:
    """count, p50 and p99 (nearest rank) of a list of latencies."""
    ordered = sorted(values_ms)

    def rounded(value: float | None) -> float | None:
        return None if value is None else round(value, 3)

    return {"count": len(ordered), "p50": rounded(percentile(ordered, 50)), "p99": rounded(percentile(ordered, 99))}


def speech_bounds(
    samples: list[int], rate_hz: int, window_ms: int = 10, relative_db: float = -30.0,
    floor_dbfs: float = -50.0, min_speech_ms: int = 30,
) -> tuple[float, float] | None:
    """The speech span (start s, end s) of mono PCM16 `samples`, as vload's SpeechDetector finds
    it: windows voiced at or above `relative_db` under the loudest window and above `floor_dbfs`;
    voiced runs shorter than `min_speech_ms` ignored; gaps between runs inside the span. None
    when nothing qualifies."""
    if rate_hz <= 0 or not samples:
        return None
    window = max(1, rate_hz * window_ms // 1000)
    levels = []
    for start in range(0, len(samples), window):
        chunk = samples[start:start + window]
        levels.append(math.sqrt(sum(v * v for v in chunk) / len(chunk)) / 32768.0)
    loudest = max(levels)
    if loudest <= 0:
        return None
    relative = loudest * 10 ** (relative_db / 20)
    floor = 10 ** (floor_dbfs / 20)
    min_run = max(1, rate_hz * min_speech_ms // 1000)
    first_start = last_end = run_start = None
    for index in range(len(levels) + 1):
        voiced = index < len(levels) and levels[index] >= relative and levels[index] > floor
        if voiced:
            if run_start is None:
                run_start = index * window
            continue
        if run_start is None:
            continue
        end = min(index * window, len(samples))
        if end - run_start >= min_run:
            if first_start is None:
                first_start = run_start
            last_end = end
        run_start = None
    if first_start is None:
        return None
    return first_start / rate_hz, last_end / rate_hz


def resample_linear(samples: list[int], from_hz: int, to_hz: int) -> list[int]:
    """Linear-interpolation resampling (done once, before the run; the simulator's energy VAD
    needs the right rate, not studio quality)."""
    if from_hz == to_hz or not samples:
        return list(samples)
    count = len(samples) * to_hz // from_hz
    out = []
    last = len(samples) - 1
    for index in range(count):
        position = index * from_hz / to_hz
        left = int(position)
        right = min(left + 1, last)
        fraction = position - left
        out.append(int(round(samples[left] * (1 - fraction) + samples[right] * fraction)))
    return out


def pcm16_bytes(samples: list[int]) -> bytes:
    return b"".join(max(-32768, min(32767, v)).to_bytes(2, "little", signed=True) for v in samples)


def frames(pcm: bytes, frame_bytes: int) -> list[bytes]:
    """`pcm` cut into frames of `frame_bytes`, the last one padded with silence (zeros)."""
    out = []
    for start in range(0, len(pcm), frame_bytes):
        frame = pcm[start:start + frame_bytes]
        out.append(frame + bytes(frame_bytes - len(frame)))
    return out


def read_wav_mono16(path: str) -> tuple[list[int], int]:
    """Samples (mono PCM16, channels averaged) and rate of a WAV file."""
    with wave.open(path, "rb") as wav:
        if wav.getsampwidth() != 2:
            raise SystemExit(f"peer: {path}: only PCM16 WAV files are supported")
        channels, rate = wav.getnchannels(), wav.getframerate()
        raw = wav.readframes(wav.getnframes())
    values = [int.from_bytes(raw[i:i + 2], "little", signed=True) for i in range(0, len(raw), 2)]
    if channels > 1:
        values = [sum(values[i:i + channels]) // channels for i in range(0, len(values), channels)]
    return values, rate


class Clip:
    """The utterance as sent: its frames (wire messages) and where its speech ends."""

    def __init__(self, path: str, dialect: str, speech_end_s: float | None = None) -> None:
        samples, rate = read_wav_mono16(path)
        target = INPUT_RATE_HZ[dialect]
        as_sent = resample_linear(samples, rate, target)
        bounds = speech_bounds(as_sent, target) or (0.0, len(as_sent) / target)
        self.speech_start_s = bounds[0]
        self.speech_end_s = bounds[1] if speech_end_s is None else speech_end_s
        frame_bytes = target * FRAME_MS // 1000 * 2
        raw_frames = frames(pcm16_bytes(as_sent), frame_bytes)
        silence = bytes(frame_bytes)
        if dialect == "openai-realtime":
            def encode(frame: bytes) -> str:
                return json.dumps({"type": "input_audio_buffer.append", "audio": base64.b64encode(frame).decode()})
        else:
            def encode(frame: bytes) -> bytes:
                return frame
        self.frames = [encode(frame) for frame in raw_frames]
        self.silence = encode(silence)
        self.frame_bytes = frame_bytes


OPENAI_SESSION_UPDATE = json.dumps({"type": "session.update", "session": {
    "type": "realtime", "model": "gpt-realtime", "output_modalities": ["audio"],
    "instructions": "You are a helpful agent.",
    "audio": {
        "input": {"format": {"type": "audio/pcm", "rate": 24000},
                  "turn_detection": {"type": "server_vad", "threshold": 0.5, "prefix_padding_ms": 300,
                                     "silence_duration_ms": 500, "create_response": True,
                                     "interrupt_response": True}},
        "output": {"format": {"type": "audio/pcm", "rate": 24000}, "voice": "marin"}}}})

DEEPGRAM_SETTINGS = json.dumps({
    "type": "Settings", "experimental": False, "mip_opt_out": False,
    "audio": {"input": {"encoding": "linear16", "sample_rate": 16000},
              "output": {"encoding": "linear16", "sample_rate": 24000, "container": "none"}},
    "agent": {"language": "en",
              "listen": {"provider": {"type": "deepgram", "model": "nova-3"}},
              "think": {"provider": {"type": "open_ai", "model": "gpt-4o-mini"}, "prompt": "You are a helpful agent."},
              "speak": {"provider": {"type": "deepgram", "model": "aura-2-thalia-en"}},
              "greeting": "Hello!"}})

TURN_END_TYPES = {"openai-realtime": {"response.done"}, "deepgram-agent": {"AgentAudioDone"}}
ERROR_TYPES = {"openai-realtime": {"error"}, "deepgram-agent": {"Error"}}
AUDIO_TYPES = {"response.output_audio.delta", "response.audio.delta"}


class Run:
    """Shared figures and settings of one run."""

    def __init__(self, args: argparse.Namespace, clip: Clip, loop: asyncio.AbstractEventLoop) -> None:
        self.args = args
        self.clip = clip
        self.loop = loop
        self.start = loop.time()
        self.steady_start = self.start + args.warmup
        self.end = self.start + args.duration
        self.stopping = False
        self.lags = LagHistogram()
        self.first_audio_ms: list[float] = []
        self.frames_sent = 0
        self.sessions_ready = 0
        self.errors: dict[str, int] = {}

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


class Session:
    """One virtual caller: opening, greeting, then the paced microphone with a reader alongside."""

    def __init__(self, run: Run, index: int) -> None:
        self.run = run
        self.index = index
        self.dialect = run.args.dialect
        self.last_agent_audio = None  # loop time of the latest agent audio
        self.last_turn_end = None  # loop time of the latest end-of-turn event
        self.us_end = math.inf  # end of the user's speech in the current clip (loop time)
        self.measure_turn = False  # the current clip's speech started after the warm-up
        self.awaiting_first_audio = False

    async def main(self, connect) -> None:
        loop = self.run.loop
        start_at = self.run.start + self.run.args.ramp_up * self.index / max(1, self.run.args.sessions)
        await asyncio.sleep(max(0.0, start_at - loop.time()))
        if self.run.stopping:
            return
        try:
            ws = await asyncio.wait_for(connect(self.run.args.url), OPEN_TIMEOUT_S)
        except Exception:
            self.run.error("connect")
            return
        reader = None
        try:
            if not await self.opening(ws):
                return
            self.run.sessions_ready += 1
            reader = asyncio.ensure_future(self.read(ws))
            await self.greeting()
            await self.microphone(ws)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a closed connection, mostly
            if not self.run.stopping:
                self.run.error(type(error).__name__)
        finally:
            if reader is not None:
                reader.cancel()
            try:
                await asyncio.wait_for(ws.close(), CLOSE_TIMEOUT_S)
            except Exception:
                pass

    async def receive_json(self, ws, timeout_s: float) -> dict:
        message = await asyncio.wait_for(ws.recv(), timeout_s)
        return json.loads(message) if isinstance(message, str) else {}

    async def opening(self, ws) -> bool:
        """The dialect's handshake up to ready; False (an error counted) when it fails."""
        loop = self.run.loop
        deadline = loop.time() + OPEN_TIMEOUT_S
        try:
            if self.dialect == "openai-realtime":
                await ws.send(OPENAI_SESSION_UPDATE)
                ready = "session.updated"
            else:
                while (await self.receive_json(ws, deadline - loop.time())).get("type") != "Welcome":
                    pass
                await ws.send(DEEPGRAM_SETTINGS)
                ready = "SettingsApplied"
            while True:
                event = await self.receive_json(ws, max(0.0, deadline - loop.time()))
                kind = event.get("type")
                if kind == ready:
                    return True
                if kind in ERROR_TYPES[self.dialect]:
                    self.run.error("ready_rejected")
                    return False
        except asyncio.TimeoutError:
            self.run.error("ready_timeout")
        except Exception as error:
            self.run.error(f"ready_{type(error).__name__}")
        return False

    async def read(self, ws) -> None:
        """Parses every inbound message; notes agent audio, first audio of a turn, turn ends."""
        loop = self.run.loop
        turn_end_types = TURN_END_TYPES[self.dialect]
        error_types = ERROR_TYPES[self.dialect]
        try:
            async for message in ws:
                now = loop.time()
                if isinstance(message, str):
                    event = json.loads(message)
                    kind = event.get("type")
                    if kind in AUDIO_TYPES:
                        self.agent_audio(now)
                    elif kind in turn_end_types:
                        self.last_turn_end = now
                    elif kind in error_types:
                        self.run.error("in_band_error")
                else:
                    self.agent_audio(now)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            if not self.run.stopping:
                self.run.error(f"read_{type(error).__name__}")

    def agent_audio(self, now: float) -> None:
        self.last_agent_audio = now
        if self.awaiting_first_audio and now >= self.us_end:
            self.awaiting_first_audio = False
            if self.measure_turn:
                self.run.first_audio_ms.append((now - self.us_end) * 1000.0)

    async def greeting(self) -> None:
        """Waits for the greeting to end: its end event, 1.5 s without agent audio after some,
        5 s without any, or 20 s in all."""
        loop = self.run.loop
        began = loop.time()
        while not self.run.stopping:
            now = loop.time()
            if self.last_turn_end is not None:
                return
            if self.last_agent_audio is None and now - began >= GREETING_ABSENT_S:
                return
            if self.last_agent_audio is not None and now - self.last_agent_audio >= REPLY_QUIET_S:
                return
            if now - began >= GREETING_TIMEOUT_S:
                self.run.error("greeting_timeout")
                return
            await asyncio.sleep(0.05)

    async def microphone(self, ws) -> None:
        """Paced frames at absolute deadlines, with the turn logic decided at each slot."""
        run, clip, loop = self.run, self.run.clip, self.run.loop
        last_clip_frame = len(clip.frames) - 1
        t0 = loop.time()
        k = 0
        clip_index = 0  # next clip frame to send; None while silent
        clip_ended_at = None
        speak_at = None
        self.start_clip(t0, 0)
        while not run.stopping:
            deadline = t0 + (k + 1) * FRAME_MS / 1000.0
            delay = deadline - loop.time()
            if delay > 0:
                await asyncio.sleep(delay)
            if run.stopping:
                break
            if clip_index is None:
                now = loop.time()
                if speak_at is None:
                    reply_over = (
                        (self.last_turn_end is not None and self.last_turn_end >= self.us_end)
                        or (self.last_agent_audio is not None and self.last_agent_audio >= self.us_end
                            and now - self.last_agent_audio >= REPLY_QUIET_S))
                    if reply_over or now - clip_ended_at >= REPLY_TIMEOUT_S:
                        if not reply_over and self.measure_turn:
                            run.error("reply_timeout")
                        speak_at = now + THINK_S
                elif now >= speak_at:
                    speak_at = None
                    self.start_clip(t0, k)
                    clip_index = 0
            if clip_index is None:
                frame = clip.silence
            else:
                frame = clip.frames[clip_index]
                if clip_index == last_clip_frame:
                    clip_index = None
                    clip_ended_at = deadline
                else:
                    clip_index += 1
            issued = loop.time()
            if deadline >= run.steady_start:
                run.lags.record((issued - deadline) * 1000.0)
            await ws.send(frame)
            run.frames_sent += 1
            k += 1

    def start_clip(self, t0: float, k: int) -> None:
        """The clip starts at slot k: the microphone opens at t0 + k·20 ms (its frame j is due at
        t0 + (k + j + 1)·20 ms), so the user's speech ends at that moment + the speech end."""
        mic_open = t0 + k * FRAME_MS / 1000.0
        self.us_end = mic_open + self.run.clip.speech_end_s
        # As vload: a turn whose speech starts in the warm-up is left out.
        self.measure_turn = mic_open + self.run.clip.speech_start_s >= self.run.steady_start
        self.awaiting_first_audio = True


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def run_load(args: argparse.Namespace, clip: Clip) -> dict:
    from websockets.asyncio.client import connect as ws_connect  # the peer's one dependency

    def connect(url: str):
        return ws_connect(url, open_timeout=OPEN_TIMEOUT_S, close_timeout=CLOSE_TIMEOUT_S)

    loop = asyncio.get_running_loop()
    run = Run(args, clip, loop)
    print("peer: start", file=sys.stderr, flush=True)
    sessions = [Session(run, index) for index in range(args.sessions)]
    tasks = [asyncio.ensure_future(session.main(connect)) for session in sessions]
    cpu_at_warmup = None

    async def sample_warmup() -> None:
        nonlocal cpu_at_warmup
        await asyncio.sleep(max(0.0, run.steady_start - loop.time()))
        cpu_at_warmup = cpu_seconds()

    sampler = asyncio.ensure_future(sample_warmup())
    await asyncio.sleep(max(0.0, run.end - loop.time()))
    cpu_at_end = cpu_seconds()
    run.stopping = True
    sampler.cancel()
    # Sessions close within CLOSE_TIMEOUT_S each; whatever is still open after 6 s is cancelled.
    _, pending = await asyncio.wait(tasks, timeout=6.0)
    for task in pending:
        task.cancel()
    if pending:
        await asyncio.wait(pending, timeout=1.5)
    steady_s = max(1e-9, run.end - run.steady_start)
    return {
        "tool": "peer",
        "dialect": args.dialect,
        "sessions": args.sessions,
        "sessions_ready": run.sessions_ready,
        "frames_sent": run.frames_sent,
        "frame_bytes": clip.frame_bytes,
        "send_lag_ms": run.lags.summary(),
        "first_audio_from_end_ms": latency_summary(run.first_audio_ms),
        "speech_end_s": round(clip.speech_end_s, 3),
        "errors": {"total": sum(run.errors.values()), "by_kind": run.errors},
        "cpu_seconds": round(cpu_seconds(), 3),
        "steady_cpu_cores": None if cpu_at_warmup is None else round((cpu_at_end - cpu_at_warmup) / steady_s, 3),
        "duration_s": round(loop.time() - run.start, 3),
        "websockets_version": __import__("websockets").__version__,
    }


def parse_args(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--url", required=True, help="ws:// URL of the agent (the simulator)")
    parser.add_argument("--dialect", choices=sorted(INPUT_RATE_HZ), required=True)
    parser.add_argument("--sessions", type=int, default=1)
    parser.add_argument("--ramp-up", type=float, default=10.0, help="seconds over which sessions start")
    parser.add_argument("--duration", type=float, default=40.0, help="seconds from the start to the end of the load")
    parser.add_argument("--warmup", type=float, default=15.0, help="seconds left out of the figures")
    parser.add_argument("--wav", default="scenarios/audio/hello.wav", help="the user's utterance (PCM16 WAV)")
    parser.add_argument("--speech-end-ms", type=float, default=None,
                        help="where the speech ends in the clip (default: found by the energy detector); "
                             "bench/run.py passes the value `vload validate` reports, so both tools anchor alike")
    args = parser.parse_args(argv)
    if args.sessions < 1 or args.duration <= 0 or args.warmup < 0 or args.ramp_up < 0 or args.warmup >= args.duration:
        parser.error("need --sessions ≥ 1, --duration > --warmup ≥ 0 and --ramp-up ≥ 0")
    return args


def main(argv: list[str]) -> int:
    args = parse_args(argv)
    clip = Clip(args.wav, args.dialect, None if args.speech_end_ms is None else args.speech_end_ms / 1000.0)
    # The hard bound: whatever happens, the process is gone by D + 10 s (setup included).
    import threading
    import os
    watchdog = threading.Timer(args.duration + 10.0, lambda: os._exit(124))
    watchdog.daemon = True
    watchdog.start()
    result = asyncio.run(run_load(args, clip))
    print(json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
