"""The grouping that lets the suite run on a worker per core (`pytest -n auto --dist loadgroup`, tests/conftest.py):
tests that share a module-scoped fixture get one xdist group (so the fixture is built once), tests that share nothing
get none (so they spread), the workbench notebooks share one, and a serial run is left exactly as collected."""
import importlib.util
import types
from pathlib import Path

import pytest


def _suite_conftest():
    "tests/conftest.py itself: `import conftest` may find another conftest module (tests/browser/) under xdist."
    spec = importlib.util.spec_from_file_location("suite_conftest", Path(__file__).with_name("conftest.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


conftest = _suite_conftest()

pytest_plugins = ["pytester"]

SAMPLE = '''
import pytest

@pytest.fixture(scope="module")
def built():
    return object()

def test_uses_it(built): pass
def test_uses_it_too(built): pass
def test_alone(tmp_path): pass
'''


def collected(pytester):
    pytester.makepyfile(test_sample=SAMPLE)
    items, _ = pytester.inline_genitems()
    return items


def groups(items) -> dict:
    return {i.name: [m.args[0] for m in i.iter_markers("xdist_group")] for i in items}


def test_a_shared_module_fixture_is_one_group_and_the_rest_spread(pytester):
    items = collected(pytester)
    config = types.SimpleNamespace(option=types.SimpleNamespace(numprocesses=2))
    conftest.pytest_collection_modifyitems(config, items)
    assert groups(items) == {"test_uses_it": ["test_sample"], "test_uses_it_too": ["test_sample"], "test_alone": []}


def test_a_serial_run_is_left_as_collected(pytester):
    items = collected(pytester)
    order = [i.name for i in items]
    conftest.pytest_collection_modifyitems(types.SimpleNamespace(option=types.SimpleNamespace(numprocesses=None)), items)
    assert [i.name for i in items] == order and all(not g for g in groups(items).values())


def test_the_workbench_notebooks_run_one_after_the_other():
    for name in conftest.TOGETHER["workbench-notebooks"]:
        item = types.SimpleNamespace(callspec=types.SimpleNamespace(id=name))
        assert conftest._shared_fixture_group(item) == "workbench-notebooks"
    assert conftest._shared_fixture_group(types.SimpleNamespace(callspec=types.SimpleNamespace(id="02_dsl"))) is None
