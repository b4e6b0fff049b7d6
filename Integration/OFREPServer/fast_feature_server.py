"""fast-feature's OFREP server (PyPI: fast-feature, pinned in requirements.txt) over a flags file.

It exists so the OFREP adapter is tested against an OFREP server nobody on this project wrote. The
integration tests start it (python3 fast_feature_server.py FLAGS.json [PORT]), read the port from
its first line of output, and stop it with SIGTERM. PORT defaults to 0, a free port; a test that
restarts the server gives the port it had.

The flags file is read again on every request, so a test changes the flags by rewriting it:

  {"flags": [{"key": "greeting", "variants": {"hi": "Hi", "hello": "Hello"}, "defaultVariant": "hi",
              "state": "ENABLED", "targeting": {"if": [{"==": [{"var": "plan"}, "pro"]}, "hello", null]},
              "metadata": {"team": "web"}}]}

Everything else is fast-feature's own: its OFREP router (POST /ofrep/v1/evaluate/flags with an
ETag and 304, POST /ofrep/v1/evaluate/flags/{key}), its JsonLogic targeting engine, its in-memory
repository semantics.
"""

import asyncio
import json
import socket
import sys

import uvicorn
from fastapi import FastAPI
from fast_feature.core import Flag, FlagState
from fast_feature.ofrep import OfrepRouter
from fast_feature.storage.inmemory import InMemoryFlagRepository


class FileFlagRepository(InMemoryFlagRepository):
    """fast-feature's in-memory repository, refilled from the flags file before each read."""

    def __init__(self, path: str) -> None:
        super().__init__()
        self._path = path

    def _reload(self) -> None:
        with open(self._path, encoding="utf-8") as file:
            document = json.load(file)
        self._flags = {}
        for entry in document.get("flags", []):
            flag = Flag(
                key=entry["key"],
                variants=entry["variants"],
                default_variant=entry["defaultVariant"],
                state=FlagState(entry.get("state", "ENABLED")),
                targeting=entry.get("targeting"),
                metadata=entry.get("metadata", {}),
            )
            self._flags[flag.key] = flag

    async def get(self, key: str):
        self._reload()
        return await super().get(key)

    async def list_all(self):
        self._reload()
        return await super().list_all()


def main() -> None:
    app = FastAPI(title="fast-feature for the OFREP adapter tests")
    app.include_router(OfrepRouter.build(FileFlagRepository(sys.argv[1])))
    # IPPROTO_TCP, not 0: asyncio sets TCP_NODELAY only on accepted sockets whose proto says TCP. Without it,
    # every request after the first on a kept-alive connection waited 40 ms (Nagle against a delayed ACK).
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", int(sys.argv[2]) if len(sys.argv) > 2 else 0))
    listener.listen(128)  # Connections made before uvicorn runs wait in the backlog.
    print("listening on port %d" % listener.getsockname()[1], flush=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    asyncio.run(server.serve(sockets=[listener]))


if __name__ == "__main__":
    main()
