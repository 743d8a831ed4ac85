"""Where the shipped data lives, for every test."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
IPC = ROOT / "benchmarks" / "ipc"
EXAMPLES = ROOT / "examples"
DATA = ROOT / "tests" / "data"
