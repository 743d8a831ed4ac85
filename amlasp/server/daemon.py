"""The server (`amlasp server start` runs `python -m amlasp.server.daemon`): warm once, keep children
forked ahead and warm (`child`), and hand each call to one of them.

One server per Python environment and amlasp (`address`), held by a lock file. It accepts the calls
itself and passes each connection to a child waiting on a socket pair of its own: a child never
outlives its server unless it is running a call (the pair's end closes with the server), and the
server knows which children are busy. It ends after `--idle` seconds without a call, on `amlasp server
stop` or SIGTERM, and when a child finds amlasp's files changed under it (stale: that call runs in
its caller).
"""

from __future__ import annotations

import argparse
import fcntl
import gc
import json
import marshal
import os
import select
import signal
import socket
import sys
import time
from typing import Any

from . import PACKAGE, address, peer_uid, private, runtime_dir
from .child import SOURCE_SUFFIXES, WARM_TIMEOUT, fingerprint, wait_for_call, warm_up

#: Children waiting for a call: as many as calls that may arrive at once on this machine.
POOL = max(2, os.cpu_count() or 1)
#: Calls accepted and not yet handed to a child, at most (each holds a descriptor).
MAX_PENDING = 256
#: Children in a row that end without answering a call (declined, or broken) before the server gives up.
MAX_FAILURES = 100


def sources(root: str = PACKAGE) -> list[str]:
    """What the server's code is read from (`child.fingerprint` says how each is compared): our folders,
    modules and encodings (the repository's top-level encodings/ in a checkout), and clingo's module."""
    import clingo

    from ..asp.run import encodings_folder
    out = [root, clingo.__file__ or ""]
    folder_of_encodings = encodings_folder() if root == PACKAGE else None
    roots = [root] + ([str(folder_of_encodings)] if folder_of_encodings is not None
                      and not str(folder_of_encodings).startswith(root + os.sep) else [])
    out += roots[1:]
    for top in roots:
        for folder, dirs, files in os.walk(top):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            out += [os.path.join(folder, d) for d in dirs]
            out += [os.path.join(folder, f) for f in files if f.endswith(SOURCE_SUFFIXES)]
    return out


class Server:
    """The sockets (calls; `status` and `stop`), the lock that makes this server the only one, and the
    children: each warms itself, says it is ready, takes one call and ends (a new one takes its place),
    so that a call pays for neither the fork nor the first touch of the server's memory."""

    def __init__(self, idle: float, folder: str, pool: int = POOL):
        self.idle, self.pool, self.path = idle, pool, address(folder)
        self.control_path = address(folder, "ctl")
        self.warming: dict[socket.socket, int] = {}  # a child's end of its pair → its pid
        self.ready: list[tuple[socket.socket, int]] = []
        self.busy: dict[socket.socket, int] = {}  # a busy child's end of its pair (until it says) → its pid
        self.calls: set[int] = set()  # the children that took a call, until they end
        self.recent: tuple[str, str] | None = None  # the last short call's domain, problem: children warm on them
        self.pending: list[socket.socket] = []  # calls accepted while no child was ready
        self.started, self.served, self.failures = time.time(), 0, 0
        self.lock = os.open(address(folder, "lock"), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self.lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise SystemExit(f"amlasp server: another server holds {self.path}") from None
        self.sources = sources()
        self.code = fingerprint(self.sources)
        self.listener, self.control = _listen(self.path), _listen(self.control_path)
        self.inodes = {p: os.stat(p).st_ino for p in (self.path, self.control_path)}

    def serve(self) -> None:
        """Keep the children ready, hand them the calls, answer `status` and `stop`; until idle or stopped."""
        wake, waker = os.pipe()
        os.set_blocking(waker, False)
        signal.set_wakeup_fd(waker)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # a child ended: wakes the select below
        deadline = time.monotonic() + self.idle
        while True:
            self._reap()
            if self.failures > MAX_FAILURES:  # children that cannot take a call: not a server to keep
                raise SystemExit(f"amlasp server: {self.failures} children in a row ended without a call")
            while len(self.ready) + len(self.warming) < self.pool:
                self._fork()
            waits: list[Any] = [self.control, wake, *self.warming, *self.busy]
            if len(self.pending) < MAX_PENDING:  # more callers wait in the listening socket's backlog
                waits.append(self.listener)
            ready, _, _ = select.select(waits, [], [], max(0.0, deadline - time.monotonic()))
            if not ready and time.monotonic() >= deadline and not self.pending:
                return
            for r in ready:
                if r is wake:
                    os.read(wake, 512)
                elif r is self.listener:
                    self._accept()
                    deadline = time.monotonic() + self.idle
                elif r is self.control:
                    if not self._control():
                        return
                elif r in self.busy:
                    self._told(r)
                else:
                    self._warmed(r)
            self._dispatch()

    def close(self) -> None:
        """Remove the sockets (if they are still ours), let the lock go; the children waiting see their
        pair close and end, one running a call finishes it; calls not yet handed out run in their callers."""
        for path, inode in self.inodes.items():
            try:
                if os.stat(path).st_ino == inode:
                    os.unlink(path)
            except OSError:
                pass
        for sock in self._sockets():
            sock.close()
        os.close(self.lock)

    def _sockets(self) -> list[socket.socket]:
        return [self.listener, self.control, *self.warming, *(s for s, _ in self.ready), *self.busy, *self.pending]

    def status(self) -> dict[str, Any]:
        from .. import __version__
        return {"pid": os.getpid(), "socket": self.path, "version": __version__, "python": sys.executable,
                "package": PACKAGE, "started": self.started, "idle": self.idle, "served": self.served,
                "running": len(self.calls), "warm on": self.recent, "cpu": _cpu()}

    def _accept(self) -> None:
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return
        if peer_uid(conn) != os.getuid():
            conn.close()
            return
        self.pending.append(conn)

    def _warmed(self, link: socket.socket) -> None:
        pid = self.warming.pop(link)
        try:
            said = link.recv(1)
        except OSError:
            said = b""
        if said == b"r":
            self.ready.append((link, pid))
        else:  # it ended while warming: reaped, and counted, by `_reap`
            link.close()

    def _dispatch(self) -> None:
        """Hand the pending calls, in the order they came, to the children ready, the newest first (the
        likeliest to be warm on the files of the next call: a script's calls share a domain)."""
        while self.pending and self.ready:
            link, pid = self.ready.pop()
            conn = self.pending[0]
            try:
                socket.send_fds(link, [b"c"], [conn.fileno()])
            except OSError:  # that child is gone: the call waits for the next
                link.close()
                continue
            self.pending.pop(0).close()
            self.busy[link] = pid
            self.calls.add(pid)
            self.served += 1  # counted when handed out: a caller that has its answer finds its call counted

    def _told(self, link: socket.socket) -> None:
        """What a busy child said at its end: the domain and problem of a short call, or nothing."""
        try:
            said = link.recv(1 << 13)
        except OSError:
            said = b""
        link.close()
        del self.busy[link]
        try:
            files = marshal.loads(said) if said else None
        except (EOFError, ValueError, TypeError):
            return
        if isinstance(files, tuple) and len(files) == 2 and all(isinstance(f, str) for f in files):
            self.recent = files

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
                conn.sendall((json.dumps(self.status()) + "\n").encode())
            except OSError:
                return True
            return op != b"stop"

    def _fork(self) -> None:
        mine, theirs = socket.socketpair()
        server = os.getpid()
        pid = os.fork()
        if pid == 0:
            try:
                for sock in [mine, *self._sockets()]:
                    sock.close()
                os.close(self.lock)
                wait_for_call(theirs, server, self.sources, self.code, self.recent)
            except BaseException:  # into the server's log (`amlasp server start` shows it if it cannot start)
                import traceback
                traceback.print_exc()
            os._exit(1)
        theirs.close()
        self.warming[mine] = pid

    def _reap(self) -> None:
        """Forget the children that ended; count the children that failed before taking a call."""
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if not pid:
                return
            if pid in self.calls:
                self.calls.discard(pid)
                self.failures = 0
                continue
            if os.WIFEXITED(status) and os.WEXITSTATUS(status) == WARM_TIMEOUT:
                self.recent = None  # its files take too long now: not for warming
            else:
                self.failures += 1
            for link, p in list(self.ready):
                if p == pid:
                    self.ready.remove((link, p))
                    link.close()
            for link, p in list(self.warming.items()):
                if p == pid:
                    del self.warming[link]
                    link.close()


def _cpu() -> float:
    """Seconds of CPU of the server and of its children that ended (each with what it waited for: Fast
    Downward's processes): what the calls served cost on the server's side, for the benchmarks."""
    import resource
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _listen(path: str) -> socket.socket:
    try:
        os.unlink(path)  # left by a server that did not end cleanly: the lock is ours
    except FileNotFoundError:
        pass
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(path)
    sock.listen(64)
    return sock


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

__all__ = ["MAX_FAILURES", "MAX_PENDING", "POOL", "Server", "main", "sources"]
