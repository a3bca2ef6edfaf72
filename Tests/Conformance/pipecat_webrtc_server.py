"""A real Pipecat (pipecat-ai 1.14.0) bot behind its SmallWebRTC transport, fully local, for
vload's WebRTC conformance runs.

    python pipecat_webrtc_server.py --port 8767 [--reply-wav WAV] [--log-file server.log]

What Pipecat's SmallWebRTC clients talk to: `POST /api/offer`, served as pipecat's own runner
serves it (pipecat/runner/run.py): the JSON body is a `SmallWebRTCRequest` (`sdp`, `type`,
`pc_id`, `restart_pc`), `SmallWebRTCRequestHandler.handle_web_request` answers it with
`{"sdp", "type", "pc_id"}`, and each new connection runs a bot on a `SmallWebRTCTransport`
(aiortc 1.16 underneath). The pipeline is the Twilio bot's of pipecat_server.py (`run_bot`,
imported from there) with RTVI on: transport input → VADProcessor (Silero, from the wheel) →
UserTurnProcessor → CannedReply → output, and Pipecat's RTVI processor answering the client's
`client-ready` with `bot-ready` on the data channel. Input is 16 kHz (Silero's rate) and output
24 kHz; the transport carries both as 48 kHz Opus.

aioice leaves loopback out of its host candidates; here they are limited to loopback, so the
answer offers only the address a test may send to: 127.0.0.1, or ::1 for a bot listening on an
IPv6 address (`--host ::1`), which vload calls over IPv6.

It prints "ready on port N" when it accepts connections, exits cleanly on SIGTERM/SIGINT, and
stops by itself after --max-lifetime-s. Pipecat logs go to --log-file at WARNING; the call trace
at INFO.
"""
import asyncio
import sys
import time
from unittest import mock

from loguru import logger

logger.remove()  # before Pipecat's import-time banner

import pipecat_server  # noqa: E402  (Pipecat is imported from here on)
from fastapi import BackgroundTasks, FastAPI  # noqa: E402

from pipecat.transports.base_transport import TransportParams  # noqa: E402
from pipecat.transports.smallwebrtc.connection import SmallWebRTCConnection  # noqa: E402
from pipecat.transports.smallwebrtc.request_handler import (  # noqa: E402
    SmallWebRTCRequest, SmallWebRTCRequestHandler,
)
from pipecat.transports.smallwebrtc.transport import SmallWebRTCTransport  # noqa: E402

from pipecat_protobuf_server import DEFAULTS, configure_logging  # noqa: E402  (same rates, same logs)

def loopback_only(host: str):
    """aioice's host addresses limited to the loopback address of the family the bot listens on."""
    return mock.patch("aioice.ice.get_host_addresses", return_value=["::1" if ":" in host else "127.0.0.1"])


def make_app(args, reply_pcm) -> FastAPI:
    """The app `pipecat_server.serve` runs; `reply_pcm`: the reply at the output rate (bytes), or
    a dict of it by rate."""
    if isinstance(reply_pcm, dict):
        reply_pcm = reply_pcm[args.out_rate]
    app = FastAPI()
    handler = SmallWebRTCRequestHandler()
    calls = {"count": 0}

    @app.post("/api/offer")
    async def offer(request: SmallWebRTCRequest, background_tasks: BackgroundTasks):
        async def on_connection(connection: SmallWebRTCConnection):
            started = time.monotonic()
            calls["count"] += 1
            call = f"call {calls['count']}"
            logger.info(f"{call} offer answered: pc_id {connection.pc_id}")
            transport = SmallWebRTCTransport(
                webrtc_connection=connection,
                params=TransportParams(audio_in_enabled=True, audio_out_enabled=True),
            )
            background_tasks.add_task(
                pipecat_server.run_bot, transport, reply_pcm, args.in_rate, args.out_rate, args, call, started, True)

        return await handler.handle_web_request(request=request, webrtc_connection_callback=on_connection)

    return app


if __name__ == "__main__":
    ARGS = pipecat_server.parse_args(DEFAULTS + sys.argv[1:])
    configure_logging(ARGS.log_file, ARGS.log_level)
    # pipecat_server.serve loads the reply, starts uvicorn with the app make_app builds, prints
    # "ready on port N" and handles SIGTERM and --max-lifetime-s: this bot's app replaces its own.
    pipecat_server.make_app = make_app
    with loopback_only(ARGS.host):
        sys.exit(asyncio.run(pipecat_server.serve(ARGS)))
