"""Terminal tables people can read (issue 10): at 80 and 120 columns every number of compare, eval,
solve and bench report is visible, checked in a real terminal (tmux, capture-pane).

Each command runs in a detached tmux pane of the given width on a private tmux server; the pane's
whole history is captured with wrapped lines joined (-J), so that a line the terminal had to wrap
shows up longer than the width. Every number the API reports must appear in the capture, whole."""

from __future__ import annotations

import itertools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections import Counter

import pytest

import amlasp
from amlasp.experiments.report import report
from amlasp.render.formats import fmt
from tests.support.paths import EXAMPLES, IPC, ROOT

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None,
                                reason="tmux is not installed (apt-get install tmux): the tables are checked in a "
                                       "real terminal")

NOLAM, DOMAINS = IPC / "learned" / "nolam", IPC / "domains"
BW = EXAMPLES / "blocksworld"
BENCH_RESULTS = ROOT / "tests" / "golden" / "inputs" / "bench-results.jsonl"
_CALLS = itertools.count()
NUMBER = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")


def in_terminal(args: list, width: int, timeout: float = 300) -> str:
    """`amlasp ARGS` in a tmux pane `width` columns wide: everything it printed, as the terminal shows it."""
    socket, marker = f"amlasp-test-{os.getpid()}-{next(_CALLS)}", "__AMLASP_EXIT="  # a server of its own each
    env = f"PYTHONPATH={shlex.quote(os.environ.get('PYTHONPATH', str(ROOT)))}"
    cmd = (f"cd {shlex.quote(str(ROOT))} && unset COLUMNS LINES; {env} "
           f"{shlex.join([sys.executable, '-m', 'amlasp', *map(str, args)])}; echo {marker}$?; sleep 600")
    tmux = ["tmux", "-L", socket, "-f", "/dev/null"]
    subprocess.run([*tmux, "new-session", "-d", "-x", str(width), "-y", "50", cmd], check=True)
    try:
        subprocess.run([*tmux, "set-option", "-g", "history-limit", "20000"], check=True)
        deadline = time.monotonic() + timeout
        while True:
            text = subprocess.run([*tmux, "capture-pane", "-p", "-J", "-S", "-"], capture_output=True,
                                  text=True, check=True).stdout
            if marker in text or time.monotonic() > deadline:
                break
            time.sleep(0.5)
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)  # our own server, on our own socket
    assert f"{marker}0" in text, text
    return text[:text.index(marker)]


def check_visible(text: str, width: int, numbers: list) -> None:
    """No table line wider than the terminal, nothing cut (…), and every number there, whole.
    (Plain lines, such as warnings, may wrap: nothing of them is lost.)"""
    lines = [x for x in text.splitlines() if set(x) & set("│┃┏┗└┌━─")]
    assert lines and max(len(x) for x in lines) <= width, [x for x in lines if len(x) > width]
    assert "…" not in text
    missing = Counter(numbers) - Counter(NUMBER.findall(text))
    assert not missing, f"not visible at {width} columns: {dict(missing)}\n{text}"


def _fmt2(x: float) -> str:
    return f"{x:.2f}"


@pytest.mark.parametrize("width", [80, 120])
def test_compare(width):
    learned, ref = NOLAM / "rovers.pddl", DOMAINS / "rovers.pddl"  # long action names, two-digit distances
    r = amlasp.compare(learned, ref)
    numbers = []
    for a in r.actions:
        numbers += [_fmt2(getattr(a.counts[c], m)) for c in ("pre_pos", "pre_neg", "eff_pos", "eff_neg")
                    for m in ("precision", "recall")]
        numbers += [fmt(a.similarity), *map(str, (a.param_distance, a.pre_distance, a.eff_distance, len(a.edits)))]
    numbers += [fmt(row[c]) for row in r.summary_records() for c in ("mean_over_actions", "cumulative")
                if fmt(row[c]) != "n/a"]
    check_visible(in_terminal(["compare", learned, ref], width), width, numbers)


@pytest.mark.parametrize("width", [80, 120])
def test_eval(width):
    learned, ref = NOLAM / "depots.pddl", DOMAINS / "depots.pddl"  # six-digit counts
    args = ["--states", IPC / "trajectories" / "learning" / "depots",
            "--problems", IPC / "problems" / "learning" / "depots"]
    ev = amlasp.evaluate(learned, ref, args[1], problems=args[3])
    numbers = [fmt(row[f"{fam}_{k}"]) for row in ev.records() for fam in ("app", "eff")
               for k in ("tp", "fp", "tn", "fn", "precision", "recall")]
    numbers += [fmt(row[c]) for row in ev.summary_records() for c in ("mean_over_actions", "actions", "cumulative")]
    check_visible(in_terminal(["eval", learned, ref, *args], width), width, [n for n in numbers if n != "n/a"])


@pytest.mark.parametrize("width", [80, 120])
def test_solve(width):
    args = [BW / "learned.pddl", BW / "domain.pddl", "-p", BW / "problem.pddl"]
    text = in_terminal(["solve", *args], width)
    r = amlasp.solve(args[0], args[1], args[3])
    numbers = [str(p.plan_length) for p in r.problems] + [fmt(x["ratio"]) for x in r.summary_records()]
    check_visible(text, width, numbers)
    assert "problem.pddl" in text and "solved" in text


@pytest.mark.parametrize("width", [80, 120])
def test_bench_report(width):
    rep = report(BENCH_RESULTS, "avg")
    numbers = [fmt(v) for v in rep.to_frame()["value"] if fmt(v) != "n/a"]
    check_visible(in_terminal(["bench", "report", BENCH_RESULTS], width), width, numbers)


def test_bench_report_of_several_learners_at_80_columns(tmp_path):
    """Five learners' columns do not fit 80 columns side by side: every number is still there."""
    lines = BENCH_RESULTS.read_text().splitlines()
    recs = [json.loads(x) for x in lines[1:]]
    more = [lines[0]] + [json.dumps({**r, "learner": f"{r['learner']}-{k}"}) for k in range(5) for r in recs]
    results = tmp_path / "results.jsonl"
    results.write_text("\n".join(more) + "\n")
    rep = report(results, "avg")
    numbers = [fmt(v) for v in rep.to_frame()["value"] if fmt(v) != "n/a"]
    check_visible(in_terminal(["bench", "report", results], 80), 80, numbers)


def test_numbers_are_right_aligned():
    """In every table the numbers end in one column: the cell's right edge."""
    text = in_terminal(["bench", "report", BENCH_RESULTS], 80)
    rows = [x for x in text.splitlines() if x.startswith("│ blocksworld")]
    assert rows and all(re.search(r"\d │$", x) for x in rows)


def test_questions_grade_keeps_ids_whole_at_80_columns():
    """The wrong answers' ids are long signed integers: folded, one id would read as two."""
    import json

    from tests.support import cli
    from tests.support.paths import EXAMPLES
    qx = EXAMPLES / "questions"
    r = cli.run("questions", "grade", qx / "items.jsonl", qx / "answers.jsonl", env={"COLUMNS": "80"})
    assert r.exit_code == 0
    wrong = r.stdout[r.stdout.index("Wrong answers"):]
    assert max(map(len, wrong.splitlines())) <= 80
    ids = [json.loads(line)["id"] for line in (qx / "answers.jsonl").read_text().splitlines()]
    shown = [i for i in ids if f"│ {i} " in wrong]
    assert len(shown) == int(wrong.split("(")[1].split(")")[0])  # every wrong answer's id, whole on its line
