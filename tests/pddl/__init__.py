"""Unit tests of amlasp/pddl/, one module each."""
