"""A horizon whose grounding never ends: what the time-limit tests need to see a limit reached."""

from __future__ import annotations

import time


def stall_grounding_at(step: int = 2) -> None:
    """clingo's grounding of `step` sleeps for ten minutes (called in a child process of its own: nothing to
    restore), so that only a time limit ends the call."""
    from amlasp.asp import run as asp_run
    ground = asp_run.Program.ground

    def slow(self, *parts):
        if parts and parts[0][0] == "step" and parts[0][1] == [step]:
            time.sleep(600)
        return ground(self, *parts)

    asp_run.Program.ground = slow  # type: ignore[method-assign]
