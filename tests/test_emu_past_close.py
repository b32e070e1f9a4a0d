"""`emu.past_close`, the one scanner of a bracket pair: the emulator's readers (`core_type_templates`,
`member_class_specialisations`, `constexpr_member_defaults`, `hoisted_local_constants`, `gm_member_arrays`,
`file_scope_types`, opproject's `_tiling_read_at`, emu_kind's `_body_span`, bench's `_scope_statements`) and the corpus
scripts' readers (cannops_by_hand's `call_args`, corpus.py's `_balanced` and brace loops, catlass.py, evokernel.py, mkb.py,
pybind_calls' `_function_end`) go through it. Before, `emu._closing_brace`, `call_args`, corpus.py's `_closing` and those
loops were scanners of their own; these tests pin the contract they share (each gives what it gave before)."""
import pytest

from _corpus import load_beside
from ascendcraft.emu import past_close


@pytest.mark.parametrize("pair", ["{}", "()", "[]", "<>"])
def test_past_close_skips_nested_pairs_and_ignores_the_others(pair):
    o, c = pair
    others = "".join(p for p in "{}()[]<>" if p not in pair)
    code = f"x{o}a{o}b{o}{c}{c}{others}d{c}tail"
    # opened right before index 2: the index just past its own close, the nested ones and the other brackets skipped
    assert past_close(code, 2, pair) == code.index("tail")
    assert past_close(code, 4, pair) == code.index(f"{c}{others}") + 1    # the nested one
    assert past_close(f"{o}{c}", 1, pair) == 2                            # closed at the last character
    assert past_close(f"{c}", 0, pair) == 1                               # nothing in between


@pytest.mark.parametrize("pair", ["{}", "()", "[]", "<>"])
def test_past_close_is_len_of_the_code_when_never_closed(pair):
    o, c = pair
    assert past_close(f"{o}a{o}b{c}", 1, pair) == 5
    assert past_close("", 0, pair) == 0
    assert past_close(f"{o}{o}", 1, pair) == 2


def test_call_args_returns_the_inner_text_and_raises_no_reference_when_unbalanced():
    cbh = load_beside("cannops_by_hand")
    text = "f(a, g(b, (c)), d) + 1"
    assert cbh.call_args(text, 1) == ("a, g(b, (c)), d", text.index(" + 1"))
    assert cbh.call_args("h()", 1) == ("", 3)
    assert cbh.call_args("h(x)", 1) == ("x", 4)       # the close the last character
    for bad in ("f(a, g(b)", "f((x)"):
        with pytest.raises(cbh.NoReference, match="unbalanced call"):
            cbh.call_args(bad, 1)


def test_the_emulators_brace_readers_find_a_body_past_nested_braces():
    from ascendcraft.emu import core_type_templates, gm_member_arrays
    # a class template's static GM array after a nested brace is its member (gm_member_arrays reads the body up to its
    # own close, through past_close); one after the close is none
    base = ("namespace N {\ntemplate <typename T>\nstruct Base {\n  struct In { int a{0}; };\n{member}};\n{outside}}\n"
            "__global__ void f() {\n  N::Base<float> e;\n}\n")
    array = "  constexpr static __gm__ T t[4] = {0, 1, 2, 3};\n"
    assert gm_member_arrays({"k.cpp": base.replace("{member}", array).replace("{outside}", "")}, ["k.cpp"]) == \
        ["N::Base<float>::t"]
    assert gm_member_arrays({"k.cpp": base.replace("{member}", "").replace("{outside}", array)}, ["k.cpp"]) == []
    # `if constexpr (...)` naming g_coreType inside nested parentheses becomes a plain if; one that does not stays
    code = "void f() {\n    if constexpr ((g_coreType == AscendC::AIC)) { a(); }\n    if constexpr ((N > 1)) { b(); }\n}\n"
    out = core_type_templates(code)
    assert "if constexpr ((N > 1))" in out and "if constexpr ((g_coreType" not in out
    assert len(out.splitlines()) == len(code.splitlines())


def test_the_other_brace_readers_skip_nested_bodies():
    # emu_kind's function body span and bench's namespace-scope statements, both through past_close now
    from ascendcraft.bench import _scope_statements
    from ascendcraft.emu_kind import _body_span
    kernel = "void k() { if (a) { b(); } }\nvoid other() {}\nvoid open() { {"
    assert _body_span(kernel, "k") == (0, len("void k() { if (a) { b(); } }"))
    assert _body_span(kernel, "open") == (kernel.index("void open"), len(kernel))     # unbalanced: to the end
    assert _body_span(kernel, "none") == (0, 0)
    code = "int a = 1;\nvoid f() { if (x) { y(); } }\nstruct S { int b; };\nnamespace n { int c = 2; }\nvoid g() { { }"
    assert [t.strip() for _, t in _scope_statements(code)] == ["int a = 1", "struct S { int b; }", "int c = 2"]


def test_the_corpus_scripts_brace_readers():
    corpus = load_beside("corpus")
    code = "template <typename T> void f(T x) { if (x) { g(); } h(); }\nvoid k() {}\n"
    assert corpus._enclosing_template(code, code.index("h()")) == ("f", ["T"])
    assert corpus._enclosing_template(code, code.index("void k")) is None
    mkb = load_beside("mkb")
    host = ("static ge::graphStatus TilingFunc(gert::TilingContext* c) { if (c) { } auto s = c->GetInputShape(0); }\n"
            "class Op : public OpDef { Op() { this->AICore().SetTiling(TilingFunc); } };\n")
    assert mkb.tiling_reads_shapes(host) is True
    assert mkb.tiling_reads_shapes(host.replace("auto s = c->GetInputShape(0);", "")) is False


def test_the_corpus_scripts_inner_text_and_function_end_readers():
    # corpus._balanced (used by evokernel.py and pybind_calls.py) and pybind_calls._function_end, through past_close
    corpus, pybind_calls = load_beside("corpus"), load_beside("pybind_calls")
    assert corpus._balanced("f(a(b)c) x", 1) == "a(b)c"
    assert corpus._balanced("{x{y}} z", 0, "{}") == "x{y}"
    assert corpus._balanced("f(a(b", 1) == "a(b"                 # never closed: to the end
    assert pybind_calls._function_end("a { b } } rest") == 8      # the index of the body's own closing brace
    assert pybind_calls._function_end("a { b") == 5               # never closed: len(body)
    assert pybind_calls._function_end("}") == 0
