"""`amlasp compare LEARNED REF`: syntactic metrics, similarity, equivalence and edit distance."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from ..choices import RESULT_FORMATS
from . import EX, IPC, examples, guarded, keep_going, partial, warn
from .group import LENIENT_REFERENCE, REFERENCE_DOMAIN, RESULT_FORMAT, RESULT_OUTPUT, SUMMARY, app


@app.command(epilog=examples(
    f"amlasp compare {EX}/learned.pddl {EX}/domain.pddl --explain",
    f"amlasp compare {IPC}/problems/learning/grippers/1_grippers_prob.pddl "
    f"{IPC}/problems/learning/grippers/0_grippers_prob.pddl --domain {IPC}/domains/grippers.pddl -f json"))
def compare(
    learned: Path = typer.Argument(..., help="learned PDDL domain (or generated problem, with --domain); a folder: "
                                   "each of its *.pddl files, one row each"),
    reference: Path = REFERENCE_DOMAIN,
    rename: bool = typer.Option(False, "--rename", help="choose the renaming of predicates, actions and parameters "
                                "with the fewest edits even where names agree, and compute all metrics under it"),
    align: bool = typer.Option(False, "--align", help="match parameters by the type-consistent bijection with the "
                               "most agreement instead of by position"),
    format: Optional[str] = RESULT_FORMAT,
    explain: bool = typer.Option(False, "--explain", help="print the mappings and the list of edits"),
    time_limit: float = typer.Option(60.0, "--time-limit", help="seconds for the comparison, grounding included "
                                     "(the best distance found when the search is cut; exit 3 if none)"),
    caption: Optional[str] = typer.Option(None, "--caption", help="LaTeX caption"),
    out: Optional[Path] = RESULT_OUTPUT,
    summary: bool = SUMMARY,
    as_written: bool = typer.Option(False, "--as-written", help="the summary's Text2World F1 components "
                                    "(predicates, parameters, preconditions, effects) with names and strings as "
                                    "written, as the published evaluator computes them; default: under the best "
                                    "renaming"),
    domain: Optional[Path] = typer.Option(None, "--domain", help="compare two PROBLEM files of this domain "
                                          "(generated first, reference second) up to a renaming of objects"),
    goals: str = typer.Option("semantic", "--goals", metavar="[semantic|syntactic]",
                              help="problems: also compare goals by what they imply on the reachable states"),
    max_states: int = typer.Option(5000, "--max-states", help="problems: reachable states explored per problem"),
    jobs: int = typer.Option(1, "--jobs", "-j", help="candidates compared in parallel (LEARNED a folder)"),
    lenient_reference: bool = LENIENT_REFERENCE,
):
    """Syntactic comparison of a learned domain with a reference; or, with --domain, of two problems.

    Precision and recall per action and category, literal similarity, action equivalence, and
    the edit distance up to renaming (proven optimal by clingo). With --domain: whether two problems
    are the same task up to a renaming of objects (exit 1 if not), the edits, and whether the first
    one is solvable (docs/llm.md).
    """
    def run():
        from ..errors import InputError
        from ..metrics.compare import compare as run_compare
        from ..render import compare as present
        from ..render.exports import deliver_result, output_format, written
        from ..render.output import refuse_overwrite
        form = output_format(format, out, RESULT_FORMATS)
        if time_limit <= 0:
            raise InputError("--time-limit must be positive")
        for target in written(form, out, summary):
            refuse_overwrite(target, [learned, reference] + ([domain] if domain else []))
        if learned.is_dir() or domain is not None:
            _llm(learned, reference, domain, form, out, summary, jobs,
                 dict(time_limit=time_limit) | (dict(goals=goals, max_states=max_states) if domain is not None
                                                else dict(as_written=as_written, rename=rename, align=align)))
            return
        from ..experiments.suite import swapped
        warn(swapped(learned, reference))
        result = run_compare(learned, reference, align=align, rename=rename, time_limit=time_limit,
                             as_written=as_written, lenient_reference=lenient_reference)
        warn(result.warnings)
        deliver_result(lambda f, only: present.text(result, f, explain, caption, only),
                       lambda only: present.terminal(result, explain, only), form, out, summary)
    guarded(run)


def _llm(learned: Path, reference: Path, domain: Optional[Path], form, out: Optional[Path], summary: bool, jobs: int,
         options: dict) -> None:
    """A folder of candidates (domains, or problems with `domain`), or two problems (docs/llm.md)."""
    from ..errors import InputError
    from ..metrics.compare.problem_result import GoalNotion
    from ..render.exports import deliver_result
    if "goals" in options:
        if options["goals"] not in {n.value for n in GoalNotion}:
            raise InputError(f"--goals must be semantic or syntactic, not '{options['goals']}'")
        if options["max_states"] < 1:
            raise InputError("--max-states must be positive")
    if learned.is_dir():
        from ..metrics.compare.many import compare_candidates
        from ..render import many
        from ..render.progress import progress_bar
        if jobs < 1:
            raise InputError("--jobs must be at least 1")
        with progress_bar({"candidates": "candidates"}, transient=True) as progress:
            batch = compare_candidates(learned, reference, domain=domain, jobs=jobs, progress=progress,
                                       keep_going=keep_going(), **options)
        deliver_result(lambda f, only: many.text(batch, f, only), lambda only: many.terminal(batch, only),
                       form, out, summary)
        partial(batch.erred, len(batch.rows), "candidates")
        return
    from ..metrics.compare.problems import compare_problems
    from ..render import problems
    assert domain is not None
    result = compare_problems(learned, reference, domain, **options)
    deliver_result(lambda f, only: problems.text(result, f, only), lambda only: problems.terminal(result, only),
                   form, out, summary)
    if not result.equivalent:
        raise typer.Exit(1)
