"""The 54-task benchmark suite through the real harness, its pooling, reduce and mHC part (13 tasks).

The checks are tests/_bench_suite_checks.py's, run here on this part's tasks (`PART`, a key of tests/_bench_suite.py's
`PARTS`); the other parts are the other tests/test_bench_suite_*.py files, so that two xdist workers share the run.
"""
from _bench_suite_checks import *  # noqa: F401,F403  the fixture, the per-task parametrization and the checks

PART = "pool_reduce_mhc"
