"""A child of the server (`daemon`): forked warm, it waits for the one call the server hands it, becomes
its caller (working folder, umask, environment, standard streams), runs it with the function a call
without a server runs (`launch.run_one_plan`), answers the exit code, and ends. Signals the caller gets
are passed on to it; a caller that goes away ends it; so does a server that ends before a call came.
"""

from __future__ import annotations

import codecs
import io
import marshal
import os
import signal
import socket
import sys
import threading
import time
from typing import Any, NoReturn

from .. import launch
from ..cli import INTERRUPTED
from ..launch import one_plan_call, served_call
from . import HEADER, MAX_REQUEST, decode, peer_uid
from .client import FORWARDED


def fingerprint(paths: list[str]) -> tuple:
    """Of each of `paths` (`daemon.sources`), None if it is gone: its modification time, and for a
    folder the names of its modules, encodings and subfolders (a file added or removed: not the bytecode
    Python writes beside them, nor an editor's files), for a file its size. Taken when the server starts;
    `changed` compares with it."""
    out: list[tuple | None] = []
    for p in paths:
        try:
            st = os.stat(p)
            out.append((st.st_mtime_ns, _names(p) if os.path.isdir(p) else st.st_size))
        except OSError:
            out.append(None)
    return tuple(out)


def changed(paths: list[str], code: tuple) -> bool:
    """Whether `paths` no longer have the fingerprint `code`: a stat each, and a folder whose time moved
    listed again (a new `__pycache__` moves it, and changes nothing)."""
    for p, was in zip(paths, code):
        try:
            st = os.stat(p)
        except OSError:
            if was is not None:
                return True
            continue
        if was is None:
            return True
        mtime, what = was
        if isinstance(what, tuple):
            if st.st_mtime_ns != mtime and _names(p) != what:
                return True
        elif (st.st_mtime_ns, st.st_size) != (mtime, what):
            return True
    return False


def _names(folder: str) -> tuple[str, ...]:
    with os.scandir(folder) as entries:
        return tuple(sorted(e.name for e in entries
                            if e.name.endswith(SOURCE_SUFFIXES) or e.name != "__pycache__" and e.is_dir()))


#: What the server's code is read from: our modules and encodings.
SOURCE_SUFFIXES = (".py", ".lp")


#: A call that took longer (seconds) is not one to warm the next children with; the caller's
#: AMLASP_WARM_CALL sets another (a loaded machine's tests).
WARM_CALL = 0.5


def _warm_call() -> float:
    try:
        return max(0.0, float(os.environ.get("AMLASP_WARM_CALL", WARM_CALL)))
    except ValueError:
        return WARM_CALL
#: Seconds a child may take to warm itself on the last call's files, and its exit status past them
#: (the server then warms no more children on those files).
WARM_SECONDS, WARM_TIMEOUT = 2.0, 3


def wait_for_call(link: socket.socket, server: int, paths: list[str], code: tuple, recent: tuple[str, str] | None
                  ) -> NoReturn:
    """Warm this child's own memory (on `recent` too: the domain and problem of the server's last short
    call), say so on `link`, and take the call the server (pid `server`) sends on it (none: the server
    ended); run it unless amlasp changed under the server (`changed(paths, code)`):
    then the caller runs it itself, and the server is told to end."""
    for s in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)  # writes to the caller's terminal from outside its foreground
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    warm_up(recent)
    try:
        link.sendall(b"r")
        _, fds, _, _ = socket.recv_fds(link, 1, 1)
    except OSError:  # the server ended meanwhile
        os._exit(1)
    if len(fds) != 1:
        os._exit(1)
    conn = socket.socket(fileno=fds[0])
    conn.settimeout(5)  # a caller that connects and says nothing does not keep the child
    if peer_uid(conn) != os.getuid():
        os._exit(1)
    request, streams = read_request(conn)
    if changed(paths, code):
        _send(conn, b"F")
        if os.getppid() == server:  # not whoever adopted this child if the server is gone
            os.kill(server, signal.SIGTERM)
        os._exit(1)
    conn.settimeout(None)
    run(conn, request, streams, link)


def read_request(sock: socket.socket) -> tuple[dict, list[int]]:
    """A call's request and the three descriptors sent with it; ValueError (the descriptors closed) for
    one that is malformed or larger than MAX_REQUEST."""
    data, fds, _, _ = socket.recv_fds(sock, HEADER.size, 3)
    try:
        data += _exactly(sock, HEADER.size - len(data))
        size = HEADER.unpack(data)[0]
        if size > MAX_REQUEST:
            raise ValueError(f"request of {size} bytes, above {MAX_REQUEST}")
        return decode(_exactly(sock, size)), fds
    except (ValueError, OSError):
        for fd in fds:
            os.close(fd)
        raise ValueError("malformed request") from None


def _exactly(sock: socket.socket, n: int) -> bytes:
    chunks = []
    while n > 0:
        chunk = sock.recv(min(n, 1 << 16))
        if not chunk:
            raise ValueError("the request ended early")
        chunks.append(chunk)
        n -= len(chunk)
    return b"".join(chunks)


def run(conn: socket.socket, request: dict, fds: list[int], link: socket.socket) -> NoReturn:
    """Run the call as its caller would have, answer its exit code, tell the server (`link`) the call's
    domain and problem if it was short, and end (without the server's clean-up: the socket is the
    server's)."""
    try:
        argv = _take(request, fds)
    except Exception:  # declined: the caller runs the call itself, having written nothing
        _send(conn, b"F")
        os._exit(1)
    _send(conn, b"S")
    threading.Thread(target=_watch, args=(conn,), daemon=True).start()
    started = time.monotonic()
    try:
        code = launch.run(argv)
    except KeyboardInterrupt:
        code = INTERRUPTED
    call = one_plan_call(argv)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    short = call is not None and code in (0, 1) and time.monotonic() - started < _warm_call()
    if short:  # a one-plan call's files, told before the caller is answered (its end ends us)
        assert call is not None
        _send(link, marshal.dumps((os.path.abspath(call[0]), os.path.abspath(call[1]))))
    _send(conn, f"X{code if isinstance(code, int) else 1}\n".encode())
    os._exit(0)


#: What Python, Typer and rich read from the environment once, when they start or are imported (Typer's
#: help and tracebacks, rich's colours, the hash seed, the warnings): a caller whose values differ from the
#: server's runs its call itself.
READ_AT_START = ("PYTHONHASHSEED", "PYTHONWARNINGS", "TYPER_USE_RICH", "TERMINAL_WIDTH",
                 "_TYPER_FORCE_DISABLE_TERMINAL", "GITHUB_ACTIONS", "FORCE_COLOR", "PY_COLORS",
                 "TYPER_STANDARD_TRACEBACK", "_TYPER_STANDARD_TRACEBACK")


def _take(request: dict, fds: list[int]) -> list[str]:
    """Become the caller: its working folder, umask, environment, arguments and standard streams; its
    arguments (`amlasp ARGS`)."""
    argv, cwd, env, umask, specs = (request.get(k) for k in ("argv", "cwd", "env", "umask", "streams"))
    servable = isinstance(argv, list) and all(isinstance(a, str) for a in argv) and served_call(argv)
    if (not servable or not isinstance(cwd, str) or not isinstance(env, dict) or not isinstance(umask, int)
            or not 0 <= umask <= 0o777 or not isinstance(specs, list) or len(specs) != 3 or len(fds) != 3
            or not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())):
        raise ValueError("not a call the server runs")
    if any(env.get(k) != os.environ.get(k) for k in READ_AT_START):
        raise ValueError("an environment the server's modules were not imported in")
    os.chdir(cwd)
    os.umask(umask)
    os.environ.clear()
    os.environ.update(env)
    for fd, mine in enumerate(fds):
        os.dup2(mine, fd)
    streams: list[Any] = [_stream(fd, spec) for fd, spec in enumerate(specs)]
    sys.stdin, sys.stdout, sys.stderr = streams
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = streams  # type: ignore[misc]
    sys.argv = ["amlasp"] + list(argv or ())
    return list(argv or ())


def _stream(fd: int, spec: Any) -> Any:
    """The caller's `sys.stdin`/`stdout`/`stderr` on descriptor `fd`, made as Python made the caller's:
    its encoding and errors, line buffering, write-through, and a binary buffer unless it had none."""
    if spec is None:
        return None
    encoding, errors, line_buffering, write_through, buffered = spec
    codecs.lookup(encoding)
    codecs.lookup_error(errors)
    raw = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
    binary: Any = raw if not buffered else io.BufferedReader(raw) if fd == 0 else io.BufferedWriter(raw)
    return io.TextIOWrapper(binary, encoding=encoding, errors=errors, newline="\n",
                            line_buffering=bool(line_buffering), write_through=bool(write_through))


def _watch(conn: socket.socket) -> None:
    """Signals from the caller, as bytes; the caller gone (end of the connection): the child too."""
    while True:
        try:
            b = conn.recv(1)
        except OSError:
            b = b""
        if not b:  # the caller went away (it read the exit code, or it was killed): nobody to answer
            os._exit(0)
        if b[0] in FORWARDED:  # SIGINT raises KeyboardInterrupt (exit 130); the others end the child
            os.kill(os.getpid(), b[0])


def _send(conn: socket.socket, data: bytes) -> None:
    try:
        conn.sendall(data)
    except OSError:
        pass


def warm_up(recent: tuple[str, str] | None = None) -> None:
    """Import and run once what a call needs, so that a child starts warm (`validating.warm`: the model,
    the parser, the engine and its encodings, the renderers and rich; Typer and the modules of the commands
    served); and validate the empty plan twice
    on `recent` (a domain and problem, read again), so that a call on them finds their compiled rules and
    clingo's parse of them kept (asp/run.py), as a process's third call does."""
    from ..cli import validating
    from ..cli.group import load_commands
    from ..launch import SERVED
    from ..reasoning import cheapest, planning  # noqa: F401 (`plan`'s modules, and Fast Downward's runner)
    validating.warm(_DOMAIN, _PROBLEM, "(flip a b)\n")
    load_commands(sorted(SERVED))  # Typer's app with the commands served (their Typer path: options, --help)
    if recent is not None:
        _warm_on(*recent)


def _warm_on(domain: str, problem: str) -> None:
    """Validate the empty plan twice on these files, quietly: if they changed or went, nothing is lost."""
    import warnings

    from ..pddl.parse import load_domain, load_problem
    from ..reasoning import engine
    signal.signal(signal.SIGALRM, lambda *_: os._exit(WARM_TIMEOUT))  # the files changed into a long task
    signal.setitimer(signal.ITIMER_REAL, WARM_SECONDS)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            d = load_domain(domain)
            p = load_problem(problem, d)
            for _ in range(2):
                engine.execute(d, p, [], states=False)
    except Exception:
        pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, signal.SIG_DFL)


_DOMAIN = """(define (domain warm) (:requirements :strips :typing :negative-preconditions :equality
  :conditional-effects :universal-preconditions)
  (:types thing) (:predicates (on ?x - thing) (near ?x ?y - thing))
  (:action flip :parameters (?x ?y - thing) :precondition (and (not (on ?x)) (not (= ?x ?y)) (near ?x ?y))
   :effect (and (on ?x) (not (near ?x ?y)) (forall (?z - thing) (when (on ?z) (near ?z ?x))))))"""
_PROBLEM = """(define (problem w) (:domain warm) (:objects a b - thing) (:init (near a b))
  (:goal (and (on a) (not (near a b)))))"""



__all__ = ["SOURCE_SUFFIXES", "WARM_CALL", "WARM_SECONDS", "WARM_TIMEOUT", "changed", "fingerprint", "read_request",
           "run", "wait_for_call", "warm_up"]
