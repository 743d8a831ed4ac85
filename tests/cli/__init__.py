"""Tests of amlasp/cli/."""
