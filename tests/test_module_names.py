"""A module's top-level names are bound once. nbdev exports every cell of a notebook into one namespace, so a later
cell's global of the same name silently replaces an earlier one: this round two helpers each added `_UNDECLARED_RE` to
10_emu.ipynb, the second (a compile-retry rule's pattern) replaced the first, and every "is not a member of 'AscendC'"
error lost its hint. fastcore's `@patch` methods are bound on their class, not in the module, and are left out."""
import ast
from collections import Counter
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "ascendcraft"
MODULES = sorted(p for p in PKG.glob("*.py") if p.name != "_modidx.py")


def _is_patch(node) -> bool:
    return any(isinstance(d, ast.Name) and d.id == "patch" or isinstance(d, ast.Call) and getattr(d.func, "id", "") == "patch"
               for d in getattr(node, "decorator_list", []))


def bound_twice(source: str) -> dict:
    names = Counter()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and not _is_patch(node):
            names[node.name] += 1
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            names[node.target.id] += 1
    return {n: k for n, k in names.items() if k > 1}


def test_the_check_sees_a_second_binding_and_not_a_patch_method():
    assert bound_twice("X = 1\ndef f(): pass\nX = 2\n") == {"X": 2}
    assert bound_twice("def save(a, b): pass\n@patch\ndef save(self: C): pass\n") == {}


@pytest.mark.parametrize("module", MODULES, ids=[p.stem for p in MODULES])
def test_no_top_level_name_is_bound_twice(module):
    assert not bound_twice(module.read_text()), f"{module.name}: bound twice at top level: {bound_twice(module.read_text())}"
