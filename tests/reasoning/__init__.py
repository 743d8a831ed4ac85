"""Unit tests of amlasp/reasoning/, one module each."""
