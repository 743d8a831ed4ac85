"""files.py: where paths from options and inputs may lead (outputs never onto inputs, writes inside
their folder after links and `..`, names in JSON and manifests inside their folder)."""

from __future__ import annotations

import os

import pytest

from amlasp.errors import InputError
from amlasp.files import inside, plain_name, refuse_overwrite, within


def test_an_output_that_is_an_input_through_a_link_or_dotdot_is_refused(tmp_path):
    (tmp_path / "in").mkdir()
    results = tmp_path / "in" / "r.jsonl"
    results.write_text("keep me\n")
    os.symlink(results, tmp_path / "link.txt")
    for out in (tmp_path / "link.txt", tmp_path / "in" / ".." / "in" / "r.jsonl"):
        with pytest.raises(InputError, match="refusing to overwrite the results file"):
            refuse_overwrite(out, [results], "the results file")
    with pytest.raises(InputError):  # a file directly in an input folder is an input
        refuse_overwrite([tmp_path / "new.png", results], [tmp_path / "in"])
    refuse_overwrite([tmp_path / "new.png", None], [results])  # nothing there yet: nothing to lose
    assert results.read_text() == "keep me\n"


def test_inside_resolves_links_and_dotdot(tmp_path):
    root, outside = tmp_path / "keep", tmp_path / "victim"
    root.mkdir()
    outside.mkdir()
    assert inside(root, "sam", "ferry", "p.plan") == root.resolve() / "sam" / "ferry" / "p.plan"
    os.symlink(outside, root / "sam")
    for parts in (("..", "victim", "p.plan"), ("sam", "p.plan"), ("a", "..", "..", "x")):
        with pytest.raises(InputError, match="refusing to write outside"):
            inside(root, *parts)


@pytest.mark.parametrize("name", ["", ".", "..", "../victim", "a/b", "a\\b", "nul\0byte", "/etc"])
def test_a_name_that_is_not_one_path_part_is_refused(name):
    with pytest.raises(InputError, match="cannot be a file or folder name"):
        plain_name(name, "the learner")


def test_plain_names_pass():
    for name in ("sam", "SAM-2.v1", "...", "a b", "ß"):
        assert plain_name(name, "the learner") == name


@pytest.mark.parametrize("name", ["/etc/hostname", "../../etc/passwd", "..", "a/../../b", "", "x\0y"])
def test_names_in_json_and_manifests_stay_in_their_folder(tmp_path, name):
    assert within(tmp_path, name) is None


def test_names_inside_their_folder_are_kept(tmp_path):
    assert within(tmp_path, "p.pddl") == tmp_path / "p.pddl"
    assert within(tmp_path, "a/../p.pddl") == tmp_path / "a/../p.pddl"
    assert within(tmp_path, "./sub/p.pddl") == tmp_path / "sub" / "p.pddl"
