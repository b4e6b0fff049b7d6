"""A small configuration server with a server-sent-events stream, built on sse-starlette and uvicorn.

It exists so the SSE adapter is tested against an event-stream implementation nobody on this
project wrote. The integration tests start it (python3 sse_server.py), read the port from its
first line of output, and stop it with SIGTERM.

  --host ADDRESS  listen there (default 127.0.0.1)
  --port N        listen on this port (default 0: a free one)
  --state FILE    keep the current version in FILE, so a restarted server carries on from it
  --ping SECONDS  seconds between heartbeat comments on /events (default 5)

  GET  /config.json         the current document, with a strong ETag; 304 when If-None-Match matches
  GET  /events              one event per new version: id and data are the ETag
  GET  /events?mode=payload one event per new version: id is the ETag, data is the whole document
  POST /publish             makes the request body the new document; answers its ETag
"""

import argparse
import asyncio
import json
import os
import socket

import uvicorn
from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

state = {"version": 0, "body": b"{}", "etag": '"v0"'}
settings = {"ping": 5.0, "state_file": None}
subscribers: set[asyncio.Queue] = set()


def load_state(path: str) -> None:
    """Carries on from the version a previous run kept in `path`, if there is one."""
    if not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as file:
        kept = json.load(file)
    state["version"] = kept["version"]
    state["body"] = kept["body"].encode("utf-8")
    state["etag"] = '"v%d"' % kept["version"]


def save_state() -> None:
    """Keeps the current version in the state file, replaced whole, so a kill never leaves half of it."""
    path = settings["state_file"]
    if path is None:
        return
    partial = path + ".partial"
    with open(partial, "w", encoding="utf-8") as file:
        json.dump({"version": state["version"], "body": state["body"].decode("utf-8")}, file)
    os.replace(partial, path)


def announcement(mode: str) -> dict:
    if mode == "payload":
        return {"id": state["etag"], "data": state["body"].decode("utf-8")}
    return {"id": state["etag"], "data": state["etag"]}


async def events(request: Request) -> EventSourceResponse:
    mode = request.query_params.get("mode", "version")
    queue: asyncio.Queue = asyncio.Queue()
    subscribers.add(queue)

    async def stream():
        try:
            yield announcement(mode)
            while True:
                await queue.get()
                yield announcement(mode)
        finally:
            subscribers.discard(queue)

    return EventSourceResponse(stream(), ping=settings["ping"])


async def config(request: Request) -> Response:
    headers = {"ETag": state["etag"], "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == state["etag"]:
        return Response(status_code=304, headers=headers)
    return Response(state["body"], media_type="application/json", headers=headers)


async def publish(request: Request) -> Response:
    state["body"] = await request.body()
    state["version"] += 1
    state["etag"] = '"v%d"' % state["version"]
    save_state()
    for queue in list(subscribers):
        queue.put_nowait(state["etag"])
    return Response(state["etag"], media_type="text/plain")


app = Starlette(
    routes=[
        Route("/config.json", config),
        Route("/events", events),
        Route("/publish", publish, methods=["POST"]),
    ]
)


def main() -> None:
    parser = argparse.ArgumentParser(description="A configuration server with a server-sent-events stream.")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on")
    parser.add_argument("--port", type=int, default=0, help="the port to listen on (0: a free one)")
    parser.add_argument("--state", help="a file that keeps the current version across restarts")
    parser.add_argument("--ping", type=float, default=5.0, help="seconds between heartbeat comments")
    arguments = parser.parse_args()
    settings["ping"] = arguments.ping
    settings["state_file"] = arguments.state
    if arguments.state:
        load_state(arguments.state)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((arguments.host, arguments.port))
    listener.listen(128)  # Connections made before uvicorn runs wait in the backlog.
    print("listening on port %d" % listener.getsockname()[1], flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    asyncio.run(server.serve(sockets=[listener]))


if __name__ == "__main__":
    main()
