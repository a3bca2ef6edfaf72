"""A real Pipecat (pipecat-ai 1.14.0) telephony bot, fully local, for vload's conformance runs.

    python pipecat_server.py --port 8765 [--serializer twilio|telnyx|plivo|exotel|vonage]
                             [--reply-wav ../../scenarios/audio/thanks.wav] [--log-file server.log]
                             [--twilio-auth-token TOKEN]

--serializer picks the telephony provider the bot serves (default twilio): its Pipecat
FrameSerializer, built the way a Pipecat telephony bot builds it from the handshake.

One FastAPI WebSocket endpoint, `/ws`, served by uvicorn on 127.0.0.1. Per connection:

- with --twilio-auth-token, before the upgrade is accepted: its `X-Twilio-Signature` is checked
  with the twilio package's `RequestValidator` against the URL the client connected to (Twilio
  signs a Media Streams upgrade like a request without POST parameters); a missing or wrong
  signature closes the socket before accept, which Starlette answers with HTTP 403;
- twilio, telnyx, plivo, exotel: the handshake is read with Pipecat's own parser,
  `pipecat.runner.utils.parse_telephony_websocket`, which must name the --serializer's provider;
  the serializer is built from what it parsed (stream and call ids; Telnyx's media encoding),
  with auto_hang_up off where the serializer has it (no provider REST call);
- vonage: Pipecat has no handshake parser for Vonage; the serializer reads every message,
  `websocket:connected` included (it ignores it);
- the pipeline: FastAPIWebsocketTransport input → VADProcessor (the Silero ONNX model shipped
  in the wheel, offline) → UserTurnProcessor (VAD starts a turn and interrupts the bot; the
  turn ends after Pipecat's speech timeout, no transcript needed) → CannedReply → output;
- on UserStoppedSpeakingFrame, CannedReply speaks a WAV as TTSStartedFrame, TTSAudioRawFrame
  (40 ms chunks) and TTSStoppedFrame; the output transport paces it in real time, and an
  InterruptionFrame (user speech while the bot talks) flushes it and makes the serializer send
  its clear message (Twilio/Telnyx/Exotel `clear`, Plivo `clearAudio`, Vonage `{"action":"clear"}`).

No STT, LLM or TTS service, nothing but loopback. It prints "ready on port N" when it accepts
connections, exits cleanly on SIGTERM/SIGINT, and stops by itself after --max-lifetime-s.
Pipecat logs go to --log-file at WARNING; this app's own per-call trace at INFO.
"""
import argparse
import asyncio
import contextlib
import signal
import sys
import time
import wave
from pathlib import Path

from loguru import logger

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def configure_logging(log_file: str | None, level: str) -> None:
    logger.remove()
    own = lambda record: record["name"] == "__main__"  # noqa: E731
    others = lambda record: record["name"] != "__main__"  # noqa: E731
    sinks = [log_file] if log_file else [sys.stderr]
    for sink in sinks:
        logger.add(sink, level="INFO", filter=own, enqueue=False)
        logger.add(sink, level=level, filter=others, enqueue=False)


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--reply-wav", default=str(ROOT / "scenarios" / "audio" / "thanks.wav"))
    parser.add_argument("--serializer", choices=SERIALIZERS, default="twilio",
                        help="the telephony provider's Pipecat serializer (default twilio)")
    parser.add_argument("--in-rate", type=int, default=None,
                        help="pipeline input rate (Silero: 8000 or 16000); default the provider's rate")
    parser.add_argument("--out-rate", type=int, default=None, help="pipeline output rate; default the provider's rate")
    parser.add_argument("--speech-timeout-s", type=float, default=0.6,
                        help="SpeechTimeoutUserTurnStopStrategy.user_speech_timeout (Pipecat's default 0.6)")
    parser.add_argument("--call-timeout-s", type=int, default=90, help="a call is cancelled after this long")
    parser.add_argument("--max-lifetime-s", type=float, default=300, help="the server stops itself after this long")
    parser.add_argument("--log-file", default=None)
    parser.add_argument("--log-level", default="WARNING", help="Pipecat's log level")
    parser.add_argument("--twilio-auth-token", default=None,
                        help="reject upgrades whose X-Twilio-Signature this auth token does not validate")
    args = parser.parse_args(argv)
    args.in_rate = args.in_rate or PROVIDER_RATES[args.serializer]
    args.out_rate = args.out_rate or PROVIDER_RATES[args.serializer]
    return args


#: The serializers --serializer takes, and the audio rate each provider streams at by default
#: (Vonage 16 kHz PCM, the others 8 kHz).
SERIALIZERS = ("twilio", "telnyx", "plivo", "exotel", "vonage")
PROVIDER_RATES = {"twilio": 8000, "telnyx": 8000, "plivo": 8000, "exotel": 8000, "vonage": 16000}


ARGS = parse_args() if __name__ == "__main__" else None
if ARGS is not None:
    configure_logging(ARGS.log_file, ARGS.log_level)

# Pipecat logs its banner at import time: configure loguru first.
import uvicorn  # noqa: E402
from fastapi import FastAPI, WebSocket  # noqa: E402
from twilio.request_validator import RequestValidator  # noqa: E402

from pipecat.audio.utils import create_file_resampler  # noqa: E402
from pipecat.audio.vad.silero import SileroVADAnalyzer  # noqa: E402
from pipecat.frames.frames import (  # noqa: E402
    Frame,
    InterruptionFrame,
    TTSAudioRawFrame,
    TTSStartedFrame,
    TTSStoppedFrame,
    UserStartedSpeakingFrame,
    UserStoppedSpeakingFrame,
)
from pipecat.pipeline.pipeline import Pipeline  # noqa: E402
from pipecat.pipeline.worker import PipelineParams, PipelineWorker  # noqa: E402
from pipecat.processors.audio.vad_processor import VADProcessor  # noqa: E402
from pipecat.processors.frame_processor import FrameDirection, FrameProcessor  # noqa: E402
from pipecat.runner.utils import parse_telephony_websocket  # noqa: E402
from pipecat.serializers.exotel import ExotelFrameSerializer  # noqa: E402
from pipecat.serializers.plivo import PlivoFrameSerializer  # noqa: E402
from pipecat.serializers.telnyx import TelnyxFrameSerializer  # noqa: E402
from pipecat.serializers.twilio import TwilioFrameSerializer  # noqa: E402
from pipecat.serializers.vonage import VonageFrameSerializer  # noqa: E402
from pipecat.transports.websocket.fastapi import FastAPIWebsocketParams, FastAPIWebsocketTransport  # noqa: E402
from pipecat.turns.user_start import VADUserTurnStartStrategy  # noqa: E402
from pipecat.turns.user_stop import SpeechTimeoutUserTurnStopStrategy  # noqa: E402
from pipecat.turns.user_turn_processor import UserTurnProcessor  # noqa: E402
from pipecat.turns.user_turn_strategies import UserTurnStrategies  # noqa: E402
from pipecat.workers.runner import WorkerRunner  # noqa: E402

CHUNK_MS = 40
SIGNATURE_HEADER = "X-Twilio-Signature"


def connected_url(websocket: WebSocket) -> str:
    """The URL the client connected to, as Twilio signs it: scheme, Host header, the request
    line's path as sent (raw_path, not percent-decoded) and query string. For `/ws` this is
    `str(websocket.url)`, which Starlette builds the same way from the decoded path."""
    scope = websocket.scope
    raw_path = scope.get("raw_path")
    path = raw_path.decode("latin-1") if raw_path else scope["path"]
    host = websocket.headers.get("host") or websocket.url.netloc
    query = scope.get("query_string", b"").decode("latin-1")
    return f"{scope.get('scheme', 'ws')}://{host}{path}" + (f"?{query}" if query else "")


async def load_reply(path: str, rate: int) -> bytes:
    """The WAV's 16-bit mono PCM at `rate`, resampled with Pipecat's file resampler."""
    with wave.open(path, "rb") as wav:
        if wav.getsampwidth() != 2:
            raise SystemExit(f"{path}: 16-bit PCM WAV expected")
        pcm = wav.readframes(wav.getnframes())
        channels, source_rate = wav.getnchannels(), wav.getframerate()
    if channels != 1:
        import audioop
        pcm = audioop.tomono(pcm, 2, 0.5, 0.5)
    if source_rate != rate:
        pcm = await create_file_resampler().resample(pcm, source_rate, rate)
    return pcm


def make_serializer(kind: str, call_data):
    """The Pipecat serializer for provider `kind`, as a telephony bot builds it from the parsed
    handshake `call_data` (None for vonage, which has no handshake parser); no provider REST
    hang-up."""
    if kind == "twilio":
        return TwilioFrameSerializer(stream_sid=call_data.stream_id, call_sid=call_data.call_id,
                                     params=TwilioFrameSerializer.InputParams(auto_hang_up=False))
    if kind == "telnyx":
        return TelnyxFrameSerializer(stream_id=call_data.stream_id, call_control_id=call_data.call_id,
                                     outbound_encoding=call_data.outbound_encoding, inbound_encoding="PCMU",
                                     params=TelnyxFrameSerializer.InputParams(auto_hang_up=False))
    if kind == "plivo":
        return PlivoFrameSerializer(stream_id=call_data.stream_id, call_id=call_data.call_id,
                                    params=PlivoFrameSerializer.InputParams(auto_hang_up=False))
    if kind == "exotel":
        return ExotelFrameSerializer(stream_sid=call_data.stream_id, call_sid=call_data.call_id)
    if kind == "vonage":
        return VonageFrameSerializer()
    raise ValueError(f"unknown serializer {kind!r}")


def describe_call(kind: str, call_data) -> str:
    """One line of what the handshake parser found, for the per-call trace."""
    if call_data is None:
        return "no handshake parser (the serializer reads websocket:connected)"
    line = f"stream_id={call_data.stream_id} call_id={call_data.call_id}"
    if kind == "twilio":
        line = f"stream_sid={call_data.stream_id} call_sid={call_data.call_id} custom_parameters={sorted(call_data.body)}"
    elif kind == "telnyx":
        line += f" outbound_encoding={call_data.outbound_encoding}"
    elif kind == "exotel":
        line += f" account_sid={call_data.account_sid}"
    return line


class CannedReply(FrameProcessor):
    """Stands in for STT → LLM → TTS: answers every user turn with the same audio."""

    def __init__(self, pcm: bytes, rate: int, call: str, started: float):
        super().__init__(name="CannedReply")
        self._pcm, self._rate, self._call, self._started = pcm, rate, call, started
        self._replies = 0

    def _t(self) -> str:
        return f"{time.monotonic() - self._started:7.3f}s"

    async def process_frame(self, frame: Frame, direction: FrameDirection):
        await super().process_frame(frame, direction)
        await self.push_frame(frame, direction)
        if direction != FrameDirection.DOWNSTREAM:
            return
        if isinstance(frame, UserStartedSpeakingFrame):
            logger.info(f"{self._call} {self._t()} user turn started")
        elif isinstance(frame, InterruptionFrame):
            logger.info(f"{self._call} {self._t()} interruption (the serializer sends its clear message)")
        elif isinstance(frame, UserStoppedSpeakingFrame):
            await self._speak()

    async def _speak(self):
        self._replies += 1
        context_id = f"reply-{self._replies}"
        step = self._rate * 2 * CHUNK_MS // 1000
        logger.info(f"{self._call} {self._t()} user turn stopped: reply {self._replies}, "
                    f"{len(self._pcm) / 2 / self._rate * 1000:.0f} ms of audio")
        await self.push_frame(TTSStartedFrame(context_id=context_id))
        for offset in range(0, len(self._pcm), step):
            chunk = self._pcm[offset:offset + step]
            await self.push_frame(TTSAudioRawFrame(audio=chunk, sample_rate=self._rate, num_channels=1,
                                                   context_id=context_id))
        await self.push_frame(TTSStoppedFrame(context_id=context_id))


def pipeline_rates(args, kind: str) -> tuple[int, int]:
    """The pipeline's input and output rates for a call of `kind`: the command line's for the
    --serializer provider, the provider's own rate for the others (served at /ws/{kind})."""
    if kind == args.serializer:
        return args.in_rate, args.out_rate
    return PROVIDER_RATES[kind], PROVIDER_RATES[kind]


def make_app(args, reply_pcm) -> FastAPI:
    """The app: `/ws` serves the --serializer provider, `/ws/{provider}` any of SERIALIZERS, so
    one server answers every provider. `reply_pcm`: the reply at the output rate (bytes), or a
    dict of it by rate for every rate `pipeline_rates` gives."""
    app = FastAPI()
    calls = {"count": 0}
    validator = RequestValidator(args.twilio_auth_token) if args.twilio_auth_token else None
    replies = reply_pcm if isinstance(reply_pcm, dict) else {args.out_rate: reply_pcm}

    @app.websocket("/ws")
    async def media_stream(websocket: WebSocket):
        await serve_call(websocket, args.serializer)

    @app.websocket("/ws/{kind}")
    async def provider_stream(websocket: WebSocket, kind: str):
        if kind not in SERIALIZERS:
            logger.warning(f"upgrade rejected (HTTP 403): no serializer {kind!r}")
            await websocket.close(code=1008)
            return
        await serve_call(websocket, kind)

    async def serve_call(websocket: WebSocket, kind: str):
        in_rate, out_rate = pipeline_rates(args, kind)
        signed = None
        if validator is not None:
            url = connected_url(websocket)
            signature = websocket.headers.get(SIGNATURE_HEADER)
            if not signature or not validator.validate(url, {}, signature):
                logger.warning(f"upgrade rejected (HTTP 403): {SIGNATURE_HEADER} "
                               f"{'missing' if not signature else 'invalid'} for {url}")
                await websocket.close(code=1008)  # before accept: Starlette answers 403
                return
            signed = url
        await websocket.accept()
        started = time.monotonic()
        calls["count"] += 1
        call = f"call {calls['count']}"
        if signed is not None:
            logger.info(f"{call} {SIGNATURE_HEADER} validated for {signed}")
        call_data = None
        if kind != "vonage":
            try:
                transport_type, call_data = await asyncio.wait_for(parse_telephony_websocket(websocket), 10)
            except Exception as error:  # noqa: BLE001
                logger.error(f"{call}: no {kind} handshake: {error!r}")
                await websocket.close(code=1008)
                return
            if transport_type != kind:
                logger.error(f"{call}: parse_telephony_websocket detected {transport_type!r}, not {kind}")
                await websocket.close(code=1008)
                return
        logger.info(f"{call} handshake ({kind}): {describe_call(kind, call_data)}")
        serializer = make_serializer(kind, call_data)
        transport = FastAPIWebsocketTransport(
            websocket=websocket,
            params=FastAPIWebsocketParams(
                audio_in_enabled=True,
                audio_out_enabled=True,
                add_wav_header=False,
                serializer=serializer,
                session_timeout=args.call_timeout_s,
                allowed_origins=[],
            ),
        )
        await run_bot(transport, replies[out_rate], in_rate, out_rate, args, call, started)

    return app


async def run_bot(transport, reply_pcm: bytes, in_rate: int, out_rate: int, args, call: str, started: float,
                  rtvi: bool = False):
    """One call's pipeline on `transport`, to its end: Silero VAD → user turns (Pipecat's speech
    timeout, no transcript) → the canned reply at `out_rate` → output; cancelled when the client
    disconnects or the call times out. With `rtvi`, Pipecat's RTVI processor runs too (it answers
    `client-ready` with `bot-ready`). Shared by every bot script of the suite."""
    turns = UserTurnProcessor(
        user_turn_strategies=UserTurnStrategies(
            start=[VADUserTurnStartStrategy()],
            stop=[SpeechTimeoutUserTurnStopStrategy(user_speech_timeout=args.speech_timeout_s,
                                                    wait_for_transcript=False)],
        ),
    )
    reply = CannedReply(reply_pcm, out_rate, call, started)
    worker = PipelineWorker(
        Pipeline([transport.input(), VADProcessor(vad_analyzer=SileroVADAnalyzer()), turns, reply, transport.output()]),
        params=PipelineParams(audio_in_sample_rate=in_rate, audio_out_sample_rate=out_rate),
        enable_rtvi=rtvi,
        idle_timeout_secs=args.call_timeout_s,
        check_dangling_tasks=False,
    )

    @transport.event_handler("on_client_disconnected")
    async def on_client_disconnected(_transport, _websocket):
        logger.info(f"{call} {time.monotonic() - started:7.3f}s client disconnected")
        await worker.cancel()

    @transport.event_handler("on_session_timeout")
    async def on_session_timeout(_transport, _websocket):
        logger.warning(f"{call}: call timeout ({args.call_timeout_s} s)")
        await worker.cancel()

    runner = WorkerRunner(handle_sigint=False, handle_sigterm=False, check_dangling_tasks=False)
    await runner.add_workers(worker)
    await runner.run()
    logger.info(f"{call} {time.monotonic() - started:7.3f}s pipeline finished")


class Server(uvicorn.Server):
    """uvicorn's server without its signal capture: uvicorn re-raises a captured SIGTERM after
    its graceful shutdown (exit 143); this app handles SIGTERM/SIGINT itself and exits 0."""

    @contextlib.contextmanager
    def capture_signals(self):
        yield


async def serve(args) -> int:
    SileroVADAnalyzer()  # load onnxruntime and the bundled model once, before "ready"
    rates = {args.out_rate} | {pipeline_rates(args, kind)[1] for kind in SERIALIZERS}
    app = make_app(args, {rate: await load_reply(args.reply_wav, rate) for rate in sorted(rates)})
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning",
                            timeout_graceful_shutdown=3, lifespan="off")
    server = Server(config)
    loop = asyncio.get_running_loop()

    def stop(reason: str):
        logger.info(f"stopping: {reason}")
        if server.should_exit:
            server.force_exit = True
        server.should_exit = True

    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop, signal.Signals(sig).name)
    lifetime = loop.call_later(args.max_lifetime_s, stop, f"--max-lifetime-s {args.max_lifetime_s} reached")

    task = asyncio.create_task(server.serve())
    deadline = time.monotonic() + 30
    while not server.started:
        if task.done() or time.monotonic() > deadline:
            print("failed to start", flush=True)
            server.should_exit = True
            await asyncio.wait({task}, timeout=5)
            return 1
        await asyncio.sleep(0.02)
    print(f"ready on port {args.port}", flush=True)
    await task
    lifetime.cancel()
    print("stopped", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(serve(ARGS)))
