"""Every module the tests and notebooks import at their top level is installed by `pip install -e ".[dev]"`.

CI installs only the `dev` extra (`.ci/run`), while a developer's venv often holds more (the `corpus` extra, tools
installed by hand). A test file importing such a package passes here and fails CI at collection, before any test runs:
the eighth stop lost its CI run to `import ml_dtypes` in a test. This check reads the imports with `ast` (imports
inside code strings, such as task sources, are not imports) and resolves each top-level name to stdlib, the project,
a helper module beside the tests, or a distribution in the `dev` extra's dependency closure.
"""
import ast
import json
import re
import sys
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def _canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def dev_closure(project="ascendcraft", extras=("dev",)):
    """The distributions `pip install project[extras]` installs, found from the installed metadata."""
    seen, todo = set(), [(project, tuple(extras))]
    while todo:
        dist_name, dist_extras = todo.pop()
        key = (_canonical(dist_name), dist_extras)
        if key in seen:
            continue
        seen.add(key)
        try:
            requires = metadata.requires(dist_name) or []
        except metadata.PackageNotFoundError:
            continue
        for text in requires:
            req = Requirement(text)
            environments = [{"extra": e} for e in dist_extras] or [{"extra": ""}]
            if req.marker is not None and not any(req.marker.evaluate(env) for env in environments):
                continue
            todo.append((req.name, tuple(sorted(req.extras))))
    return {name for name, _ in seen}


def top_level_imports(source):
    """Top-level module names imported at module level (not inside functions, classes or `try` blocks)."""
    names = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def notebook_source(path):
    cells = json.loads(path.read_text())["cells"]
    code = []
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        text = "".join(cell["source"])
        # IPython magics and shell escapes are not Python.
        code.append("\n".join(line for line in text.splitlines() if not line.lstrip().startswith(("%", "!"))))
    return "\n\n".join(code)


def local_names():
    """Helper modules the tests import from beside themselves (conftest puts their folders on sys.path), and the
    examples' modules that notebooks put on sys.path (`examples/own_operator/tiny_llama.py`)."""
    names = {"ascendcraft"}
    folders = [ROOT / "tests", ROOT / "examples"]
    for folder in [*folders, *(p for top in folders for p in top.rglob("*") if p.is_dir())]:
        names |= {p.stem for p in folder.glob("*.py")}
        names |= {p.name for p in folder.iterdir() if p.is_dir()}
    return names


def unavailable(sources, closure, locals_):
    modules = metadata.packages_distributions()
    missing = {}
    for where, source in sources:
        for name in top_level_imports(source):
            if name in sys.stdlib_module_names or name in locals_:
                continue
            dists = {_canonical(d) for d in modules.get(name, [])}
            if not dists & closure:
                missing.setdefault(name, []).append(where)
    return missing


def test_resolver_sees_a_package_outside_the_dev_extra():
    """The check can fail: a name from no distribution of the closure is reported. The dev extra takes the corpus extra
    (scipy, ml-dtypes: the corpus harness's tests run the examples' data scripts), the plain install neither, nor
    pytest."""
    closure = dev_closure()
    assert {"torch", "pytest", "nbdev", "ipywidgets", "scipy", "ml-dtypes"} <= closure
    plain = dev_closure(extras=())
    assert "torch" in plain and not {"scipy", "ml-dtypes", "pytest"} & plain
    found = unavailable([("t.py", "import scipy\nimport ml_dtypes\nimport pytest\nimport numpy\nimport os\n")], plain,
                        set())
    assert set(found) == {"scipy", "ml_dtypes", "pytest"}
    # Imports inside functions and try blocks are optional paths, and names inside strings are not imports.
    assert top_level_imports("def f():\n    import scipy\ntry:\n    import ray\nexcept ImportError:\n    pass\n"
                             "x = 'import ml_dtypes'\n") == set()


def test_tests_and_notebooks_import_only_what_dev_installs():
    # tests/upstream_mkb holds upstream task files as data: the suite loads them with torch_npu and einops stood in.
    data = ROOT / "tests" / "upstream_mkb"
    sources = [(str(p.relative_to(ROOT)), p.read_text()) for p in sorted((ROOT / "tests").rglob("*.py"))
               if data not in p.parents]
    sources += [(str(p.relative_to(ROOT)), notebook_source(p)) for p in sorted((ROOT / "nbs").glob("*.ipynb"))]
    sources += [(str(p.relative_to(ROOT)), p.read_text()) for p in sorted((ROOT / "ascendcraft").glob("*.py"))]
    missing = unavailable(sources, dev_closure(), local_names())
    assert not missing, ("imported at module level but not installed by the `dev` extra that CI installs "
                         f"(add it to pyproject's dev extra, or import it inside the test with pytest.importorskip): "
                         f"{missing}")
