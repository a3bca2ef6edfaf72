"""A real Pipecat (pipecat-ai 1.14.0) bot behind its protobuf WebSocket transport, fully local, for
vload's `pipecat-protobuf` conformance runs.

    python pipecat_protobuf_server.py --port 8766 [--reply-wav WAV] [--log-file server.log]

What Pipecat's web and mobile clients talk to: one FastAPI WebSocket endpoint, `/ws`, served by
uvicorn on 127.0.0.1, whose FastAPIWebsocketTransport uses `ProtobufFrameSerializer`. No
handshake: the pipeline starts when the socket is accepted. The pipeline is the Twilio bot's of
pipecat_server.py (its CannedReply, reply loading and uvicorn server are imported from there):
transport input → VADProcessor (Silero, from the wheel) → UserTurnProcessor (VAD starts a turn
and interrupts the bot; the turn ends after Pipecat's speech timeout) → CannedReply → output.
Input is PCM16 at 16 kHz and output at 24 kHz (Pipecat's defaults); the transport sends each
reply chunk as an audio frame and an interruption as the serializer's interruption frame.
RTVI is off, so no transport messages are sent.

It prints "ready on port N" when it accepts connections, exits cleanly on SIGTERM/SIGINT, and
stops by itself after --max-lifetime-s. Pipecat logs go to --log-file at WARNING; the call trace
(this app's and CannedReply's) at INFO.
"""
import asyncio
import sys
import time

from loguru import logger

logger.remove()  # before Pipecat's import-time banner

import pipecat_server  # noqa: E402  (Pipecat is imported from here on)
from fastapi import FastAPI, WebSocket  # noqa: E402

from pipecat.serializers.protobuf import ProtobufFrameSerializer  # noqa: E402
from pipecat.transports.websocket.fastapi import FastAPIWebsocketParams, FastAPIWebsocketTransport  # noqa: E402

#: Pipecat's own pipeline rates: its protobuf clients stream 16 kHz and play what the frames say.
DEFAULTS = ["--in-rate", "16000", "--out-rate", "24000"]
#: The loggers whose INFO lines make the call trace.
TRACE = ("__main__", "pipecat_server")


def configure_logging(log_file: str | None, level: str) -> None:
    logger.remove()
    sink = log_file or sys.stderr
    logger.add(sink, level="INFO", filter=lambda record: record["name"] in TRACE, enqueue=False)
    logger.add(sink, level=level, filter=lambda record: record["name"] not in TRACE, enqueue=False)


def make_app(args, reply_pcm) -> FastAPI:
    """The app `pipecat_server.serve` runs; `reply_pcm`: the reply at the output rate (bytes), or
    a dict of it by rate."""
    if isinstance(reply_pcm, dict):
        reply_pcm = reply_pcm[args.out_rate]
    app = FastAPI()
    calls = {"count": 0}

    @app.websocket("/ws")
    async def bot(websocket: WebSocket):
        await websocket.accept()
        started = time.monotonic()
        calls["count"] += 1
        call = f"call {calls['count']}"
        logger.info(f"{call} connected: ProtobufFrameSerializer, {args.in_rate} Hz in, {args.out_rate} Hz out")
        transport = FastAPIWebsocketTransport(
            websocket=websocket,
            params=FastAPIWebsocketParams(
                audio_in_enabled=True,
                audio_out_enabled=True,
                add_wav_header=False,
                serializer=ProtobufFrameSerializer(),
                session_timeout=args.call_timeout_s,
                allowed_origins=[],
            ),
        )
        await pipecat_server.run_bot(transport, reply_pcm, args.in_rate, args.out_rate, args, call, started)

    return app


if __name__ == "__main__":
    ARGS = pipecat_server.parse_args(DEFAULTS + sys.argv[1:])
    configure_logging(ARGS.log_file, ARGS.log_level)
    # pipecat_server.serve loads the reply, starts uvicorn with the app make_app builds, prints
    # "ready on port N" and handles SIGTERM and --max-lifetime-s: this bot's app replaces its own.
    pipecat_server.make_app = make_app
    sys.exit(asyncio.run(pipecat_server.serve(ARGS)))
