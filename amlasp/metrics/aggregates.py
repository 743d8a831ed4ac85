"""The one vocabulary of aggregates, shared by compare's and eval's summaries (`summary_frame()`).

- *mean over actions*: a figure computed per reference action, then averaged (compare's JSON
  keys end in `_macro`, eval's in `_avg`: the same notion, names kept for compatibility);
- *cumulative*: the counts (TP, FP, FN) summed over the actions first, then the figure.
"""

from __future__ import annotations

#: The columns of every summary table: the figure, its mean over actions, how many actions that
#: mean is over, and its cumulative value (NaN where a figure has no such aggregate).
SUMMARY_COLUMNS = ("metric", "mean_over_actions", "actions", "cumulative")

__all__ = ["SUMMARY_COLUMNS"]
