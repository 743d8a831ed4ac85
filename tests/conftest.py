"""What every test process shares.

pytest-xdist (the README's `-n 2`) sets COLUMNS (and LINES) in its workers from the terminal it was
started in; a plain `pytest` run does not. The commands read COLUMNS for their tables' width
(render/output.console), so the workers drop it: each test sees the environment of a plain run, and
a test that needs a width says so itself (`env={"COLUMNS": "80"}`).

XDG_RUNTIME_DIR points at a folder of the run's own: a server the developer started (`amlasp server
start`) does not answer the tests' one-plan calls, and the tests' servers (tests/server) are theirs."""

import atexit
import os
import shutil
import tempfile

os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="amlasp-tests-")
atexit.register(shutil.rmtree, os.environ["XDG_RUNTIME_DIR"], ignore_errors=True)

if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.pop("COLUMNS", None)
    os.environ.pop("LINES", None)

pytest_plugins = ["tests.support.dask"]  # the `dask_cluster` fixture, for every test that takes it
