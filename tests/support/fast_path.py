"""A fast path's outcome against the passes': what a read gives with it and with it giving None."""

from __future__ import annotations

import warnings
from typing import Callable

from amlasp.errors import InputError


def outcome(read: Callable[[], object], fast: bool, module: object, name: str, monkeypatch) -> tuple:
    """What `read()` gives with the fast path `module.name` or without it (it then gives None, and the passes
    read): the value or the InputError (its class and text), and the warnings said."""
    if not fast:
        monkeypatch.setattr(module, name, lambda *a: None)
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            try:
                got: object = read()
            except InputError as e:
                got = (type(e), str(e))
    finally:
        monkeypatch.undo()
    return got, [str(w.message) for w in seen]
