"""`amlasp server start|stop|status`: a warm process for scripts that call `amlasp validate` once per plan."""

from __future__ import annotations

import time

import typer

from . import examples, guarded
from .group import app

server_app = typer.Typer(no_args_is_help=True, help="A warm process that runs one-plan `amlasp validate` calls "
                         "(docs/validate.md).")
app.add_typer(server_app, name="server")


@server_app.command("start", epilog=examples("amlasp server start --idle 600"))
def start_command(idle: float = typer.Option(900.0, "--idle", min=1, metavar="SECONDS",
                                             help="seconds without a call after which the server ends")) -> None:
    """Start the server, if it is not running: from then on, `amlasp validate DOMAIN PROBLEM PLAN [-f
    table|json]` is run by it, in a process already warm (the same function on the same streams, the
    call's exit code), about 50 ms sooner. Nothing else changes; calls with other options run as before.
    The server serves this Python's amlasp, for you alone, and ends when idle, on `amlasp server stop`,
    or when amlasp is updated under it."""
    from ..server import control
    st, started = guarded(lambda: control.start(idle))
    print(("started: " if started else "running already: ") + _line(st))


@server_app.command("stop", epilog=examples("amlasp server stop"))
def stop_command() -> None:
    """Stop the server (exit 1 if none was running)."""
    from ..server import control
    _say("stopped", guarded(control.stop))


@server_app.command("status", epilog=examples("amlasp server status"))
def status_command() -> None:
    """Whether the server runs (exit 0) or not (exit 1), and the calls it has served."""
    from ..server import control
    _say("running", guarded(control.status))


def _say(what: str, st: dict | None) -> None:
    """`what: ` and the server's status line; none running: exit 1, a negative answer."""
    if st is None:
        print("no server running")
        raise typer.Exit(1)
    print(f"{what}: " + _line(st))


def _line(st: dict) -> str:
    from ..render.escape import control as plain
    up = time.time() - float(st.get("started", time.time()))
    return plain(f"pid {st.get('pid')}, {st.get('served')} call(s) served, up {up:.0f} s, ends after "
                 f"{float(st.get('idle', 0)):.0f} s idle; socket {st.get('socket')}")
