"""Serving from several worker processes: uvicorn's supervisor, with a TCP listening socket.

uvicorn binds the socket it shares between workers as protocol 0, and asyncio sets TCP_NODELAY
only on connections accepted from a socket that says it is TCP (protocol 6). Without it every
answer on a kept-alive connection waited ~40 ms for the client's delayed ACK (Nagle): 44 ms for
``/v1/health`` with two workers against 2 ms with one.
"""

from __future__ import annotations

import socket

import uvicorn
from uvicorn.supervisors import Multiprocess


class TcpConfig(uvicorn.Config):
    """A uvicorn Config whose listening socket is made a TCP one (picklable: workers get a copy)."""

    def bind_socket(self) -> socket.socket:
        sock = super().bind_socket()
        if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.proto == 0:
            sock = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
            sock.set_inheritable(True)
        return sock


def run_workers(app: str, workers: int, options: dict) -> None:
    """Serve ``app`` (an import string) from ``workers`` processes sharing one listening socket,
    as ``uvicorn.run`` does."""
    config = TcpConfig(app, workers=workers, **options)
    Multiprocess(config, sockets=[config.bind_socket()]).run()
