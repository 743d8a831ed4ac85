"""Start-up: what a command-line call imports (issue 11). Checked by `sys.modules` in a fresh
process, not by timing: a script that calls `amlasp validate` in a loop must not pay for pandas,
unified-planning or matplotlib, nor `amlasp --help` for the PDDL parser or clingo's programs."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.support.paths import EXAMPLES, ROOT

BW = EXAMPLES / "blocksworld"
HEAVY = ("pandas", "unified_planning", "matplotlib")


def loaded_after(code: str) -> set[str]:
    """Top-level packages in `sys.modules` after running `code` in a fresh interpreter."""
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    return set(json.loads(p.stdout.splitlines()[-1]))


def after_command(*args: str) -> tuple[int, set[str]]:
    """Run `amlasp ARGS` through the real entry point; its exit code and the packages it loaded (said by an exit
    handler: a call without Typer ends in `os._exit` once its exit handlers ran, `launch._leave`)."""
    probe = ("import atexit, json, sys\n"
             "atexit.register(lambda: print(json.dumps(sorted({m.split('.')[0] for m in sys.modules}))))\n"
             f"sys.argv = ['amlasp', *{list(args)!r}]\nfrom amlasp.launch import main\nmain()")
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=120)
    return p.returncode, set(json.loads(p.stdout.splitlines()[-1]))


def test_import_amlasp_loads_nothing_heavy():
    mods = loaded_after("import amlasp")
    assert not mods & {*HEAVY, "clingo", "lark", "pddl", "typer", "rich"}


def test_api_names_load_on_first_use():
    mods = loaded_after("import amlasp\nassert callable(amlasp.validate_plans) and callable(amlasp.compare)")
    assert "clingo" in mods and not mods & set(HEAVY)
    with pytest.raises(AttributeError):
        import amlasp
        amlasp.no_such_name  # noqa: B018


def test_import_cli_with_every_command_loads_no_heavy_library():
    mods = loaded_after("import amlasp.cli.group\namlasp.cli.group.load_commands()")
    assert not mods & set(HEAVY)
    assert "lark" not in mods  # the PDDL parser is built when a domain is read


@pytest.mark.parametrize("fmt", ["table", "json"])
def test_validate_loads_no_heavy_library(fmt):
    code, mods = after_command("validate", str(BW / "domain.pddl"), str(BW / "problem.pddl"), str(BW / "plan.txt"),
                               "-f", fmt)
    assert code == 0
    assert not mods & set(HEAVY)


def test_a_json_answer_does_not_load_rich():
    """Scripts read JSON: text is printed as it is, rich is for tables and terminals."""
    code, mods = after_command("validate", str(BW / "domain.pddl"), str(BW / "problem.pddl"), str(BW / "plan.txt"),
                               "-f", "json")
    assert code == 0 and "rich" not in mods


def test_help_loads_neither_the_parser_nor_a_heavy_library():
    code, mods = after_command("--help")
    assert code == 0
    assert not mods & {*HEAVY, "lark"}


def test_a_command_registers_only_its_module():
    code = ("import sys\nsys.argv = ['amlasp', 'validate', '--help']\nfrom amlasp.launch import main\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "print([m for m in ('amlasp.cli.core', 'amlasp.cli.compare', 'amlasp.cli.bench') if m in sys.modules])")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.stdout.splitlines()[-1] == "['amlasp.cli.core']"


def test_every_api_name_resolves():
    import amlasp
    for name in amlasp.__all__:
        assert getattr(amlasp, name) is not None, name
    assert set(amlasp.__all__) <= set(dir(amlasp))


def test_defaults_written_in_the_help_are_the_real_ones():
    """`solve` and `gen trajectories` say some defaults as text, not to import the modules that
    define them for `--help`: the text must be theirs."""
    import typer.main

    from amlasp.cli.group import load_commands
    from amlasp.experiments.trajectories import P_OPT, P_RND, SEED
    from amlasp.metrics.solve import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT
    group = typer.main.get_command(load_commands())
    solve = {p.name: p for p in group.commands["solve"].params}
    gen = {p.name: p for p in group.commands["gen"].commands["trajectories"].params}
    for param, value in [(solve["timeout"], DEFAULT_TIMEOUT), (solve["memory"], DEFAULT_MEMORY_MB),
                         (gen["p_rnd"], P_RND), (gen["p_opt"], P_OPT), (gen["seed"], SEED)]:
        assert param.default is None and param.help.endswith(f"\\[default: {value}]"), param.name


def test_help_imports_no_command_module_dependency():
    """`amlasp --help` lists every command without importing what they compute with."""
    code, mods = after_command("--help")
    assert code == 0 and not mods & {"clingo", "lark", "pddl"}


def _amlasp(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "amlasp", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


#: A group option at its default: the call goes through Typer.
TYPER = ("--max-grounding", "2e7")


@pytest.mark.parametrize("fmt", [[], ["-f", "table"], ["--format", "json"]])
@pytest.mark.parametrize("domain,plan", [("domain.pddl", "plan.txt"), ("learned.pddl", "plan.txt"),
                                         ("domain.pddl", "no-such-plan.txt"), ("domain.pddl", "problem.pddl")])
def test_one_plan_validation_runs_without_typer_and_says_what_the_command_says(domain, plan, fmt):
    """`validate DOMAIN PROBLEM PLAN [-f FORMAT]` alone (what scripts call in a loop) skips Typer; with
    another option it goes through Typer: the same output, warnings, errors and exit code either way."""
    args = [str(BW / domain), str(BW / "problem.pddl"), str(BW / plan), *fmt]
    code, mods = after_command("validate", *args)
    assert "typer" not in mods and ("rich" not in mods or code != 0)  # rich escapes the names of an invalid step
    quick, typed = _amlasp("validate", *args), _amlasp(*TYPER, "validate", *args)
    assert (quick.returncode, quick.stdout, quick.stderr) == (typed.returncode, typed.stdout, typed.stderr)
    assert quick.returncode == code


def test_an_invalid_plan_is_said_alike_on_both_paths(tmp_path):
    plan = tmp_path / "short.txt"
    plan.write_text("(unstack b3 b1)\n(put_down b3)\n")
    args = [str(BW / "domain.pddl"), str(BW / "problem.pddl"), str(plan)]
    quick, typed = _amlasp("validate", *args), _amlasp(*TYPER, "validate", *args)
    assert quick.returncode == 1 and quick.stdout.startswith("invalid")
    assert (quick.returncode, quick.stdout, quick.stderr) == (typed.returncode, typed.stdout, typed.stderr)


@pytest.mark.parametrize("args", [["--lenient"], ["-f", "json", "--lenient"], ["--lenient", "-f", "json"]])
def test_a_lenient_one_plan_call_runs_without_typer_too(args):
    """`--lenient` (issue 32: an LLM's plans, validated one call each) keeps the call off Typer's path, and the
    server's: the same output either way; an option it does not know still goes through Typer."""
    from amlasp.launch import one_plan_call
    plan = str(ROOT / "tests" / "data" / "plans_lenient" / "combined.plan")
    files = [str(BW / "domain.pddl"), str(BW / "problem.pddl"), plan]
    call = ["validate", *files[:2], *args[:1], files[2], *args[1:]] if args[0] == "--lenient" else \
        ["validate", *files, *args]
    assert one_plan_call(call) == (*files, "json" if "json" in args else "table", True)
    assert one_plan_call(["validate", *files, "--lenient", "--batch"]) is None
    code, mods = after_command(*call)
    assert code == 0 and "typer" not in mods
    quick, typed = _amlasp(*call), _amlasp(*TYPER, *call)
    assert quick.returncode == 0 and "number" in quick.stdout
    assert (quick.returncode, quick.stdout, quick.stderr) == (typed.returncode, typed.stdout, typed.stderr)


BATCH = ["validate", "benchmarks/ipc/domains/blocksworld.pddl", "--batch", "benchmarks/plans/blocksworld/plans.jsonl"]
QUICK = {
    "batch json": [*BATCH, "-f", "json"],
    "batch group-by csv": [*BATCH, "--group-by", "problem", "--format", "csv"],
    "batch unreadable": ["validate", str(BW / "domain.pddl"), "--batch", "no-such.jsonl"],
    "several plans": ["validate", str(BW / "domain.pddl"), str(BW / "problem.pddl"), str(BW / "plan.txt"),
                      str(BW / "plan.txt"), "--lenient"],
    "no plan": ["validate", str(BW / "domain.pddl"), str(BW / "problem.pddl")],
    "plan": ["plan", str(BW / "domain.pddl"), str(BW / "problem.pddl")],
    "plan options": ["plan", "-f", "json", str(BW / "domain.pddl"), "--prover", "asp", str(BW / "problem.pddl"),
                     "-k", "2", "--time-limit", "60.5", "-n", "12"],
    "plan none": ["plan", str(BW / "domain.pddl"), str(BW / "problem.pddl"), "--prover", "asp", "--all", "-n", "3"],
    "plan bad format": ["plan", str(BW / "domain.pddl"), str(BW / "problem.pddl"), "-f", "xml"],
}


@pytest.mark.parametrize("form", QUICK)
def test_a_batch_and_a_plan_run_without_typer_and_say_what_the_command_says(form):
    """`validate` in its other forms and `plan`, with plain options (`launch.quick_call`), skip Typer (40 ms of
    a call): the same output, errors and exit code as through Typer."""
    args = QUICK[form]
    code, mods = after_command(*args)
    assert "typer" not in mods
    quick, typed = _amlasp(*args), _amlasp(*TYPER, *args)
    assert (quick.returncode, quick.stdout, quick.stderr) == (typed.returncode, typed.stdout, typed.stderr)
    assert quick.returncode == code and (quick.stdout or quick.stderr)


@pytest.mark.parametrize("args", [
    [*BATCH, "--optimal"], [*BATCH, "--format=json"], [*BATCH, "-f", "json", "-f", "csv"], [*BATCH, "-o", "-x"],
    [*BATCH, "--help"], [*BATCH, "--"], [*BATCH, "-f"], ["validate", "--batch", "b.jsonl"], ["validate", "-"],
    ["plan", "d", "p", "x"], ["plan", "d"], ["plan", "d", "p", "-t", "1e3"], ["plan", "d", "p", "-n", "3.0"],
    ["plan", "d", "p", "-t", "-1"], ["plan", "d", "p", "--all", "--all"], ["plan", "d", "p", "-n", "٣"],
    ["reach", "d", "p"], ["--strict", "plan", "d", "p"], ["validate", "d\udcff", "p", "x", "y"], []])
def test_what_quick_call_leaves_to_typer(args):
    """Typer reads every other call: an option or form `quick_call` does not know, a value it could read
    otherwise than click (a number not in plain digits, a repeated option), help, an argument not UTF-8."""
    from amlasp.launch import quick_call
    assert quick_call(args) is None


def test_quick_call_reads_values_as_typer_passes_them():
    from amlasp.launch import quick_call
    assert quick_call(QUICK["plan options"]) == ("plan", [str(BW / "domain.pddl"), str(BW / "problem.pddl")], {
        "format": "json", "prover": "asp", "top": 2, "time_limit": 60.5, "max_steps": 12})
    assert quick_call(["plan", "d", "p", "-t", "60"])[2] == {"time_limit": 60.0}


def test_a_call_without_typer_skips_pythons_teardown_but_not_the_exit_handlers(tmp_path):
    """Once a call without Typer has answered, the process ends at once (`launch._leave`): Python's teardown of
    a process that loaded clingo (its modules cleared and collected) is 20-30 ms of CPU; the exit handlers run,
    the output is whole and the exit code the command's."""
    probe = ("import atexit, sys\n"
             "atexit.register(lambda: print('exit handler', file=sys.stderr))\n"
             "class Torn:\n    def __del__(self):\n        print('torn down', file=sys.stderr)\n"
             "kept = Torn()\n"
             f"sys.argv = ['amlasp', 'validate', {str(BW / 'domain.pddl')!r}, {str(BW / 'problem.pddl')!r}, "
             f"{str(BW / 'plan.txt')!r}, '-f', 'json']\nfrom amlasp.launch import main\nmain()")
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0 and json.loads(p.stdout)["valid"] is True
    assert p.stderr == "exit handler\n"  # no teardown: `kept` is never collected
    typed = _amlasp(*TYPER, "validate", str(BW / "domain.pddl"), str(BW / "problem.pddl"), str(BW / "plan.txt"),
                    "-f", "json")
    assert (typed.returncode, typed.stdout) == (p.returncode, p.stdout)
