"""Typer's side of the command line: the app, its group options, and the helpers commands declare with.

Imported by the command modules and by `main` when a call has options to parse; the one-plan
`validate` call runs without it (`amlasp.launch.run_one_plan`)."""

from __future__ import annotations

import inspect
from importlib import import_module
from typing import Any, Optional, Sequence

import typer

from ..choices import ANSWER_FORMATS, RESULT_FORMATS, Choice, Executor
from . import COMMANDS, configure, examples

app = typer.Typer(
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    help="Evaluate learned PDDL action models with Answer Set Programming (clingo).",
    epilog=examples("amlasp compare examples/blocksworld/learned.pddl examples/blocksworld/domain.pddl",
                    "amlasp eval examples/blocksworld/learned.pddl examples/blocksworld/domain.pddl "
                    "--states examples/blocksworld/problem.pddl -o eval.csv"),
)


def choice_option(default: Optional[str], *names: str, choices: Sequence[Choice], help: str) -> Any:
    """An option taking one of `choices` (members of a `Choice` Enum): listed in --help as
    [a|b|c] and offered by shell completion; `Choice.parse` checks the value when the command
    runs, so that every command rejects a bad one with the same message."""
    values = [c.value for c in choices]
    return typer.Option(default, *names, metavar="[" + "|".join(values) + "]", help=help,
                        autocompletion=lambda incomplete: [v for v in values if v.startswith(incomplete)])


# The options and arguments several commands declare alike, one declaration each: a command names one as
# its parameter's default (Typer reads the declaration from there; the parameter's name is the command's own).

#: The PDDL files of a reasoning command (applicable, step, plan, ...).
DOMAIN_FILE = typer.Argument(..., help="PDDL domain file")
PROBLEM_FILE = typer.Argument(..., help="PDDL problem file")
#: The domains of the commands that take a learned (or generated) model and a reference.
LEARNED_DOMAIN = typer.Argument(..., help="learned PDDL domain")
REFERENCE_DOMAIN = typer.Argument(..., help="reference PDDL domain")

#: `--format` of one question's answer (applicable, step, plan, reach, ...).
ANSWER_FORMAT = choice_option("table", "--format", "-f", choices=ANSWER_FORMATS, help="output format")
#: `--format`, `-o`, `--summary` of the metric commands (compare, eval, solve, similarity; validate's
#: and questions grade's --format).
RESULT_FORMAT = choice_option(None, "--format", "-f", choices=RESULT_FORMATS,
                              help="output format (default: the one -o's extension names, .csv .json .md .tex; "
                                   "else table)")
RESULT_OUTPUT = typer.Option(None, "-o", "--output",
                             help="write to this file (atomically); with CSV the summary goes to FILE.summary.csv")
SUMMARY = typer.Option(False, "--summary", help="only the summary table (one row per figure), e.g. for -f csv to "
                                                "stdout")
#: `--lenient-reference` (compare, eval, solve, bench run).
LENIENT_REFERENCE = typer.Option(False, "--lenient-reference",
                                 help="read a flawed reference leniently: undeclared predicates and types declared "
                                      "from their first use, broken actions left out of the scoring (a warning each)")

#: `--executor`, `--scheduler` of eval and questions generate (amlasp/jobs.py); their `--jobs`: `jobs_option`.
EXECUTOR = choice_option("process", "--executor", choices=tuple(Executor),
                         help="where the work runs: process (--jobs local processes) or dask (a cluster)")
SCHEDULER = typer.Option(None, "--scheduler",
                         help="Dask scheduler address (tcp://host:8786); without it, a local cluster of --jobs workers")


def jobs_option(each: str = "") -> Any:
    """`--jobs` of eval and questions generate; `each` says what a worker takes, where that needs saying."""
    return typer.Option(1, "--jobs", "-j", min=1, help="worker processes (each its own clingo), the result identical "
                                                      "to one's" + each)


def _version(value: bool) -> None:
    if value:
        from .. import __version__
        print(f"amlasp {__version__}")
        raise typer.Exit()


@app.callback()
def _group(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                        help="Print the version and exit."),
           strict: bool = typer.Option(False, "--strict", help="treat every warning about the inputs as an error "
                                       "(exit 2): a problem naming another domain, a learned model read leniently, "
                                       "an inconsistent trajectory"),
           max_grounding: Optional[float] = typer.Option(None, "--max-grounding", min=1, metavar="N",
                                                         help="rule instances a grounding may make (default 2e7; "
                                                         "env AMLASP_MAX_GROUNDING): larger ones are refused "
                                                         "before they start")) -> None:
    """Evaluate learned PDDL action models with Answer Set Programming (clingo)."""
    configure(strict, max_grounding)


def load_commands(names: Sequence[str] = ()) -> typer.Typer:
    """Register the commands `names` (all by default, or if one is unknown) and return `app`."""
    modules = [COMMANDS[n] for n in names] if names and all(n in COMMANDS for n in names) else COMMANDS.values()
    for m in dict.fromkeys(modules):
        import_module(f"amlasp.cli.{m}")
    _reflow(app)
    return app


def _reflow(group: typer.Typer) -> None:
    """Each command's help from its docstring with the lines of a paragraph joined: Typer keeps them, and
    a line broken for the source's width is a hard break in the middle of a sentence at any terminal width."""
    for c in group.registered_commands:
        if c.help is None and c.callback is not None and c.callback.__doc__:
            c.help = "\n\n".join(" ".join(p.split()) for p in inspect.cleandoc(c.callback.__doc__).split("\n\n"))
    for g in group.registered_groups:
        if g.typer_instance is not None:
            _reflow(g.typer_instance)


__all__ = ["app", "choice_option", "load_commands", "jobs_option", "DOMAIN_FILE", "PROBLEM_FILE", "LEARNED_DOMAIN",
           "REFERENCE_DOMAIN", "ANSWER_FORMAT", "RESULT_FORMAT", "RESULT_OUTPUT", "SUMMARY", "LENIENT_REFERENCE",
           "EXECUTOR", "SCHEDULER"]
