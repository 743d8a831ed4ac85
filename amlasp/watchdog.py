"""A time limit that also covers clingo's grounding: the work runs in a child process, which the
caller ends when the limit passes.

clingo's grounder cannot be interrupted (issue 20: a 50,000-predicate `compare` ground for over
300 s past its `--time-limit`), so a time limit kept by the work itself holds only while it solves.
`within` forks; the child does the work and sends its result (or its exception) back through a
pipe; on the way it reports its `stage` ("grounding the search for the best renaming"), which may
also give it more time (`until`: a search that must end by the limit, then the metrics it needs).
When the deadline passes, the child is ended and `TimeLimitReached` says which stage it had reached.

An interrupt of the caller (Ctrl-C, SIGTERM) ends the child too: the child ignores SIGINT (a terminal
sends it to the whole process group: the caller's to handle), and on SIGTERM ends the planners it
started (Fast Downward runs in a session of its own) before it exits; one still in clingo's C code,
where no Python handler runs, is killed after `GRACE` seconds. SIGTERM raises `errors.Interrupted`
(a `KeyboardInterrupt` with `signum`, as bench's run raises) in the caller while it waits, so that
the command line exits 143 (130 for Ctrl-C).

Where a child cannot be forked safely (no `fork`, other threads running, a daemonic worker process,
or already inside a child) the work runs in this process, bounded by its own time checks only.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import struct
import sys
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

from .errors import Interrupted, TimeLimitReached

T = TypeVar("T")

#: Seconds a child is given to end (and end its planners) after SIGTERM, before SIGKILL.
GRACE = 1.0
_HEADER = struct.Struct("!Q")
_STOPS = {signal.SIGINT, signal.SIGTERM}

#: In a child: the pipe to the parent (stage reports and the result).
_pipe: int | None = None
#: In this process, the stage the work reached (for the message when the work runs in this process).
_stage = ""


def stage(text: str, until: float | None = None) -> None:
    """The work has reached `text` (a phrase: "grounding the metrics"); `until` (`time.monotonic()`)
    extends its deadline to then, never shortens it."""
    global _stage
    _stage = text
    if _pipe is not None:
        _send(_pipe, ("stage", text, until))


def finishing(time_limit: float) -> float:
    """The deadline (`time.monotonic()`) of what work does once its search has ended within
    `time_limit` (the metrics under the renaming found, the check of the plans found): a quarter of
    the limit more, at least 5 s, for a grounding about as large as the search's."""
    return time.monotonic() + max(5.0, time_limit / 4)


def forkable() -> bool:
    """Whether `within` can run work in a child here."""
    if _pipe is not None or not hasattr(os, "fork") or not hasattr(signal, "pthread_sigmask") \
            or threading.active_count() > 1:
        return False
    mp = sys.modules.get("multiprocessing")  # a pool's daemonic worker must not leave an orphan behind
    return mp is None or not mp.current_process().daemon


def within(seconds: float, what: str, fn: Callable[..., T], *args, grace: float = 0.0, since: float | None = None,
           **kwargs) -> T:
    """`fn(*args, **kwargs)`, ended after `seconds` and `grace` more (for work that stops by the
    limit on its own), or at the later deadline its stages ask for, with `TimeLimitReached` ("<what>:
    the time limit of S s was reached while <stage>"). Its exception, if it raises one, is raised here.
    `since` (`time.monotonic()`): the limit counts from then (work already done towards it)."""
    if not forkable():
        return fn(*args, **kwargs)
    start = time.monotonic() if since is None else since
    old = _on_sigterm()  # before the fork: a SIGTERM between the two must not leave the child behind
    try:
        read, write = os.pipe()
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)  # held until each side is ready for them
        pid = os.fork()
        if pid == 0:  # the child: never returns
            _child(read, write, fn, args, kwargs)
        os.close(write)
        try:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
            return _wait(pid, read, start + seconds + grace, seconds, what, start)
        finally:
            os.close(read)
            _end(pid)
    finally:
        if old is not None:
            signal.signal(signal.SIGTERM, old)


def _child(read: int, write: int, fn: Callable, args: tuple, kwargs: dict) -> None:
    global _pipe
    code = 0
    try:
        os.close(read)
        _pipe = write
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, _stop)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
        try:
            out: tuple = ("done", fn(*args, **kwargs))
        except BaseException as e:  # noqa: BLE001 — the parent raises it
            out = ("error", e)
        try:
            _send(write, out)
        except Exception as e:  # an unpicklable result or exception: its text
            _send(write, ("error", RuntimeError(f"{type(e).__name__}: {e}")))
    except BaseException:  # noqa: BLE001 — the pipe is gone: the parent has stopped waiting
        code = 1
    finally:
        os._exit(code)


def _stop(signum, frame) -> None:
    """The child's SIGTERM: its planners first (if any were started), then out."""
    if "amlasp.external.fast_downward" in sys.modules:
        sys.modules["amlasp.external.fast_downward"].stop_planners()
    os._exit(128 + signum)


def _send(fd: int, message: tuple) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    data = _HEADER.pack(len(data)) + data
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _recv(fd: int) -> tuple | None:
    """A whole message, or None when the child closed the pipe (it ended)."""
    head = _read(fd, _HEADER.size)
    if head is None:
        return None
    body = _read(fd, _HEADER.unpack(head)[0])
    return None if body is None else pickle.loads(body)


def _read(fd: int, n: int) -> bytes | None:
    parts, left = [], n
    while left:
        chunk = os.read(fd, min(left, 1 << 20))
        if not chunk:
            return None
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def _wait(pid: int, fd: int, deadline: float, seconds: float, what: str, start: float):
    """The child's result; its stages extend `deadline`."""
    reached = "starting"
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeLimitReached(f"{what}: the time limit of {seconds:g} s was reached while {reached} "
                                   f"(stopped after {time.monotonic() - start:.1f} s)")
        ready, _, _ = select.select([fd], [], [], min(left, 1.0))
        if not ready:
            continue
        message = _recv(fd)
        if message is None:
            raise RuntimeError(f"the worker process ended without an answer ({_status(pid)}) while {reached}")
        if message[0] == "stage":
            reached = message[1]
            if message[2] is not None:
                deadline = max(deadline, message[2])
        elif message[0] == "error":
            raise message[1]
        else:
            return message[1]


@contextmanager
def sigterm_raises() -> Iterator[None]:
    """SIGTERM raises `errors.Interrupted` inside, as while `within`'s child runs: for work that runs its own
    child processes from this one (Fast Downward), which the `finally` on the way out ends."""
    old = _on_sigterm()
    try:
        yield
    finally:
        if old is not None:
            signal.signal(signal.SIGTERM, old)


def _on_sigterm():
    """Turn SIGTERM into `errors.Interrupted` while the child runs; the previous handler, or None
    outside the main thread (where Python delivers no signals)."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def handler(signum, frame):
        raise Interrupted(signum)

    return signal.signal(signal.SIGTERM, handler)


def _status(pid: int) -> str:
    try:
        done, status = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return "gone"
    if not done:
        return "still running"
    if os.WIFSIGNALED(status):
        return f"killed by signal {os.WTERMSIG(status)}"
    return f"exit code {os.WEXITSTATUS(status)}"


def _end(pid: int) -> None:
    """End the child if it still runs (SIGTERM, then SIGKILL after GRACE) and reap it."""
    try:
        if os.waitpid(pid, os.WNOHANG)[0]:
            return
        os.kill(pid, signal.SIGTERM)
        stop = time.monotonic() + GRACE
        while time.monotonic() < stop:
            if os.waitpid(pid, os.WNOHANG)[0]:
                return
            time.sleep(0.01)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    except (ChildProcessError, ProcessLookupError):
        pass


__all__ = ["within", "stage", "finishing", "forkable", "sigterm_raises", "GRACE"]
