"""The test states of an evaluation, read as they are asked for (`StateReading`): a file at a time, its
problem read once, or the caller's StateSets; and cut into batches of whole StateSets (`state_chunks`)."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from ...errors import InputError
from ...files import path_list
from ...model import Domain, Problem
from ...pddl.inputs import input_files
from ...pddl.jsonl import iter_jsonl_states
from ...pddl.states import StateSet, find_problem_for, load_states
from ...workers import ProgressCallback


class StateReading:
    """The test states, read as they are asked for: a file at a time (its problem read once), or
    the caller's StateSets; how long reading took."""

    def __init__(self, states, ref: Domain, problems, progress: ProgressCallback | None, keep_going: bool = False):
        self.items: Any = [states] if isinstance(states, (str, os.PathLike)) else states
        self.ref, self.progress, self.keep_going = ref, progress, keep_going
        self.erred: list[Path] = []  # with keep_going: the files that could not be read, and why (`errors`)
        self.errors: list[InputError] = []
        self.files = 0  # the state files listed and read
        self.dirs = [None] if problems is None else path_list(problems)
        self.cache: dict[str, Problem] = {}  # one Problem object per problem file or name
        self.problems: dict[str, Problem] = {}  # the problem files read, by path (load_states)
        self.first: str | None = None  # the first path given, for "no test states"
        self.done = False
        self.seconds = 0.0

    def files_only(self) -> bool:
        """Are the states given as files (paths), which a chunk of other processes can read?"""
        return isinstance(self.items, Sequence) and not any(isinstance(x, StateSet) for x in self.items)

    def __iter__(self) -> Iterator[StateSet]:
        items = self.items
        if isinstance(items, Sequence) and not any(isinstance(x, StateSet) for x in items):
            items = input_files(items)  # listed first: the progress bar knows how many files there are
            self.first = str(self.items[0]) if self.items else None
        n = len(items) if isinstance(items, Sequence) else 0
        t = time.perf_counter()
        for i, item in enumerate(items):
            for ss in (item,) if isinstance(item, StateSet) else self._file(item):
                self.seconds += time.perf_counter() - t
                yield ss
                t = time.perf_counter()
            if self.progress and n and not isinstance(item, StateSet):
                self.progress("read", i + 1, n)
        self.done = True
        self.seconds += time.perf_counter() - t

    def _file(self, item: str | Path) -> Iterator[StateSet]:
        for f in input_files([item]):
            self.first = self.first or str(f)
            self.files += 1
            pdir = next((d for d in self.dirs if d is not None and find_problem_for(f, d) is not None), self.dirs[0])
            try:
                sets = (iter_jsonl_states(f, self.ref, pdir, problems=self.problems) if f.suffix == ".jsonl"
                        else load_states([f], self.ref, problems_dir=pdir, problems=self.problems))
                for ss in sets:  # a JSON lines file a part at a time: it may hold a million states
                    ss.problem = self.cache.setdefault(ss.problem.file or ss.problem.name, ss.problem)
                    yield ss
            except InputError as e:  # with keep_going, the file is a row and the next is read
                if not self.keep_going:
                    raise
                self.erred.append(f)
                self.errors.append(e)


def state_chunks(sets: Iterable[StateSet], limit: int) -> Iterator[list[StateSet]]:
    """Whole StateSets, about `limit` states per chunk."""
    chunk: list[StateSet] = []
    n = 0
    for ss in sets:
        if chunk and n + len(ss.states) > limit:
            yield chunk
            chunk, n = [], 0
        chunk.append(ss)
        n += len(ss.states)
    if chunk:
        yield chunk


__all__ = ["StateReading", "state_chunks"]
