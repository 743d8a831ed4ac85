"""A fuzz and property-based corpus for hostile input (issue 13).

Real inputs of every kind the command line reads (domains, problems, plans, trajectories,
JSON state files, literals and actions typed on the command line) are mutated by a seeded
generator (`mutations`), and every command that reads them is run on each mutant (`runner`):

  valid mutations   (line endings, byte-order mark, comments, case, renaming, reordering,
                    empty `(and)`, whitespace) must give the result of the original;
  faults            (an undefined predicate, a wrong arity, an unknown object, a wrong type,
                    an `either` type, an unbalanced parenthesis, a duplicate JSON key, ...)
                    put at a known token must be refused with exit 2 at exactly that file,
                    line and column;
  random damage     (flipped, deleted, duplicated, swapped characters, truncation, deep
                    nesting, /dev/zero) may be accepted or refused, but never with an
                    internal error, a traceback, a hang or an exit code outside 0-3, and a
                    refusal names one of the input files and a line that exists.

`python -m tests.fuzz.corpus --inputs 1000` runs the long corpus and prints the count per
outcome class; tests/fuzz/test_fuzz.py runs a quick slice in every test run and the long
one with `pytest -m fuzz`. The reader here (`sexp`) is our own small one, independent of
amlasp's: the expected positions do not come from the code under test.
"""
