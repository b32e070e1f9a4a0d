"""A merge can join two branches that each added a private helper of the same name to one module: Python keeps the
later definition silently, and every caller of the earlier one breaks at run time (the forty-seventh round's merge:
opproject's two `_registers_tiling`, one taking a text, one texts and an op type; every project build failed). Each
module defines each top-level name once (fastcore's `@patch` methods, which leave the module name alone, aside)."""
import ast
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _defined_twice(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    names = [n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
             and not any(isinstance(d, ast.Name) and d.id == "patch" for d in n.decorator_list)]
    return sorted(name for name, n in Counter(names).items() if n > 1)


def test_no_module_defines_a_top_level_function_or_class_twice():
    files = sorted([*(ROOT / "ascendcraft").rglob("*.py"), *(ROOT / "examples").rglob("*.py")])
    assert len(files) > 50
    twice = {str(f.relative_to(ROOT)): names for f in files if (names := _defined_twice(f))}
    assert not twice, twice


def test_the_check_sees_a_name_defined_twice(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("def a(x): pass\n\ndef b(): pass\n\ndef a(x, y): pass\n\n@patch\ndef b(self: int): pass\n")
    assert _defined_twice(f) == ["a"]
