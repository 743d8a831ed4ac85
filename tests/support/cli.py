"""The command line as a user runs it: in-process (typer's runner, fast) or as `python -m amlasp`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# typer's help width is read from TERMINAL_WIDTH once, when rich_utils is imported: imported here, before a
# test's environment (test_help's TERMINAL_WIDTH=80) could fix it for the later tests of the process
import typer.rich_utils  # noqa: F401
from click.testing import Result
from typer.testing import CliRunner

from amlasp.cli.group import load_commands

app = load_commands()  # every command registered, as `amlasp --help` sees them


def run(*args: str | Path, env: dict[str, str] | None = None) -> Result:
    """`amlasp ARGS...` in-process; stdout and stderr are kept apart."""
    return CliRunner().invoke(app, [str(a) for a in args], env=env)


def run_module(*args: str | Path, timeout: float = 60) -> subprocess.CompletedProcess:
    """`python -m amlasp ARGS...` in a subprocess: the real entry point, exit code and streams."""
    return subprocess.run([sys.executable, "-m", "amlasp", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout)
