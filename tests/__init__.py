"""The test suite is a package so that its folders can mirror amlasp's (tests/pddl, tests/asp, ...)
without shadowing installed packages of the same name (`pddl`), and so that tests import the
shared registry as `tests.support`."""
