"""Serving from several worker processes: uvicorn's supervisor, each worker on its own listening socket.

On one shared socket every worker waits on the same accept queue and the first to wake takes all
the connections pending (asyncio accepts up to the backlog per wake-up): with kept-alive clients
one worker served a whole burst while the other idled. On Linux each worker slot therefore gets
its own socket, bound with ``SO_REUSEPORT`` to the same port, and the kernel spreads connections
over the slots by a hash of their addresses. The supervisor binds and keeps the slots' sockets, so
a worker that dies or restarts leaves its queued connections waiting for the next one in its slot.
Elsewhere (where ``SO_REUSEPORT`` does not balance) the workers share one socket, as uvicorn does.

Both kinds of socket are made TCP ones (protocol 6): uvicorn binds protocol 0, and asyncio sets
TCP_NODELAY only on connections accepted from a socket that says it is TCP. Without it every
answer on a kept-alive connection waits for the client's delayed ACK (Nagle; docs/benchmarks.md,
"Kept-alive answers from several workers").
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import socket
import sys
import threading

import uvicorn
from uvicorn.config import STARTUP_FAILURE
from uvicorn.supervisors.multiprocess import Multiprocess, Process

logger = logging.getLogger("uvicorn.error")
SPREADS = sys.platform.startswith("linux") and hasattr(socket, "SO_REUSEPORT")
M_ARENA_MAX = -8  # glibc's mallopt parameter
ARENAS = 2
TRIM_EVERY = 30.0  # seconds
_trimming = False  # this process runs keep_memory_flat's thread
PR_SET_PDEATHSIG = 1  # prctl option: the signal this process gets when its parent dies
WATCH_EVERY = 1.0  # seconds between a worker's looks at its supervisor


def _glibc():
    """The C library when it is glibc (it has ``malloc_trim`` and ``mallopt``), else None."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return None
    return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None


def keep_memory_flat(every: float = TRIM_EVERY) -> None:
    """Keep this worker's RSS from creeping up as it serves (glibc only; elsewhere nothing). Call
    it before the server starts its threads.

    Each thread that allocates at once with others gets a malloc arena of its own (eight threads,
    about eight arenas), and what another thread frees there stays as holes. So at most ``ARENAS``
    arenas, unless ``MALLOC_ARENA_MAX`` says otherwise, and ``malloc_trim`` every ``every`` seconds
    hands the free pages back (a short call: docs/benchmarks.md, "A worker's memory").
    A worker's threads are few and lasting (the event loop, a scoring thread per core): with them,
    over 30,000 requests from 64 clients, RSS after 1,000 grew by 1.0-1.1% with this and 1.7%
    without (docs/benchmarks.md)."""
    global _trimming
    libc = _glibc()
    if libc is None or _trimming:
        return
    _trimming = True
    if "MALLOC_ARENA_MAX" not in os.environ:  # glibc has read the caller's own setting
        libc.mallopt(M_ARENA_MAX, ARENAS)

    def trim() -> None:
        pause = threading.Event()
        while not pause.wait(every):
            libc.malloc_trim(0)

    threading.Thread(target=trim, name="malloc-trim", daemon=True).start()


class TcpConfig(uvicorn.Config):
    """A uvicorn Config whose listening socket is made a TCP one (picklable: workers get a copy)."""

    def bind_socket(self) -> socket.socket:
        sock = super().bind_socket()
        if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.proto == 0:
            sock = socket.socket(sock.family, sock.type, socket.IPPROTO_TCP, fileno=sock.detach())
            sock.set_inheritable(True)
        return sock


def bind_slots(host: str, port: int, count: int, join: bool = False) -> list[socket.socket]:
    """``count`` TCP sockets bound with ``SO_REUSEPORT`` to ``host:port`` (a free port when 0), not
    yet listening. Unless ``join`` (more slots for a port of ours), a plain socket is bound first,
    so that a port something already listens on is refused instead of joined (``SO_REUSEPORT``
    lets any process of the same user join)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sockets: list[socket.socket] = []
    try:
        if not join:
            with socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP) as probe:
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                probe.bind((host, port))
                port = probe.getsockname()[1]
        for _ in range(count):
            sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
            sock.bind((host, port))
            sock.set_inheritable(True)
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def end_with(supervisor: int, every: float = WATCH_EVERY) -> None:
    """End this process (SIGTERM: uvicorn's graceful stop) when ``supervisor``, its parent, dies,
    however it dies: a SIGKILLed supervisor must not leave workers answering on its port. On
    Linux the kernel sends the signal (``PR_SET_PDEATHSIG``); a thread watching the parent's pid
    covers other systems and a parent gone before the request was made."""
    libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None
    if libc is not None and hasattr(libc, "prctl"):
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)

    def watch() -> None:
        pause = threading.Event()
        while os.getppid() == supervisor:
            pause.wait(every)
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="supervisor-watch", daemon=True).start()


class Worker(Process):
    """A uvicorn worker process that keeps its memory flat (``keep_memory_flat``) and ends with its
    supervisor (``end_with``)."""

    def __init__(self, config: uvicorn.Config, sockets: list[socket.socket]) -> None:
        super().__init__(config, sockets)
        self.supervisor = os.getpid()

    def target(self, sockets: list[socket.socket] | None = None) -> None:
        end_with(self.supervisor)
        keep_memory_flat()
        super().target(sockets)


class Spread(Multiprocess):
    """uvicorn's supervisor (signals, health checks, restarts, SIGTTIN/SIGTTOU) with worker ``i``
    serving on ``slots[i]`` alone."""

    def __init__(self, config: uvicorn.Config, slots: list[socket.socket]) -> None:
        super().__init__(config, sockets=slots)
        self.slots = slots

    def _start(self, idx: int) -> Process:
        process = Worker(self.config, [self.slots[idx]])
        process.start()
        return process

    def init_processes(self) -> None:
        self.processes = [self._start(idx) for idx in range(self.processes_num)]

    def restart_all(self) -> None:
        """Replace each worker, bringing its replacement into service (on the same socket) before
        retiring the old one."""
        for idx, old_process in enumerate(self.processes):
            if self.should_exit.is_set():
                return
            new_process = self._start(idx)
            if not new_process.wait_until_ready(self.config.timeout_worker_healthcheck, self.should_exit):
                new_process.kill()
                new_process.join()
                if not self.should_exit.is_set():
                    logger.error(f"New child process [{new_process.pid}] was not ready in time; "
                                 f"keeping worker [{old_process.pid}] and aborting the restart.")
                return
            old_process.terminate()
            old_process.join()
            self.processes[idx] = new_process

    def keep_subprocess_alive(self) -> None:
        """Replace a worker that died or hangs, in its slot; stop all when it failed to start (the
        app or the model is broken and every restart would fail the same way)."""
        if self.should_exit.is_set():
            return
        for idx, process in enumerate(self.processes):
            if process.is_alive(timeout=self.config.timeout_worker_healthcheck):
                continue
            process.kill()
            process.join()
            if process.exitcode == STARTUP_FAILURE:
                logger.error(f"Child process [{process.pid}] failed to start, stopping the parent process.")
                self.should_exit.set()
                return
            if self.should_exit.is_set():
                return
            logger.info(f"Child process [{process.pid}] died")
            self.processes[idx] = self._start(idx)

    def handle_ttin(self) -> None:
        logger.info("Received SIGTTIN, increasing the number of processes.")
        try:
            self.slots += bind_slots(self.config.host, self.slots[0].getsockname()[1], 1, join=True)
        except OSError as exc:
            logger.error(f"No socket for another worker: {exc}")
            return
        self.processes_num += 1
        self.processes.append(self._start(len(self.processes)))

    def handle_ttou(self) -> None:
        logger.info("Received SIGTTOU, decreasing number of processes.")
        if self.processes_num <= 1:
            logger.info("Already reached one process, cannot decrease the number of processes anymore.")
            return
        self.processes_num -= 1
        process = self.processes.pop()
        process.terminate()
        process.join()
        self.slots.pop().close()


def run_workers(app: str, workers: int, options: dict) -> None:
    """Serve ``app`` (an import string) from ``workers`` processes, as ``uvicorn.run`` does, with
    connections spread over the workers where the system can (Linux)."""
    if not SPREADS:
        config = TcpConfig(app, workers=workers, **options)
        Multiprocess(config, sockets=[config.bind_socket()]).run()
        return
    config = uvicorn.Config(app, workers=workers, **options)
    try:
        slots = bind_slots(config.host, config.port, workers)
    except OSError as exc:
        logger.error(exc)
        sys.exit(STARTUP_FAILURE)
    host = f"[{config.host}]" if ":" in config.host else config.host
    logger.info("Uvicorn running on http://%s:%d (Press CTRL+C to quit), %d workers, each on its own socket",
                host, slots[0].getsockname()[1], workers)
    try:
        Spread(config, slots).run()
    finally:
        for sock in slots:
            sock.close()
