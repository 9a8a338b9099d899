"""What the server benchmarks share: start ``seog serve`` on a loopback port, find its worker
processes, read their CPU ticks and RSS from ``/proc``, and drive kept-alive clients at it.

The clients are asyncio streams writing one prepared request and reading the answer by its
Content-Length: a few tens of microseconds of CPU per request, so that the server, not the
client, is what is measured (``Load.client_cpu`` says how busy the client was).
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "seog" / "api" / "static" / "examples"
DEFAULT_SGF = EXAMPLES / "gnugo-selfplay-9x9.sgf"
TICKS = os.sysconf("SC_CLK_TCK")


def board_body(sgf: Path | bytes = DEFAULT_SGF) -> bytes:
    """A ``POST /v1/score`` JSON body: the final board of an SGF game (a file or its bytes) as rows,
    its rules and komi."""
    from seog.api import positions

    position = positions.from_sgf(sgf if isinstance(sgf, bytes) else Path(sgf).read_bytes())
    return json.dumps({"board": position.board.to_rows(), "rules": position.rules.name,
                       "komi": position.komi}).encode()


def varied_requests(source: Path, limit: int | None = None) -> list[bytes]:
    """Requests for the first ``limit`` games of an archive (a folder or a tarball of SGF files,
    as ``seog annotate`` reads them) that can be scored: each game as SGF text and its final board
    as JSON rows, so that both readers and many positions are exercised."""
    from seog.datasets import archive

    out: list[bytes] = []
    for entry in archive.read(source):
        if limit is not None and len(out) >= 2 * limit:
            break
        try:
            board = board_body(entry.data) if entry.data else None
        except ValueError:
            continue
        if board is not None:
            text = entry.data.decode("utf-8", "replace")
            out += [score_request(json.dumps({"sgf": text}).encode()), score_request(board)]
    return out


def score_request(body: bytes, host: str = "127.0.0.1") -> bytes:
    return (f"POST /v1/score HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``seog serve --workers N`` in a subprocess on a free loopback port, started and ready."""

    def __init__(self, workers: int, *extra: str, timeout: float = 60, command: tuple = ()) -> None:
        """``command``: what runs in place of ``python -m seog`` (it gets the same arguments)."""
        self.workers, self.port = workers, free_port()
        self.proc = subprocess.Popen([*(command or (sys.executable, "-m", "seog")), "serve", "--port", str(self.port),
                                      "--log-level", "warning", "--workers", str(workers), *extra])
        deadline = time.monotonic() + timeout
        while not self._healthy():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"seog serve --workers {workers} did not start")
            time.sleep(0.1)
        while (listening(self.port) < workers or len(self.worker_pids()) < workers) and time.monotonic() < deadline:
            time.sleep(0.1)  # a second worker listens once it has loaded the model

    def _healthy(self) -> bool:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
            conn.request("GET", "/v1/health")
            return conn.getresponse().status == 200
        except OSError:
            return False

    def worker_pids(self) -> list[int]:
        """The processes that serve: the server itself with one worker, else its spawned children."""
        if self.workers == 1:
            return [self.proc.pid]
        return [pid for pid in children(self.proc.pid) if b"spawn_main" in cmdline(pid)]

    def stop(self, timeout: float = 30) -> float:
        """SIGTERM, then wait; the seconds it took to end (SIGKILL after ``timeout``)."""
        t0 = time.monotonic()
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return time.monotonic() - t0

    def __enter__(self) -> Server:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            pass
    return found


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def listening(port: int) -> int:
    """How many sockets listen on ``port`` (IPv4): one per worker where each has its own."""
    rows = [line.split() for line in Path("/proc/net/tcp").read_text().splitlines()[1:]]
    return sum(1 for f in rows if int(f[1].split(":")[1], 16) == port and f[3] == "0A")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def load() -> str:
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


@dataclass
class Load:
    """What a burst of requests got: latencies (seconds) of the answered ones, and the errors."""

    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    error_kinds: dict[str, int] = field(default_factory=dict)
    client_cpu: float = 0.0  # the client's CPU seconds over the wall seconds

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.seconds if self.seconds else 0.0

    def percentile(self, q: float) -> float:
        """The q-th percentile latency in milliseconds (nearest rank)."""
        if not self.latencies:
            return float("nan")
        ordered = sorted(self.latencies)
        return 1000 * ordered[min(len(ordered) - 1, max(0, round(q / 100 * len(ordered)) - 1))]

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


async def _client(port: int, requests: list[bytes], result: Load, stop_at: float, budget: list[int],
                  timeout: float) -> None:
    """One kept-alive connection sending ``requests`` in turn until ``stop_at`` or until ``budget``
    runs out; it reconnects after an error."""
    reader = writer = None
    while time.perf_counter() < stop_at and budget[0] > 0:
        budget[0] -= 1
        request = requests[budget[0] % len(requests)]
        try:
            if writer is None:
                reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
            t0 = time.perf_counter()
            writer.write(request)
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), timeout)
            status, length, closing = _head(head)
            await asyncio.wait_for(reader.readexactly(length), timeout)
            t1 = time.perf_counter()
            if status == 200:
                result.latencies.append(t1 - t0)
            else:
                result.error(f"HTTP {status}")
            if closing:
                writer.close()
                reader = writer = None
        except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError) as exc:
            result.error(type(exc).__name__)
            if writer is not None:
                writer.close()
            reader = writer = None
    if writer is not None:
        writer.close()


def _head(head: bytes) -> tuple[int, int, bool]:
    lines = head.decode("latin-1").split("\r\n")
    status, length, closing = int(lines[0].split()[1]), 0, False
    for line in lines[1:]:
        name, _, value = line.partition(":")
        name = name.strip().lower()
        if name == "content-length":
            length = int(value)
        elif name == "connection" and value.strip().lower() == "close":
            closing = True
    return status, length, closing


def drive(port: int, request: bytes | list[bytes], clients: int, seconds: float, max_requests: int | None = None,
          timeout: float = 30) -> Load:
    """``clients`` kept-alive connections each sending ``request`` (or the requests of a list, in
    turn) one after another for ``seconds`` (or until ``max_requests`` have been sent, all clients
    together)."""
    requests = [request] if isinstance(request, bytes) else list(request)

    async def run() -> Load:
        result = Load()
        budget = [max_requests if max_requests is not None else 1 << 62]
        cpu0, t0 = time.process_time(), time.perf_counter()
        await asyncio.gather(*(_client(port, requests, result, t0 + seconds, budget, timeout)
                               for _ in range(clients)))
        result.seconds = time.perf_counter() - t0
        result.client_cpu = (time.process_time() - cpu0) / result.seconds
        return result

    return asyncio.run(run())
