"""``seog serve --workers N`` as a server runs it: kept-alive connections spread over the workers,
SIGTERM ends the supervisor and every worker, and a SIGKILLed supervisor takes its workers along."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import alive
from seog import cores
from seog.api import workers

pytestmark = pytest.mark.skipif(not workers.SPREADS or not Path("/proc/self/task").is_dir(),
                                reason="connections are spread by SO_REUSEPORT on Linux; the test reads /proc")

# two walls, a dead white stone at C7: Japanese, komi 6.5, W+13.5
BOARD = json.dumps({"board": [".X.XO.O.O", "XXXXOOOOO", ".XOXO...."] + ["...XO...."] * 6,
                    "rules": "japanese", "komi": 6.5}).encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found.update(int(p) for p in (task / "children").read_text().split())
        except OSError:
            pass
    return found


def workers_of(pid: int) -> set[int]:
    """The supervisor's worker processes (multiprocessing's resource tracker is a child too)."""
    return {c for c in children(pid) if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()}


def socket_inodes(pid: int) -> set[int]:
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[8:-1]))
    return inodes


def listening(port: int) -> int:
    """How many sockets listen on ``port`` (one per worker slot)."""
    rows = [line.split() for line in Path("/proc/net/tcp").read_text().splitlines()[1:]]
    return sum(1 for f in rows if int(f[1].split(":")[1], 16) == port and f[3] == "0A")


def server_side_inodes(port: int, client_ports: set[int]) -> set[int]:
    """The inodes of the server's ends of the connections from ``client_ports`` to ``port``."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote = int(fields[1].split(":")[1], 16), int(fields[2].split(":")[1], 16)
        if local == port and remote in client_ports:
            found.add(int(fields[9]))
    return found


@pytest.fixture
def serve():
    started = []

    def start(count: int) -> tuple[subprocess.Popen, int]:
        port = free_port()
        proc = subprocess.Popen([sys.executable, "-m", "seog", "serve", "--port", str(port), "--log-level", "info",
                                 "--workers", str(count)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                start_new_session=True)  # a group of its own, ended whole
        started.append(proc)
        deadline = time.monotonic() + 90
        while listening(port) < count:  # each worker listens once it has loaded the model
            if proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(proc.stderr.read1() if proc.poll() is not None else "no listener in 90 s")
            time.sleep(0.1)
        while len(workers_of(proc.pid)) < count:
            time.sleep(0.1)
        return proc, port

    yield start
    for proc in started:
        end_group(proc)


def in_group(group: int) -> list[int]:
    """The running processes of a process group."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and os.getpgid(int(entry.name)) == group and alive(int(entry.name)):
                found.append(int(entry.name))
        except OSError:
            pass
    return found


def end_group(proc: subprocess.Popen) -> None:
    """SIGKILL a server started in a session of its own, and its workers with it."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    deadline = time.monotonic() + 10
    while in_group(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not in_group(proc.pid)


def test_kept_alive_connections_are_spread_over_both_workers_and_sigterm_ends_them_all(serve):
    proc, port = serve(2)
    pids = workers_of(proc.pid)
    assert len(pids) == 2
    conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(32)]
    for conn in conns:  # a burst of connections, as kept-alive clients open them
        conn.connect()
    for _ in range(3):
        for conn in conns:
            conn.request("POST", "/v1/score", body=BOARD, headers={"Content-Type": "application/json"})
            answer = conn.getresponse()
            assert answer.status == 200 and json.loads(answer.read())["result"] == "W+13.5"
    client_ports = {conn.sock.getsockname()[1] for conn in conns}
    ends = server_side_inodes(port, client_ports)
    assert len(ends) == 32
    owned = {pid: len(socket_inodes(pid) & ends) for pid in pids}
    # spread by a hash, a worker gets 4 or fewer of 32 once in 50,000 runs; on one shared socket
    # the first worker to wake took all 32
    assert sum(owned.values()) == 32 and min(owned.values()) >= 5, owned
    for conn in conns:
        conn.close()

    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=15)  # only against a hang: benchmarks/bench_soak.py times the shutdown
    assert proc.returncode == 0
    time.sleep(0.2)
    assert not [pid for pid in pids if Path(f"/proc/{pid}").exists()
                and "Z" not in Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]]
    with pytest.raises(OSError):
        socket.create_connection(("127.0.0.1", port), timeout=2).close()


def test_workers_end_when_their_supervisor_is_sigkilled_and_the_port_is_free_again(serve):
    """kill -9 of the supervisor left its workers answering on the port, and the next ``seog serve``
    there failed ("Address already in use"): each worker asks for SIGTERM when its parent dies."""
    proc, port = serve(2)
    pids = workers_of(proc.pid)
    assert len(pids) == 2
    proc.kill()
    proc.wait()
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in pids if alive(pid)]
    assert listening(port) == 0
    with socket.socket() as again:  # no SO_REUSEADDR nor SO_REUSEPORT: refused while anything holds the port
        again.bind(("127.0.0.1", port))
        again.listen()


def test_a_worker_whose_supervisor_is_gone_before_it_looks_ends_itself():
    """A supervisor killed while its worker was still starting is gone before the worker asks the
    kernel for a signal on its death: the worker sees another parent and ends at once."""
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", "import os, time\nfrom seog.api import workers\n"
                           "workers.end_with(os.getppid() + 1)\ntime.sleep(60)"], timeout=30)
    assert done.returncode == -signal.SIGTERM and time.monotonic() - started < 20


def threads_of(pid: int) -> int:
    return len(list(Path(f"/proc/{pid}/task").iterdir()))


def test_a_burst_of_clients_is_scored_on_the_scoring_threads_alone(serve):
    """64 requests at once: each worker runs its counts on as many threads as it has cores and reads
    every request on its event loop. A check of a request written as a plain function would run in
    a thread of FastAPI's own pool, up to 40 of them made and ended as the load comes and goes,
    the counts on any of them, each with a scoring workspace of its own: the worker's memory
    creeps up."""
    proc, port = serve(2)
    pids = workers_of(proc.pid)
    before = {pid: threads_of(pid) for pid in pids}
    conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for _ in range(64)]
    for _ in range(2):
        for conn in conns:  # all 64 sent before any answer is read
            conn.request("POST", "/v1/score", body=BOARD, headers={"Content-Type": "application/json"})
        for conn in conns:
            answer = conn.getresponse()
            assert answer.status == 200 and json.loads(answer.read())["result"] == "W+13.5"
    after = {pid: threads_of(pid) for pid in pids}
    for conn in conns:
        conn.close()
    assert all(after[pid] <= before[pid] + cores() for pid in pids), (before, after)


def test_a_worker_that_dies_is_replaced_and_serves_on_its_socket(serve):
    proc, port = serve(2)
    before = workers_of(proc.pid)
    victim = min(before)
    os.kill(victim, signal.SIGKILL)
    deadline, after = time.monotonic() + 60, before
    while time.monotonic() < deadline and (len(after) < 2 or victim in after):
        time.sleep(0.2)
        after = workers_of(proc.pid)
    assert victim not in after and len(after) == 2
    # connections hashed to the dead worker's socket wait for its successor: every one is answered
    conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=60) for _ in range(16)]
    for conn in conns:
        conn.request("POST", "/v1/score", body=BOARD, headers={"Content-Type": "application/json"})
        assert conn.getresponse().status == 200
    ends = server_side_inodes(port, {conn.sock.getsockname()[1] for conn in conns})
    assert all(socket_inodes(pid) & ends for pid in after)
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=15)
    assert f"Child process [{victim}] died" in proc.stderr.read().decode()


def test_a_port_in_use_is_refused_not_joined(serve):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "seog", "serve", "--port", str(port), "--workers", "2"],
                              capture_output=True, text=True, timeout=60)
    assert done.returncode != 0 and "in use" in done.stderr


def test_the_slot_sockets_are_tcp_ones_that_asyncio_sets_nodelay_on():
    """asyncio sets TCP_NODELAY only on a connection accepted from a socket of protocol 6; on
    uvicorn's protocol-0 socket each kept-alive answer waited ~40 ms for a delayed ACK."""
    import asyncio.base_events

    slots = workers.bind_slots("127.0.0.1", 0, 2)
    try:
        assert len({s.getsockname() for s in slots}) == 1
        for s in slots:
            s.listen()
        with socket.create_connection(slots[0].getsockname()):
            for s in slots:
                s.setblocking(False)
            conn = None
            deadline = time.monotonic() + 5
            while conn is None and time.monotonic() < deadline:
                for s in slots:
                    try:
                        conn, _ = s.accept()
                        break
                    except BlockingIOError:
                        pass
            assert conn is not None and conn.proto == socket.IPPROTO_TCP
            with conn:
                asyncio.base_events._set_nodelay(conn)
                assert conn.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
    finally:
        for s in slots:
            s.close()


ARENAS_AFTER_EIGHT_THREADS = """
import ctypes, sys, threading
from seog import cores
from seog.api import workers
if sys.argv[1] == "flat":
    workers.keep_memory_flat()
together = threading.Barrier(8)
def churn():
    blocks = [ctypes.create_string_buffer(4096) for _ in range(64)]
    together.wait()  # all eight threads alive, each holding its memory
    del blocks
threads = [threading.Thread(target=churn) for _ in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
libc = ctypes.CDLL("libc.so.6")
libc.malloc_info(0, ctypes.c_void_p.in_dll(libc, "stdout"))
libc.fflush(None)
print(sorted(t.name for t in threading.enumerate()))
"""


@pytest.mark.skipif(workers._glibc() is None, reason="glibc's malloc arenas")
def test_a_worker_keeps_its_malloc_arenas_few_and_trims_them():
    """Eight threads allocating at once get about eight malloc arenas, whose holes made a worker's
    RSS creep up; ``keep_memory_flat`` caps them at ``ARENAS`` and starts the trimming thread."""
    env = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}

    def arenas(mode: str) -> tuple[int, str]:
        out = subprocess.run([sys.executable, "-c", ARENAS_AFTER_EIGHT_THREADS, mode], capture_output=True,
                             text=True, timeout=60, env=env, check=True).stdout
        return out.count("<heap nr="), out.strip().splitlines()[-1]

    plain, threads = arenas("plain")
    assert plain > workers.ARENAS and "malloc-trim" not in threads
    flat, threads = arenas("flat")
    assert flat <= workers.ARENAS and "malloc-trim" in threads
