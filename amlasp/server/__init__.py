"""A warm process for the one-plan `amlasp validate` (`amlasp server start`): where a script calls the
validator once per plan, each call pays for starting Python and importing our modules (about 40 ms
above `import clingo`, issue 24) for a validation of a few milliseconds. With a server running, the
call (`client.served`) hands its arguments, working folder, environment and standard streams to the
server, whose children, forked ahead and warm (`daemon`), run the same function as a call without a
server (`launch.run_one_plan`) on the caller's streams, and answer with its exit code.

Nothing starts a server unasked; without one, or when anything about it is wrong (not ours, stale,
unreachable), the call runs in its own process as before. This module is what the client and the
server share: where the sockets are, and how a request is written. The client imports it on every
one-plan call, so it imports nothing that costs: `_socket` rather than `socket` (whose enums take
2 ms), `marshal` rather than `json` (the peer is checked to be the same user, running the same
Python: `peer_uid`, `address`).
"""

from __future__ import annotations

import _socket
import marshal
import os
import stat
import struct
import sys
import zlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: This amlasp's package folder.
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: The largest request read (arguments, working folder, environment), bytes.
MAX_REQUEST = 1 << 20
HEADER = struct.Struct("!I")


def runtime_dir() -> str:
    """The folder of our sockets: `$XDG_RUNTIME_DIR/amlasp`, else `/tmp/amlasp-UID`."""
    base = os.environ.get("XDG_RUNTIME_DIR", "")
    return os.path.join(base, "amlasp") if os.path.isabs(base) else f"/tmp/amlasp-{os.getuid()}"


def private(folder: str) -> bool:
    """`folder` is a real folder (not a link), ours, that nobody else may enter: where a socket of
    another user could not have been put for us to connect to."""
    try:
        st = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


def address(folder: str | None = None, kind: str = "sock") -> str:
    """The server's file of `kind` for this Python environment and this amlasp (`python -m amlasp` and
    the `amlasp` script alike): `sock`, the socket of calls (the server's children take them); `ctl`,
    the socket of `status` and `stop`; `lock`, held while a server runs; `log`, its own errors. Another
    installation (a venv, a checkout) has its own server."""
    key = zlib.crc32(f"{os.path.realpath(sys.prefix)}\0{PACKAGE}\0{sys.version}".encode("utf-8", "surrogateescape"))
    return os.path.join(folder or runtime_dir(), f"{key:08x}.{kind}")


def peer_uid(sock: _socket.socket) -> int:
    """The user id of the process at the other end of a Unix socket (-1 if the system does not say)."""
    try:
        creds = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, struct.calcsize("3i"))
    except (OSError, AttributeError):
        return -1
    return struct.unpack("3i", creds)[1]


def send_request(sock: _socket.socket, request: dict[str, Any], fds: list[int] | None = None) -> None:
    """`request` (marshalled) after its length; `fds` go with the length (SCM_RIGHTS)."""
    payload = marshal.dumps(request)
    if len(payload) > MAX_REQUEST:
        raise OSError(f"request of {len(payload)} bytes, above {MAX_REQUEST}")
    header = HEADER.pack(len(payload))
    if fds:
        sock.sendmsg([header], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, struct.pack(f"{len(fds)}i", *fds))])
    else:
        sock.sendall(header)
    sock.sendall(payload)


def decode(payload: bytes) -> dict[str, Any]:
    """A request's payload: ValueError unless it is a dict. Read only by a child of the server from a
    peer of the same user; what it holds is checked by type before use, and nothing in it is run."""
    try:
        request = marshal.loads(payload)
    except (EOFError, ValueError, TypeError) as e:
        raise ValueError(f"malformed request: {e}") from None
    if not isinstance(request, dict):
        raise ValueError("a request is a dict")
    return request


__all__ = ["HEADER", "MAX_REQUEST", "PACKAGE", "address", "decode", "peer_uid", "private", "runtime_dir",
           "send_request"]
