"""Tests of amlasp/experiments/."""
