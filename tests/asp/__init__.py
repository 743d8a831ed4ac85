"""Unit tests of amlasp/asp/, one module each."""
