"""Tables for people: laid out when drawn, for the width they get, so that no number is ever cut.

Rich alone squeezes a table that is too wide by cutting cells (`1.…`). Here the numbers' columns
keep their widest number, right-aligned; labels fold; a narrower layout (P above R) is tried next;
and a table that still does not fit is drawn in parts that repeat the labels. Imported only when a
table is drawn (`formats.rich_table`), so that a JSON answer never loads rich.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Iterator, Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.table import Table
from rich.text import Text

from .escape import markup
from .numbers import fmt

#: A cell that reads as a number: right-aligned, and never folded or cut.
_NUMBER = re.compile(r"^(?:[-+]?[0-9][0-9.,e+-]*%?|n/a|yes|no|—|-)(?:/(?:[-+]?[0-9][0-9.,e+-]*|n/a))*"
                     r"(?: ± [0-9][0-9.,e+-]*)?$")  # 1.000, 0.83/1.00, 0/1/0, 0.600 ± 0.141, n/a
#: The width a label (a text column) keeps at least before the table is split; longer words fold.
LABEL_MIN = 10


@dataclass(frozen=True)
class Layout:
    """One way to lay a table out: its column headers and its rows of cells (plain text, escaped when drawn,
    so that a name `[/bold]` prints as itself; an `escape.Markup` cell is console markup of ours).

    `lines`: a rule between rows (for cells of several lines, such as P over R); `caption`: this
    layout's own caption (else the table's); `whole`: the columns (by header) whose cells are never
    folded, as numbers are not (an id cut across two lines is two wrong ids)."""

    columns: Sequence[str]
    rows: Sequence[Sequence[Any]]
    lines: bool = False
    caption: str | None = None
    whole: frozenset[str] = frozenset()

    def cells(self) -> list[list[str]]:
        return self._cells

    @cached_property
    def _cells(self) -> list[list[str]]:  # measured for every layout tried: escaped once
        return [[markup(c) if isinstance(c, str) else fmt(c) for c in r] for r in self.rows]

    def headers(self) -> list[str]:
        return [markup(c) for c in self.columns]


class FitTable:
    """A table laid out when it is drawn, for the width it gets, so that no number is ever cut.

    The first layout whose every number fits is drawn: at its natural width when that fits, else
    with the numbers' columns as narrow as their widest number (their headers wrap) and the labels
    folded into what is left. When no layout fits, the last one is drawn in several parts, each
    repeating the first `keep` columns (the labels). Rich alone would cut numbers to `1.…`."""

    def __init__(self, title: str, layouts: Sequence[Layout], caption: str | None = None, keep: int = 1):
        self.title, self.layouts, self.caption, self.keep = title, list(layouts), caption, keep

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Table]:
        width = options.max_width
        for layout in self.layouts:
            plan = _plan(layout, width)
            if plan is not None:
                yield _draw(self.title, layout, plan, layout.caption or self.caption)
                return
        yield from self._split(self.layouts[-1], width)

    def _split(self, layout: Layout, width: int) -> Iterator[Table]:
        """The columns after the first `keep` in as few groups as fit, of even sizes where that
        fits too, each group a table of its own that repeats the labels."""
        cells = layout.rows
        keep = list(range(min(self.keep, len(layout.columns))))

        def part(cols: list[int]) -> Layout:
            return Layout([layout.columns[j] for j in keep + cols], [[r[j] for j in keep + cols] for r in cells],
                          layout.lines, layout.caption, layout.whole)

        groups: list[list[int]] = [[]]
        for i in range(len(keep), len(layout.columns)):  # greedy: how many groups are needed
            if groups[-1] and _plan(part(groups[-1] + [i]), width) is None:
                groups.append([])
            groups[-1].append(i)
        rest = list(range(len(keep), len(layout.columns)))
        k = len(groups)
        even = [rest[g * len(rest) // k:(g + 1) * len(rest) // k] for g in range(k)]
        if all(_plan(part(g), width) is not None for g in even):
            groups = even
        for n, group in enumerate(groups):
            p = part(group)
            title = f"{self.title} ({n + 1}/{len(groups)})" if self.title else None
            caption = (layout.caption or self.caption) if n == len(groups) - 1 else None
            yield _draw(title, p, _plan(p, width) or _squeezed(p), caption)  # squeezed: one column too wide


@dataclass(frozen=True)
class _Plan:
    widths: list[int] | None  # None: rich's natural widths
    numeric: list[bool]


def _words(text: str) -> list[str]:
    return text.split() or [""]


def _measure(layout: Layout) -> tuple[list[int], list[int], list[bool]]:
    """Per column: the width it needs (its widest number, or a label's LABEL_MIN), the width it
    wants (nothing wrapped), and whether it holds numbers."""
    rows = layout.cells()
    need, want, numeric = [], [], []
    for i, header in enumerate(layout.headers()):
        head = Text.from_markup(header).plain
        plain = [Text.from_markup(r[i]).plain for r in rows]
        lines = [x for p in plain for x in p.split("\n")]
        num = i > 0 and any(x.strip() for x in lines) and all(_NUMBER.match(x.strip()) for x in lines if x.strip())
        words = max((cell_len(w) for x in [head] + lines for w in _words(x)), default=1)
        full = max([cell_len(x) for x in head.split("\n")] + [cell_len(x) for x in lines])
        widest_cell = max((cell_len(x) for x in lines), default=0)
        whole = layout.columns[i] in layout.whole
        need.append(max(widest_cell, max(cell_len(w) for w in _words(head))) if num or whole
                    else min(words, LABEL_MIN))
        want.append(max(full, 1))
        numeric.append(bool(num))
    return need, want, numeric


def _plan(layout: Layout, width: int) -> _Plan | None:
    need, want, numeric = _measure(layout)
    room = width - (len(need) + 1) - 2 * len(need)  # borders and padding
    if sum(want) <= room:
        return _Plan(None, numeric)
    if sum(need) > room:
        return None
    widths = list(need)
    spare = room - sum(widths)
    # labels first (a folded name reads worse than a wrapped header), then the numbers' headers
    for cols in ([i for i, n in enumerate(numeric) if not n], [i for i, n in enumerate(numeric) if n]):
        spare = _fill(widths, want, cols, spare)
    return _Plan(widths, numeric)


def _fill(widths: list[int], want: list[int], cols: list[int], spare: int) -> int:
    """Widen `cols` towards what they want with `spare` columns, the narrowest first (as water
    fills a vessel: a long proof text gives way before a short name is folded); the rest is returned."""
    def cost(cap: int) -> int:
        return sum(max(widths[i], min(cap, want[i])) - widths[i] for i in cols)
    lo, hi = 0, max((want[i] for i in cols), default=0)
    while lo < hi:  # the highest level the spare reaches
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if cost(mid) <= spare else (lo, mid - 1)
    spare -= cost(lo)
    for i in cols:
        widths[i] = max(widths[i], min(lo, want[i]))
    for i in cols:  # what the level leaves: one column each to those still short
        if spare and widths[i] < want[i]:
            widths[i] += 1
            spare -= 1
    return spare


def _squeezed(layout: Layout) -> _Plan:
    need, _, numeric = _measure(layout)
    return _Plan(need, numeric)


def _draw(title: str | None, layout: Layout, plan: _Plan, caption: str | None) -> Table:
    table = Table(title=None if title is None else markup(title), caption=None if caption is None else markup(caption),
                  caption_justify="left", header_style="bold", show_lines=layout.lines)
    for i, c in enumerate(layout.headers()):
        table.add_column(c, justify="right" if plan.numeric[i] else "left",
                         width=None if plan.widths is None else plan.widths[i],
                         overflow="fold")
    for r in layout.cells():
        table.add_row(*r)
    return table


__all__ = ["FitTable", "Layout", "LABEL_MIN"]
