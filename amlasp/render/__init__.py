"""Rendering results: rich tables for people; JSON, CSV, Markdown and LaTeX for machines and papers.

Nothing in the core imports this package: results are data (`to_dict`, `to_frame`), and long
work reports progress through a callback. Here they become text.

- `numbers`: numbers for people (`fmt`), the one formatting of a cell, below `formats` and `tables`.
- `formats`: JSON, CSV, Markdown, LaTeX and rich tables from plain rows (the `--format` Enum lives in
  `amlasp.choices`); `tables`: tables fitted to the terminal (`FitTable`), loaded when one is drawn.
- `exports`: the metric results' tidy tables (`to_frame()`'s rows) as CSV, Markdown and LaTeX; `-o`'s
  extension names the format; a CSV's summary table goes beside it.
- `output`: the one way a command delivers its result, to stdout or atomically to `-o FILE`.
- `progress`: the progress bar on stderr, the command line's side of `progress(stage, done, total)`.
- `compare`, `evaluate`, `solve`, `bench`, `reasoning`: each result's rows, summaries and texts.
- `plots`: the paper's tables as bar charts (matplotlib).
"""
