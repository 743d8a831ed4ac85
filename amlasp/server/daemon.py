"""The server (`amlasp server start` runs `python -m amlasp.server.daemon`): warm once, then fork a child
per one-plan call, which takes the caller's working folder, environment and standard streams and runs
`launch.run_one_plan` as the caller would have.

One server per Python and amlasp (`address`), held by a lock file; it ends after `--idle` seconds
without a call, on `amlasp server stop` or SIGTERM, and as soon as amlasp's own files change under it
(a stale server declines the call it was given, which then runs in its caller). A child ends with its
caller: a signal the caller gets is passed on, and a caller that goes away kills it.
"""

from __future__ import annotations

import argparse
import codecs
import fcntl
import gc
import os
import select
import signal
import socket
import sys
import threading
import time
from pathlib import Path
from typing import Any, NoReturn

from ..launch import one_plan_call, run_one_plan
from . import HEADER, MAX_REQUEST, address, control_address, decode, peer_uid, private, runtime_dir
from .client import FORWARDED

#: Children waiting for a call: as many as calls that may arrive at once on this machine.
POOL = max(2, os.cpu_count() or 1)
#: Children in a row that end without answering a call (declined, or broken) before the server gives up.
MAX_FAILURES = 100
PACKAGE = Path(__file__).resolve().parent.parent


def sources(root: Path = PACKAGE) -> list[str]:
    """What the server's code is read from: our folders (a file added or removed changes one), modules
    and encodings, and clingo's module."""
    import clingo
    out = [str(root), clingo.__file__ or ""]
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        out += [os.path.join(folder, d) for d in dirs]
        out += [os.path.join(folder, f) for f in files if f.endswith((".py", ".lp"))]
    return out


def fingerprint(paths: list[str]) -> tuple:
    """Size and modification time of each of `paths` (None for one gone): a server whose sources'
    fingerprint changed is stale."""
    out: list[tuple[int, int] | None] = []
    for p in paths:
        try:
            st = os.stat(p)
            out.append((st.st_size, st.st_mtime_ns))
        except OSError:
            out.append(None)
    return tuple(out)


class Server:
    """The sockets (calls; `status` and `stop`), the lock that makes this server the only one, and the
    children: forked ahead and warmed, each waits for one call, runs it and ends (a new one takes its
    place), so that a call pays for neither the fork nor the first touch of the server's memory."""

    def __init__(self, idle: float, folder: str, pool: int = POOL):
        self.idle, self.pool, self.path = idle, pool, address(folder)
        self.control_path = control_address(folder)
        self.children: set[int] = set()
        self.started, self.served, self.failures = time.time(), 0, 0
        self.lock = os.open(self.path[:-len(".sock")] + ".lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise SystemExit(f"amlasp server: another server holds {self.path}") from None
        self.sources = sources()
        self.code = fingerprint(self.sources)
        self.listener, self.control = _listen(self.path), _listen(self.control_path)
        self.inodes = {p: os.stat(p).st_ino for p in (self.path, self.control_path)}

    def serve(self) -> None:
        """Keep the children ready and answer `status` and `stop`, until idle, stopped or stale (a child
        that finds the code changed ends the server with SIGTERM)."""
        wake, waker = os.pipe()
        os.set_blocking(waker, False)
        signal.set_wakeup_fd(waker)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # a child ended: wakes the select below
        deadline = time.monotonic() + self.idle
        while True:
            answered, failed = self._reap()
            if answered:
                deadline = time.monotonic() + self.idle
            self.failures = 0 if answered else self.failures + failed
            if self.failures > MAX_FAILURES:  # children that cannot take a call: not a server to keep
                raise SystemExit(f"amlasp server: {self.failures} children in a row ended without a call")
            while len(self.children) < self.pool:
                self._fork()
            waits: list[Any] = [self.control, wake]
            ready, _, _ = select.select(waits, [], [], max(0.0, deadline - time.monotonic()))
            if wake in ready:
                os.read(wake, 512)
            elif not ready and time.monotonic() >= deadline:
                return
            if self.control in ready and not self._control():
                return

    def close(self) -> None:
        """Remove the sockets (if they are still ours), let the lock go, and end the children waiting for a
        call; one running a call finishes it."""
        for path, inode in self.inodes.items():
            try:
                if os.stat(path).st_ino == inode:
                    os.unlink(path)
            except OSError:
                pass
        self.listener.close()
        self.control.close()
        for pid in self.children:
            try:
                os.kill(pid, signal.SIGUSR1)
            except OSError:
                pass
        os.close(self.lock)

    def status(self) -> dict[str, Any]:
        from .. import __version__
        return {"pid": os.getpid(), "socket": self.path, "version": __version__, "python": sys.executable,
                "package": str(PACKAGE), "started": self.started, "idle": self.idle, "served": self.served}

    def _control(self) -> bool:
        """A `status` or `stop` request (the word, then the end of the connection); False to end the server."""
        try:
            conn, _ = self.control.accept()
        except OSError:
            return True
        with conn:
            conn.settimeout(5)
            if peer_uid(conn) != os.getuid():
                return True
            try:
                op = b""
                while len(op) <= 6 and (chunk := conn.recv(16)):
                    op += chunk
                if op not in (b"status", b"stop"):
                    return True
                conn.sendall((_json(self.status()) + "\n").encode())
            except OSError:
                return True
            return op != b"stop"

    def _fork(self) -> None:
        pid = os.fork()
        if pid == 0:
            try:
                self.control.close()
                os.close(self.lock)
                _wait_for_call(self.listener, self.sources, self.code)
            except BaseException:  # into the server's log (`amlasp server start` shows it if it cannot start)
                import traceback
                traceback.print_exc()
            os._exit(1)
        self.children.add(pid)

    def _reap(self) -> tuple[bool, int]:
        """Forget the children that ended: whether one of them answered a call, and how many did not."""
        answered, failed = False, 0
        for pid in list(self.children):
            try:
                done, status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                done, status = pid, 1
            if done:
                self.children.discard(pid)
                if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
                    self.served += 1
                    answered = True
                else:
                    failed += 1
        return answered, failed


def _listen(path: str) -> socket.socket:
    try:
        os.unlink(path)  # left by a server that did not end cleanly: the lock is ours
    except FileNotFoundError:
        pass
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(path)
    sock.listen(64)
    return sock


def _wait_for_call(listener: socket.socket, paths: list[str], code: tuple) -> None:
    """A child: warm its own memory, wait for one call, run it (exit 0) unless the server is stale."""
    for s in (signal.SIGCHLD, signal.SIGTERM, signal.SIGHUP):
        signal.signal(s, signal.SIG_DFL)
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGUSR1, lambda *_: os._exit(1))  # the server ended: no call will come
    signal.signal(signal.SIGINT, signal.default_int_handler)
    warm_up()
    conn, _ = listener.accept()
    signal.signal(signal.SIGUSR1, signal.SIG_IGN)  # a call taken is finished
    listener.close()
    conn.settimeout(5)
    if peer_uid(conn) != os.getuid():
        os._exit(1)
    request, fds = read_request(conn)
    if fingerprint(paths) != code:  # amlasp changed under the server: the caller runs the call itself
        _send(conn, b"F")
        os.kill(os.getppid(), signal.SIGTERM)
        os._exit(1)
    conn.settimeout(None)
    _child(conn, request, fds)


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


def _child(conn: socket.socket, request: dict, fds: list[int]) -> NoReturn:
    """Run the call as its caller would have, answer its exit code, and end (without the server's
    clean-up: the socket is the server's)."""
    try:
        call = _take(request, fds)
    except Exception:  # declined: the caller runs the call itself, having written nothing
        _send(conn, b"F")
        os._exit(1)
    _send(conn, b"S")
    threading.Thread(target=_watch, args=(conn,), daemon=True).start()
    try:
        code = run_one_plan(call)
    except KeyboardInterrupt:
        code = 130
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError, AttributeError):
            pass
    _send(conn, f"X{code if isinstance(code, int) else 1}\n".encode())
    os._exit(0)


def _take(request: dict, fds: list[int]) -> Any:
    """Become the caller: its working folder, umask, environment, arguments and standard streams."""
    argv, cwd, env, umask, specs = (request.get(k) for k in ("argv", "cwd", "env", "umask", "streams"))
    call = one_plan_call(argv) if isinstance(argv, list) and all(isinstance(a, str) for a in argv) else None
    if (call is None or not isinstance(cwd, str) or not isinstance(env, dict) or not isinstance(umask, int)
            or not 0 <= umask <= 0o777 or not isinstance(specs, list) or len(specs) != 3 or len(fds) != 3
            or not all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())):
        raise ValueError("not a one-plan call")
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
    return call


def _stream(fd: int, spec: Any) -> Any:
    """The caller's `sys.stdin`/`stdout`/`stderr` on descriptor `fd`: its encoding, errors and buffering."""
    if spec is None:
        return None
    encoding, errors, line_buffering, write_through = spec
    codecs.lookup(encoding)
    codecs.lookup_error(errors)
    f = open(fd, "r" if fd == 0 else "w", encoding=encoding, errors=errors, closefd=False)
    f.reconfigure(line_buffering=bool(line_buffering), write_through=bool(write_through))
    return f


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


def _json(value: Any) -> str:
    import json
    return json.dumps(value)


def warm_up() -> None:
    """Import and run once what a call needs, so that a child starts warm: the model, the parser,
    the engine and its encodings, the renderers and rich (a terminal's output)."""
    import io

    import clingo.ast  # noqa: F401 (the compiled rules of a domain are parsed with it)
    from rich.console import Console

    from ..cli import validating  # noqa: F401
    from ..pddl.parse import parse_domain, parse_problem
    from ..pddl.plans import parse_plan
    from ..reasoning import engine
    from ..render import reasoning as present
    from ..render.formats import to_json
    from ..render.output import _plain
    d = parse_domain(_DOMAIN, "warm-up")
    p = parse_problem(_PROBLEM, d, "warm-up")
    ex = engine.execute(d, p, parse_plan("(flip a b)\n", d, p, "warm-up"), states=False)
    lines = present.validate_lines(ex)
    to_json(present.execution_json(ex, states=False))
    _plain(lines)
    c = Console(file=io.StringIO(), force_terminal=True, width=80, highlight=False, soft_wrap=False)
    for line in lines:
        c.print(line)


_DOMAIN = """(define (domain warm) (:requirements :strips :typing :negative-preconditions :equality
  :conditional-effects :universal-preconditions)
  (:types thing) (:predicates (on ?x - thing) (near ?x ?y - thing))
  (:action flip :parameters (?x ?y - thing) :precondition (and (not (on ?x)) (not (= ?x ?y)) (near ?x ?y))
   :effect (and (on ?x) (not (near ?x ?y)) (forall (?z - thing) (when (on ?z) (near ?z ?x))))))"""
_PROBLEM = """(define (problem w) (:domain warm) (:objects a b - thing) (:init (near a b))
  (:goal (and (on a) (not (near a b)))))"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="amlasp server")
    parser.add_argument("--idle", type=float, default=900.0, help="seconds without a call before the server ends")
    args = parser.parse_args(argv)
    folder = runtime_dir()
    os.makedirs(folder, mode=0o700, exist_ok=True)
    if not private(folder):
        raise SystemExit(f"amlasp server: {folder} is not a folder of yours that only you may enter (mode 700)")
    warm_up()
    server = Server(args.idle, folder)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    gc.freeze()  # what the warm-up made stays shared with the children, not copied on their first collection
    try:
        server.serve()
    finally:
        server.close()


if __name__ == "__main__":
    main()

__all__ = ["POOL", "Server", "fingerprint", "main", "sources", "warm_up"]
