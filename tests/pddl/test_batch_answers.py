"""amlasp/pddl/batch.py with `answers` (`validate --from-text`): each plan is a language model's answer,
read out of it; an answer that cannot be read is its task's error, with the extraction kept."""

from __future__ import annotations

import json

from amlasp.pddl.batch import plan_files, read_batch
from amlasp.pddl.parse import load_domain
from amlasp.questions.language import action_sentences
from tests.support.paths import DATA

BW = DATA / "responses" / "blocksworld"


def test_a_plan_names_a_file_when_one_is_there_else_it_is_the_answer(tmp_path):
    """One rule in every mode (docs/validate.md): a `plan` naming an existing file is that file."""
    d = load_domain(BW / "domain.pddl")
    (tmp_path / "my plan.txt").write_text("(unstack c a)\n")
    batch = tmp_path / "b.jsonl"
    batch.write_text("\n".join(json.dumps({"problem": str(BW / "problem.pddl"), "plan": v})
                               for v in ("my plan.txt", "Unstack c from a.")) + "\n")
    plain = read_batch(batch, d)
    assert [t.error is None for t in plain] == [True, False] and plain[0].extracted is None
    assert plain[0].name == str(tmp_path / "my plan.txt") and plain[1].name == f"{batch}:2"
    answers = read_batch(batch, d, answers=action_sentences(d))
    assert [t.name for t in answers] == [str(tmp_path / "my plan.txt"), f"{batch}:2"]
    assert [str(a) for a in answers[0].plan] == ["(unstack c a)"] and answers[0].extracted is not None
    assert answers[1].error is None and [str(a) for a in answers[1].plan] == ["(unstack c a)"]
    assert answers[1].extracted is not None and answers[1].extracted.steps[0].how == "english"


def test_answer_files_keep_their_extraction_when_unreadable(tmp_path):
    d = load_domain(BW / "domain.pddl")
    bad = tmp_path / "bad.txt"
    bad.write_text("1. Unstack c from a.\n2. Teleport d.\n")
    good, broken = plan_files(d, BW / "problem.pddl", [BW / "06-numbered-english.txt", bad],
                                answers=action_sentences(d))
    assert good.error is None and len(good.plan) == 6 and good.extracted is not None
    assert [str(a) for a in broken.plan] == ["(unstack c a)"] and broken.step == 2  # the steps before: run
    assert str(broken.error).startswith(f"{bad}:2:4: step 2 not read")
    assert broken.extracted is not None and [s.action for s in broken.extracted.steps] == ["(unstack c a)"]
