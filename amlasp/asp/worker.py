"""clingo in a process of its own, for a long run of programs (eval's batches of states).

clingo keeps every symbol (every ground term, atom and string) it ever made in tables global to the
process, never freed (potassco/clingo#203): a fresh `Control` per program does not bound them. A
process that grounds batch after batch of different states grows with them (floortile, 10,000
states a batch: about 100 MB more a batch, benchmarks/bench_eval.py). A `Solver` hands each
program (its text and its facts as rows, `run.Program.given`: clingo's terms do not pickle) to a
worker process, which grounds and solves it with `run.solve_once` and returns the
shown atoms as text; when the worker's resident memory after a program passes `limit_mb`, it is
ended (its symbols with it) and the next program starts a new one (about 0.2 s: Python and clingo).

Requests and answers are pickled over the worker's stdin and stdout, a channel between this
process and its own child (never a file or a user's input).
"""

from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Mapping, Sequence

import clingo

if TYPE_CHECKING:
    from .schema import Pred

#: The worker's resident memory (MB) above which it is replaced after a program: its symbols alone
#: grow by about 100 MB per 10,000 floortile states, and a batch's grounding takes 200-300 MB more.
WORKER_MB = 400


def resident_mb(field: str = "VmRSS") -> float:
    """This process's resident memory now (VmRSS) or at its peak (VmHWM), 0 where /proc is not there."""
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith(field + ":")) / 1024
    except (OSError, StopIteration, ValueError):
        return 0.0


class WorkerError(RuntimeError):
    """The worker process failed or ended: a bug of ours or the system's (killed, out of memory)."""


class Solver:
    """`solve_once` in a worker process, replaced when its memory passes `limit_mb`; a context manager
    (the worker is ended on exit, also on an interrupt). `started` counts the workers started, `peak_mb`
    is the highest peak resident memory (VmHWM) a worker reported."""

    def __init__(self, limit_mb: float = WORKER_MB):
        self.limit_mb = limit_mb
        self.started = 0
        self.peak_mb = 0.0
        self._proc: subprocess.Popen | None = None

    def __enter__(self) -> "Solver":
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        if kind is not None and self._proc is not None:  # interrupted or failed: no waiting for its grounding
            self._proc.kill()
        self.close()

    def solve(self, parts: Sequence[str], timings: Counter | None = None,
              given: Mapping[Pred, Sequence[str]] | None = None) -> list[clingo.Symbol]:
        """The shown atoms of the program `parts` with the facts `given` as rows by declaration
        (stratified: its one answer set), as `run.solve_once`."""
        proc = self._proc or self._start()
        assert proc.stdin is not None and proc.stdout is not None
        rows = {pred.signature: list(r) for pred, r in (given or {}).items()}  # clingo's terms do not pickle
        try:
            pickle.dump((list(parts), rows), proc.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            proc.stdin.flush()
            status, answer, times, rss, peak = pickle.load(proc.stdout)
        except (OSError, EOFError, pickle.UnpicklingError) as e:
            code = self.close()
            raise WorkerError(f"internal error: the clingo worker ended (exit status {code}): {e}") from None
        if status != "ok":
            self.close()
            raise WorkerError(f"internal error in the clingo worker: {answer}")
        if timings is not None:
            timings.update(times)
        self.peak_mb = max(self.peak_mb, peak)
        if rss > self.limit_mb:
            self.close()
        if not answer:
            return []
        return list(clingo.parse_term(f"({','.join(answer)},)").arguments)

    def _start(self) -> subprocess.Popen:
        package_root = str(Path(__file__).resolve().parent.parent.parent)  # where `import amlasp` finds us
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(x for x in (package_root, os.environ.get("PYTHONPATH")) if x))
        # run from the package's root: `python -c` puts its working folder first on the path, where another
        # `amlasp` (a checkout the user stands in) would be the worker's instead of ours
        self._proc = subprocess.Popen([sys.executable, "-c", "from amlasp.asp.worker import main; main()"],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, cwd=package_root)
        self.started += 1
        return self._proc

    def close(self) -> int | None:
        """End the worker (if any): its stdin closed, it exits; killed if it does not within 5 s."""
        proc, self._proc = self._proc, None
        if proc is None:
            return None
        try:
            if proc.stdin:
                proc.stdin.close()
            return proc.wait(5)
        except (OSError, subprocess.TimeoutExpired):
            proc.kill()
            return proc.wait()
        finally:
            if proc.stdout:
                proc.stdout.close()


def main() -> None:
    """The worker: programs from stdin, answers to stdout, until stdin closes. An interrupt is the
    parent's to handle (it ends the worker)."""
    from .run import solve_once

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    requests = sys.stdin.buffer
    replies: IO[bytes] = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # a stray print must not corrupt the replies
    while True:
        try:
            parts, given = pickle.load(requests)
        except EOFError:
            return
        timings: Counter = Counter()
        reply: tuple[str, Any, dict, float, float]
        try:
            answer = [str(s) for s in solve_once(parts, timings=timings, given=given)]
            reply = ("ok", answer, dict(timings), resident_mb(), resident_mb("VmHWM"))
        except Exception as e:  # noqa: BLE001 - any failure is reported to the parent, which raises it
            reply = ("error", f"{type(e).__name__}: {e}", {}, 0.0, 0.0)
        pickle.dump(reply, replies, protocol=pickle.HIGHEST_PROTOCOL)
        replies.flush()


__all__ = ["Solver", "WorkerError", "WORKER_MB", "resident_mb"]
