"""Tests against amlasp/external/ and the independent implementations it wraps (unified-planning)."""
