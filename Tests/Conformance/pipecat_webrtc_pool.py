"""Several real Pipecat SmallWebRTC bots (pipecat_webrtc_server.py), one process each, behind one
`POST /api/offer`, for WebRTC runs of more calls than one Python process can carry.

    python pipecat_webrtc_pool.py --bots N --port P [pipecat_webrtc_server.py's options]

A Pipecat bot runs its whole call in one asyncio thread plus aiortc's codec threads, all under
one GIL: one bot process is one core at most. Measured on loopback (bench/aiortc-compare.sh,
BENCHMARKS.md "20 callers against real Pipecat bots"), a call costs the bot about 8 % of a core
(Opus decoding and encoding, Silero VAD every 32 ms, Pipecat's frames), so one process tops out
near a dozen calls and answers later and later past that. Pipecat's own deployments run a
bot per process (Pipecat Cloud: a bot per session). This front does the same on one machine:

- N children, each `pipecat_webrtc_server.py --port Pi` with the options given here, on free
  loopback ports picked here; "ready on port P" is printed once every child is ready;
- `POST /api/offer` goes to the children in turn (round-robin), or to the child that answered
  the body's `pc_id` before (a renegotiation); `PATCH /api/offer` (trickled ICE candidates) to
  the child that holds its `pc_id`, each printed as "POST /api/offer to bot on port Pi". The body
  and the answer pass through unchanged. Media then flows straight between the caller and that
  child (the answer's candidates are the child's);
- SIGTERM/SIGINT or --max-lifetime-s stops the children, then the front.
"""
import argparse
import asyncio
import itertools
import signal
import socket
import sys
from pathlib import Path

import aiohttp
from aiohttp import web

HERE = Path(__file__).resolve().parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def start_child(port: int, bot_args: list) -> asyncio.subprocess.Process:
    child = await asyncio.create_subprocess_exec(
        sys.executable, str(HERE / "pipecat_webrtc_server.py"), "--port", str(port), *bot_args,
        stdout=asyncio.subprocess.PIPE, cwd=HERE)
    while line := await asyncio.wait_for(child.stdout.readline(), 60):
        if line.startswith(b"ready on port"):
            asyncio.ensure_future(child.stdout.read())  # the rest ("stopped") is not needed: drain it
            return child
    raise RuntimeError(f"bot on port {port} exited before it was ready (exit {await child.wait()})")


def make_front(ports: list) -> web.Application:
    turn = itertools.cycle(ports)
    owner = {}  # pc_id -> the child's port
    session = {}

    async def forward(request: web.Request) -> web.Response:
        body = await request.read()
        pc_id = (await request.json()).get("pc_id") if body else None
        port = owner.get(pc_id) or next(turn)
        print(f"{request.method} /api/offer to bot on port {port}", flush=True)
        async with session["http"].request(request.method, f"http://127.0.0.1:{port}/api/offer", data=body,
                                           headers={"Content-Type": request.content_type}) as answer:
            payload = await answer.read()
            if request.method == "POST" and answer.status == 200:
                answered = await answer.json()
                owner[answered.get("pc_id")] = port
            return web.Response(status=answer.status, body=payload, content_type=answer.content_type)

    async def open_session(_app):
        session["http"] = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30))
        yield
        await session["http"].close()

    app = web.Application()
    app.router.add_post("/api/offer", forward)
    app.router.add_patch("/api/offer", forward)
    app.cleanup_ctx.append(open_session)
    return app


async def serve(args, bot_args: list) -> int:
    ports = [free_port() for _ in range(args.bots)]
    children = []
    try:
        # One at a time: each child loads onnxruntime and Silero's model before it is ready.
        for port in ports:
            children.append(await start_child(port, bot_args + ["--max-lifetime-s", str(args.max_lifetime_s)]))
        runner = web.AppRunner(make_front(ports), access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", args.port).start()
        print(f"ready on port {args.port} ({args.bots} bots on ports {', '.join(map(str, ports))})", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await asyncio.wait([asyncio.ensure_future(stop.wait()), *(asyncio.ensure_future(c.wait()) for c in children)],
                           timeout=args.max_lifetime_s, return_when=asyncio.FIRST_COMPLETED)
        await runner.cleanup()
        return 0
    finally:
        for child in children:
            if child.returncode is None:
                child.terminate()
        for child in children:
            try:
                await asyncio.wait_for(child.wait(), 10)
            except asyncio.TimeoutError:
                child.kill()
        print("stopped", flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, required=True, help="how many bot processes")
    parser.add_argument("--port", type=int, required=True, help="the front's port (POST /api/offer)")
    parser.add_argument("--max-lifetime-s", type=float, default=300, help="everything stops after this long")
    ARGS, BOT_ARGS = parser.parse_known_args()
    sys.exit(asyncio.run(serve(ARGS, BOT_ARGS)))
