"""amlasp: evaluate learned PDDL action models with Answer Set Programming (clingo)."""

from .reasoning.engine import applicable, execute
from .errors import InputError, UnsupportedError
from .pddl.parse import load_domain, load_problem, parse_domain, parse_problem
from .metrics.compare import compare  # noqa: F401,E402  (syntactic comparison; result has .to_frame())
from .metrics.solve import solve  # noqa: F401  (problem-solving metrics; result has .to_frame())
from .metrics.evaluate import evaluate  # noqa: F401  (predictive power; result has .to_frame())

__version__ = "0.1.0"

__all__ = ["applicable", "execute", "load_domain", "load_problem", "parse_domain", "parse_problem",
           "InputError", "UnsupportedError", "__version__"]
