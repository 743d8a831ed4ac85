from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
IPC = ROOT / "benchmarks" / "ipc"
EXAMPLES = ROOT / "examples"


@pytest.fixture
def ipc() -> Path:
    return IPC
