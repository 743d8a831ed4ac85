"""amlasp/metrics/evaluate/chunks.py: chunks of whole files in the serial order, and a Dask worker's copy of a
chunk's files, whose paths are put back as given (absolute, relative, climbing out with `..`)."""

from __future__ import annotations

import os
from pathlib import Path

from amlasp.metrics.evaluate import chunks
from amlasp.metrics.evaluate.chunks import EvalChunk, bundle, mirror, plan
from amlasp.pddl.parse import load_domain
from tests.support.paths import IPC

REF = load_domain(IPC / "domains" / "blocksworld.pddl")


def chunk(files: tuple[str, ...], dirs: tuple, texts=()) -> EvalChunk:
    return EvalChunk(REF, REF, files, dirs, False, True, False, 100, fresh=False, texts=texts)


def test_chunks_are_whole_files_in_order(tmp_path, monkeypatch):
    files = []
    for k, size in enumerate([10, 10, 10, 50, 5, 5]):
        f = tmp_path / f"{k}.jsonl"
        f.write_text("x" * size)
        files.append(f)
    monkeypatch.setattr(chunks, "CHUNK_BYTES", 20)
    got = plan(files, 1, lambda paths: paths)
    assert got == [(str(files[0]), str(files[1])), (str(files[2]),), (str(files[3]),), (str(files[4]), str(files[5]))]
    assert plan(files, 100, lambda paths: paths) == [(str(f),) for f in files]  # many workers: a file a chunk


def test_a_workers_copy_puts_every_path_back(tmp_path, monkeypatch):
    here = tmp_path / "a" / "b"
    here.mkdir(parents=True)
    monkeypatch.chdir(here)
    (tmp_path / "a" / "up.traj").write_text("up")
    (here / "probs").mkdir()
    (here / "probs" / "p.pddl").write_text("p")
    absolute = tmp_path / "abs.json"
    absolute.write_text("{}")
    files = ("../up.traj", str(absolute))
    texts = bundle(list(files), ["probs"])
    assert dict(texts) == {"../up.traj": b"up", str(absolute): b"{}", "probs/p.pddl": b"p"}
    with mirror(chunk(files, ("probs",), texts)) as m:
        for path, data in texts:
            local = m.local(path)
            assert local != path and Path(local).read_bytes() == data
            assert m.fix(f"{local}:3:4: message") == f"{path}:3:4: message"
        assert os.path.isdir(m.local("probs"))
        root = m.root
    assert not os.path.exists(root)  # removed after the chunk
    with mirror(chunk(files, ("probs",))) as m:  # no texts: the files in place
        assert m.local("../up.traj") == "../up.traj" and m.fix("x") == "x"


def where_mirrored(chunk: EvalChunk, report) -> tuple[str, str]:
    from distributed import get_worker
    with mirror(chunk) as m:
        return m.root, get_worker().local_directory


def test_a_dask_workers_copy_is_in_the_workers_folder(tmp_path, monkeypatch):
    """In a Dask worker the copy is under the worker's own folder, which Dask removes with a dead worker: a
    worker ended mid-chunk (interrupted, out of memory) left its copy in the system's temporary folder."""
    import pytest
    pytest.importorskip("dask.distributed")
    from amlasp.choices import Executor
    from amlasp.jobs import Jobs, run_chunks
    from tests.support.paths import ROOT
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    (tmp_path / "s.jsonl").write_text("{}")
    monkeypatch.chdir(tmp_path)
    [(_, (root, folder))] = run_chunks(where_mirrored, [chunk(("s.jsonl",), (None,), bundle(["s.jsonl"], [None]))],
                                       Jobs(1, Executor.DASK))
    assert Path(root).parent == Path(folder)
