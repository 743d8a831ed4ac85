"""`amlasp validate --from-text` as a user runs it: one answer (its own report, the plan read shown), several
answer files and a batch of answers (one verdict each, the key `extracted`), and the error of an answer
whose plan cannot be read."""

from __future__ import annotations

import json

from tests.support.cli import run, run_module
from tests.support.paths import DATA

BW = DATA / "responses" / "blocksworld"
DOM, PROB = BW / "domain.pddl", BW / "problem.pddl"
PLAN = ["(unstack c a)", "(put_down c)", "(pick_up b)", "(stack b d)", "(pick_up a)", "(stack a b)"]


def test_one_answer_table_says_what_was_read():
    r = run("validate", DOM, PROB, BW / "09-two-fences-last.txt", "--from-text")
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines() == [
        "valid: 6 step(s), goal reached, cost 6",
        "read from the answer's lines 11-16 (6 pddl, the last of 2 plans in it): " + " ".join(PLAN)]


def test_one_answer_json_has_the_plan_as_read():
    r = run("validate", DOM, PROB, BW / "08-step-with-commentary.txt", "--from-text", "-f", "json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["valid"] and out["plan_length"] == 6
    x = out["extracted"]
    assert x["plan"] == PLAN and x["how"] == ["english"] * 6 and x["unmatched"] == []
    assert x["at"][0] == "1:9" and x["lines"] == [1, 6] and x["blocks"] == 1


def test_without_the_option_an_answer_is_an_unreadable_plan_and_the_output_is_unchanged():
    r = run("validate", DOM, PROB, BW / "06-numbered-english.txt")
    assert r.exit_code == 1 and "unreadable" in r.stdout
    assert "expected one action like (stack b1 b2) per line" in r.stdout
    plain = run("validate", DOM, PROB, BW / "04-numbered-pddl.txt", "-f", "json")
    assert plain.exit_code == 1 and json.loads(plain.stdout)["status"] == "unreadable"  # "1. (unstack c a)"
    ipc = run("validate", DOM, PROB, BW / "05-ipc-timestamps.txt", "-f", "json")
    assert ipc.exit_code == 0 and "extracted" not in json.loads(ipc.stdout)


def test_an_invalid_plan_read_from_an_answer_exits_1(tmp_path):
    r = run("validate", DOM, PROB, BW / "29-invalid-plan.txt", "--from-text")
    assert r.exit_code == 1
    assert "step 1, (pick_up a), is not applicable" in r.stdout and "read from the answer's lines 2-5" in r.stdout


def test_an_unmatched_sentence_is_a_located_error(tmp_path):
    answer = tmp_path / "answer.txt"
    answer.write_text("Plan:\n1. Unstack c from a.\n2. Move c to the table.\n3. Then do the rest.\n")
    r = run("validate", DOM, PROB, answer, "--from-text", "-f", "json")
    assert r.exit_code == 1  # a verdict: unreadable at step 2, after step 1 ran
    v = json.loads(r.stdout)
    assert v["status"] == "unreadable" and v["failed_step"] == 2 and v["executable_prefix"] == 1
    assert v["error"] == (f"{answer}:3:4: step 2 not read: 'Move c to the table.': a list item that names no "
                          "action (1 more sentence(s) not read)")
    p = run_module("validate", DOM, PROB, answer, "--from-text")  # the real entry point: the same
    assert p.returncode == 1 and "step 2 not read" in p.stdout


def test_several_answer_files_one_verdict_each(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("First, pick up b. Then stack it on d.")
    r = run("validate", DOM, PROB, BW / "07-first-then-prose.txt", bad, "--from-text", "-f", "json")
    assert r.exit_code == 1
    good, wrong = map(json.loads, r.stdout.splitlines())
    assert good["valid"] and good["extracted"]["plan"] == PLAN
    assert wrong["status"] == "unreadable" and wrong["failed_step"] == 2 and wrong["executable_prefix"] == 1
    assert wrong["error"].startswith(f"{bad}:1:24: step 2")
    assert wrong["extracted"]["plan"] == ["(pick_up b)"]
    assert wrong["extracted"]["unmatched"][0]["text"] == "stack it on d"
    table = run("validate", DOM, PROB, BW / "07-first-then-prose.txt", bad, "--from-text")
    assert "1 valid, 0 invalid, 1 unreadable" in table.stdout


def test_a_batch_of_answers(tmp_path):
    batch = tmp_path / "answers.jsonl"
    rows = [{"problem": str(PROB), "plan": str(BW / "19-planbench-tags.txt")},
            {"problem": str(PROB), "plan": "1. Unstack c from a.\n2. Put c down.", "name": "inline"},
            {"problem": str(PROB), "plan": ["Unstack c from a.", "Jump."], "name": "list"},
            {"problem": str(PROB), "plan": "(unstack c a)\n(stack c c)", "name": "bad-step"}]
    batch.write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    r = run("validate", DOM, "--batch", batch, "--from-text", "-f", "json")
    assert r.exit_code == 1, r.output
    out = {x["name"]: x for x in map(json.loads, r.stdout.splitlines())}
    first = out[str(BW / "19-planbench-tags.txt")]
    assert first["valid"] and first["extracted"]["plan"] == PLAN
    inline = out["inline"]
    assert not inline["valid"] and inline["failed_step"] is None and inline["error"] is None
    assert inline["unmet_goals"] and inline["extracted"]["plan"] == ["(unstack c a)", "(put_down c)"]
    assert out["list"]["extracted"]["plan"] == ["(unstack c a)"] and out["list"]["extracted"]["unmatched"] == []
    bad = out["bad-step"]
    assert not bad["executable"] and bad["failed_step"] == 2 and bad["extracted"]["plan"][1] == "(stack c c)"


def test_a_batch_answer_that_cannot_be_read_is_located_in_the_answer(tmp_path):
    batch = tmp_path / "answers.jsonl"
    batch.write_text(json.dumps({"problem": str(PROB), "plan": "1. (unstack c a)\n2. Fly away."}) + "\n")
    r = run("validate", DOM, "--batch", batch, "--from-text", "-f", "json")
    (row,) = map(json.loads, r.stdout.splitlines())
    assert row["error"] == (f"{batch}:1: answer line 2, column 4: step 2 not read: 'Fly away.': "
                            "a list item that names no action")
    assert row["failed_step"] == 2 and row["extracted"]["unmatched"][0]["at"] == "2:4"
