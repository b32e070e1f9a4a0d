"""Shared pytest options for the AscendCraft test suite."""


def pytest_addoption(parser):
    parser.addoption("--update-golden", action="store_true", default=False,
                     help="rewrite tests/golden/ from the current lowering instead of comparing against it")
