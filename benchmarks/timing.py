"""What every benchmark script times with: the best of several calls, wall and CPU apart."""

from __future__ import annotations

import time


def best_of(fn, repeat: int):
    """Best wall and best CPU seconds of `repeat` calls, and the last result."""
    wall = cpu = float("inf")
    result = None
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        result = fn()
        wall, cpu = min(wall, time.perf_counter() - t), min(cpu, time.process_time() - c)
    return wall, cpu, result
