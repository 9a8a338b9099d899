"""Talking to an external GTP engine: start it as a subprocess, send a command, read its reply.

A reader thread moves the engine's stdout lines into a queue, so every command can wait with a
timeout; a second thread keeps the last lines of stderr to explain a crash. Failures are
``EngineError`` (a ValueError): ``EngineRefused`` for a ``?`` reply, ``EngineTimeout`` when no
reply came in time, ``EngineDied`` when the process exited or its pipe closed.
"""

from __future__ import annotations

import collections
import os
import queue
import shlex
import subprocess
import threading
import time
from typing import Self

DEFAULT_TIMEOUT = 30.0
_EOF = object()


class EngineError(ValueError):
    """An engine that could not be started, or failed to answer a command properly."""


class EngineRefused(EngineError):
    """The engine answered ``? message``; ``message`` holds its text."""

    def __init__(self, command: str, message: str, engine: str = "engine") -> None:
        super().__init__(f"{engine} refused {command!r}: {message}")
        self.message = message


class EngineTimeout(EngineError):
    """No complete reply within the timeout."""


class EngineDied(EngineError):
    """The process exited, or closed its output, before answering."""


def parse_reply(lines: list[str]) -> tuple[bool, str]:
    """(success, text) of one GTP reply given its lines (the blank terminator excluded).

    The first line starts with ``=`` or ``?``, optionally followed by the command id.
    """
    head = lines[0]
    ok = head[0] == "="
    rest = head[1:]
    i = 0
    while i < len(rest) and rest[i].isdigit():
        i += 1
    first = rest[i:].strip()
    text = "\n".join([first] + [ln.rstrip() for ln in lines[1:]]).strip()
    return ok, text


class GtpEngine:
    """One running GTP engine. ``send(command)`` returns the reply text or raises ``EngineError``.

    ``command`` is a shell-like string (split with ``shlex``, no shell is involved) or an argv
    list; ``label`` names the engine in error messages.
    """

    def __init__(self, command: str | list[str], *, label: str | None = None,
                 timeout: float = DEFAULT_TIMEOUT, cwd: str | None = None) -> None:
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise EngineError("empty engine command")
        self.argv = argv
        self.command = command if isinstance(command, str) else shlex.join(argv)
        self.label = label or os.path.basename(argv[0])
        self.timeout = timeout
        self._next_id = 1
        self._hung = False  # set when a reply did not come in time: quit would hang too
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        try:
            self.process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                cwd=cwd, bufsize=0)
        except OSError as exc:
            raise EngineError(f"{self.label}: cannot start {self.command!r} ({exc.strerror or exc})") from None
        self._lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    # ---- pipes ------------------------------------------------------------------------
    def _read_stdout(self) -> None:
        stream = self.process.stdout
        try:
            for raw in iter(stream.readline, b""):
                self._lines.put(raw.decode("utf-8", "replace").replace("\r", "").rstrip("\n"))
        except (OSError, ValueError):
            pass
        self._lines.put(_EOF)

    def _read_stderr(self) -> None:
        try:
            for raw in iter(self.process.stderr.readline, b""):
                self._stderr_tail.append(raw.decode("utf-8", "replace").rstrip())
        except (OSError, ValueError):
            pass

    def _died(self, command: str) -> EngineDied:
        try:
            code = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        how = "closed its output" if code is None else f"exited with code {code}"
        tail = "; stderr: " + " | ".join(list(self._stderr_tail)[-3:]) if self._stderr_tail else ""
        return EngineDied(f"{self.label} {how} while answering {command!r}{tail}")

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    # ---- commands ---------------------------------------------------------------------
    def send(self, command: str, timeout: float | None = None) -> str:
        """Send one command and return the text of its ``=`` reply.

        Raises EngineRefused for a ``?`` reply, EngineTimeout, or EngineDied.
        """
        timeout = self.timeout if timeout is None else timeout
        command = command.strip()
        if "\n" in command or not command:
            raise ValueError(f"not a single GTP command: {command!r}")
        number = self._next_id
        self._next_id += 1
        try:
            self.process.stdin.write(f"{number} {command}\n".encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise self._died(command) from None
        deadline = time.monotonic() + timeout
        while True:
            lines = self._read_reply(command, deadline, timeout)
            # A reply to an earlier command that timed out is stale: skip it.
            ident = lines[0][1:].split(" ", 1)[0]
            if ident.isdigit() and int(ident) != number:
                continue
            ok, text = parse_reply(lines)
            if not ok:
                raise EngineRefused(command, text, self.label)
            return text

    def _read_reply(self, command: str, deadline: float, timeout: float) -> list[str]:
        lines: list[str] = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                self._hung = True
                raise EngineTimeout(f"{self.label} did not answer {command!r} within {timeout:g} s")
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is _EOF:
                self._lines.put(_EOF)  # later calls see the end too
                raise self._died(command)
            if not lines:
                # Anything before the reply's first line (debug output) is not part of it.
                if line[:1] in ("=", "?"):
                    lines.append(line)
                continue
            if line.strip() == "":
                return lines
            lines.append(line)

    def close(self, grace: float = 2.0) -> None:
        """Ask the engine to quit; kill it if it does not within ``grace`` seconds. An engine that
        did not answer in time is not asked: it is terminated at once."""
        asked = self.alive and not self._hung
        if asked:
            try:
                self.send("quit", timeout=grace)
            except EngineError:
                pass
        for stop in ((None,) if asked else ()) + (self.process.terminate, self.process.kill):
            if stop is not None:
                try:
                    stop()
                except OSError:
                    pass
            try:
                self.process.wait(timeout=grace)
                break
            except subprocess.TimeoutExpired:
                continue
        for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
            try:
                stream.close()
            except (OSError, ValueError):
                pass

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
