"""Tests of amlasp/render/."""
