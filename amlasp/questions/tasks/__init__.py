"""The task builders, one module per family: state (app, prog, val), reach (reach, areach),
plans (just, land, nexta), sequence (verify, count, value)."""

from ..items import Task
from .common import TaskSpec
from .plans import SPECS as _PLANS
from .reach import SPECS as _REACH
from .sequence import SPECS as _SEQUENCE
from .state import SPECS as _STATE

SPECS: dict[Task, TaskSpec] = {s.task: s for s in _STATE + _REACH + _PLANS + _SEQUENCE}

__all__ = ["SPECS", "TaskSpec"]
