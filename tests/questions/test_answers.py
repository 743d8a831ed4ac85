"""Reading free answers: yes/no verdicts (one, none, or both: ambiguous) and choice labels."""

from __future__ import annotations

import pytest

from amlasp.questions.answers import read_bool, read_choices, read_verdicts
from amlasp.questions.grade import grade


@pytest.mark.parametrize("said,verdicts", [
    ("Yes", [True]), ("no.", [False]), ("YES", [True]), ("y", [True]), (True, [True]),
    ("Answer: **Yes**", [True]), ("The answer is: no", [False]), ("I think yes it is", [True]),
    # a verdict word inside a reason is no verdict
    ("Yes, because there is no block on b1", [True]), ("Yes, no action is needed", [True]),
    ("The answer is no, since the arm is not empty", [False]), ("The correct answer is no", [False]),
    ("No, it is not true.", [False]), ("Not true.", [False]), ("No, that is incorrect.", [False]),
    ("It is true that the ferry is at l1", [True]), ("it is not true that b1 is clear", [False]),
    ("The statement is true.", [True]), ("It is false that b1 is clear, so no.", [False]),
    # a question restated, or no verdict at all
    ("Is it correct? No.", [False]), ("True or false: false", [False]), ("maybe", []), ("no idea", []),
    ("there is no block", []),
    # hedging between both
    ("yes, but maybe no", [True, False]), ("Yes... actually no", [True, False]), ("yes/no", [True, False]),
    ("I think yes. But it could be no.", [True, False]),
])
def test_yes_no_verdicts_are_read_like_a_careful_grader(said, verdicts):
    assert read_verdicts(said) == verdicts
    assert read_bool(said) == (verdicts[0] if len(verdicts) == 1 else None)


def test_both_yes_and_no_is_ambiguous_counted_apart_not_wrong_nor_a_guess():
    item = {"id": 1, "task": "val", "form": "bool", "answer": "yes", "question": "Is it valid?"}
    g = grade([item, {**item, "id": 2}, {**item, "id": 3}],
              {"1": "Yes... actually no", "2": "Yes, because there is no block on b1", "3": "maybe"})
    hedged, mention, none = g.results
    assert hedged.ambiguous and not hedged.correct and hedged.answered
    assert hedged.reason == "The answer is ambiguous: it says both yes and no."
    assert mention.correct and not mention.ambiguous
    assert not none.correct and not none.ambiguous and none.reason == "The answer says neither yes nor no."
    total = g.table()[-1]
    assert total["ambiguous"] == 1 and total["correct"] == 1 and total["answered"] == 3


@pytest.mark.parametrize("said,labels", [("B or C", ["B", "C"]), ("A or B", ["A", "B"]), ("A car", []),
                                         ("I think it's B, but maybe C", ["B", "C"]), ("D", ["D"])])
def test_bare_labels(said, labels):
    assert read_choices(said, None) == labels


@pytest.mark.parametrize("said,number", [("The answer is 3.", 3), ("index -1.", -1), ("(sail l9 l0)", None),
                                         ("twelve", 12), ("2.5", None), ("[3]", 3), ("Answer: 0", 0)])
def test_numbers_not_digits_inside_names(said, number):
    from amlasp.questions.answers import read_int
    assert read_int(said) == number
