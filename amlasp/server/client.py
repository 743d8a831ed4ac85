"""The one-plan call's side (`launch.main`): hand the call to a running server, or say there is none."""

from __future__ import annotations

import _socket
import os
import signal
import sys
from io import FileIO

from . import address, peer_uid, private, runtime_dir, send_request

#: Signals a caller may get while the server's child works: passed on to it, so that Ctrl-C or a
#: `kill` ends the validation (and this call) as it would end a call without a server.
FORWARDED = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def served(args: list[str]) -> int | None:
    """The exit code of `amlasp ARGS` run by the server on this process's streams; None when no server
    of ours runs or it declines the call (then the caller runs it itself: nothing was written)."""
    folder = runtime_dir()
    if not private(folder):
        return None
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.connect(address(folder))
        if peer_uid(sock) == os.getuid():
            send_request(sock, _request(args), [0, 1, 2])
            if sock.recv(1) == b"S":  # else declined (stale, a working folder it cannot enter) or gone
                return _answer(sock)
    except OSError:
        pass
    sock.close()
    return None


def _request(args: list[str]) -> dict:
    """What the server's child needs to become this process: arguments, folder, umask, environment, and
    how Python made its standard streams (their descriptors go beside the request)."""
    umask = os.umask(0o077)
    os.umask(umask)
    streams = [[s.encoding, s.errors, getattr(s, "line_buffering", False), getattr(s, "write_through", False),
                not isinstance(getattr(s, "buffer", None), FileIO)]  # -u, PYTHONUNBUFFERED: no binary buffer
               if s is not None else None
               for s in (sys.stdin, sys.stdout, sys.stderr)]
    return {"argv": list(args), "cwd": os.getcwd(), "env": dict(os.environ), "umask": umask,
            "streams": streams}


def _answer(sock: _socket.socket) -> int:
    """Wait for the child's exit code, passing it the signals this process gets."""
    got: list[int] = []

    def forward(signum: int, frame: object) -> None:
        got.append(signum)
        try:
            sock.sendall(bytes([signum]))
        except OSError:
            pass

    old = {s: signal.signal(s, forward) for s in FORWARDED}
    data = b""
    try:
        while not data.endswith(b"\n"):  # the code comes last: the child's output is written by then
            chunk = sock.recv(64)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    finally:
        sock.close()
        for s, h in old.items():
            signal.signal(s, h)
    if data.startswith(b"X") and data.endswith(b"\n") and data[1:-1].isdigit():
        return int(data[1:-1])
    if got:  # the child ended by the signal, as this process would have without a server
        signal.signal(got[-1], signal.SIG_DFL)
        os.kill(os.getpid(), got[-1])
    print("amlasp: internal error: the server's process ended without an exit code "
          "('amlasp server stop' and call again, or see docs/validate.md)", file=sys.stderr)
    return 4


__all__ = ["FORWARDED", "served"]
