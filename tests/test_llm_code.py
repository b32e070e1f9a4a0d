"""Fenced-code extraction from LLM replies: the tolerant cases and the two ways it fails."""
import pytest

from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.llm import extract_all_code, extract_code, scan_code_blocks


def kind_of(call) -> tuple[str, object]:
    with pytest.raises(AscendCraftError) as info:
        call()
    return info.value.kinds[0], info.value.diagnostics[0]


@pytest.mark.parametrize("reply, code", [
    ("```python\nx = 1\n```", "x = 1\n"),
    ("Sure! Here is the kernel:\n\n```py\nx = 1\n```\nIt adds.", "x = 1\n"),
    ("```Python\nx = 1\n```", "x = 1\n"),
    ("```python3\nx = 1\n```", "x = 1\n"),
    ("~~~python\nx = 1\n~~~", "x = 1\n"),
    ("```\nx = 1\n```", "x = 1\n"),                                    # untagged
    ("```python\r\nx = 1\r\n```\r\n", "x = 1\n"),                         # CRLF
    ("```python title=relu.py\nx = 1\n```", "x = 1\n"),
    ("```text\nnot this\n```\n```python\nx = 1\n```", "x = 1\n"),         # a matching tag beats an earlier other tag
    ("```\nuntagged\n```\n```python\nx = 1\n```", "x = 1\n"),             # and an earlier untagged block
    ("```python\nfor i in range(3):\n    y(i)\n\n\n```", "for i in range(3):\n    y(i)\n"),
    ("  ```python\n  x = 1\n    y = 2\n  ```", "x = 1\n  y = 2\n"),       # indented fence, relative indent kept
    ("````python\n```\nx = 1\n```\n````", "```\nx = 1\n```\n"),           # longer fence holds a shorter one
    ("<think>\nmaybe\n```python\ndraft = 0\n```\n</think>\nFinal:\n```python\nx = 1\n```", "x = 1\n"),
])
def test_extract_code_tolerates_how_models_write_fences(reply, code):
    assert extract_code(reply) == code


def test_other_languages_and_aliases():
    reply = "```c++\nint a;\n```\n```python\nb = 1\n```"
    assert extract_code(reply, ["cpp"]) == "int a;\n"
    assert extract_code(reply, ["python"]) == "b = 1\n"
    assert extract_code(reply, ["rust", "python"]) == "b = 1\n"


def test_missing_closing_fence_is_truncated_with_the_partial_code_and_its_line():
    kind, d = kind_of(lambda: extract_code("Plan first.\n\n```python\ndef f(x):\n    return x +"))
    assert kind == "llm-truncated"
    assert (d.file, d.line, d.source_line) == ("<llm-reply>", 3, "```python")
    assert d.context["code"] == "def f(x):\n    return x +\n"
    assert "max_tokens" in d.hint


def test_truncated_inside_another_language_before_any_wanted_block():
    kind, _ = kind_of(lambda: extract_code("```cpp\nint x = ", ["python"]))
    assert kind == "llm-truncated"


@pytest.mark.parametrize("reply, found", [
    ("def f(x): return x", "no fenced code block at all"),
    ("```cpp\nint x;\n```\n```bash\nls\n```", "in: bash, cpp"),
])
def test_no_code_names_what_the_reply_has(reply, found):
    kind, d = kind_of(lambda: extract_code(reply))
    assert kind == "llm-no-code"
    assert found in d.hint and "```python" in d.hint
    assert d.context["text"] == reply


def test_an_empty_block_is_no_code():
    kind, d = kind_of(lambda: extract_code("```python\n   \n```"))
    assert kind == "llm-no-code" and "empty" in d.message and d.line == 1


def test_extract_all_code_returns_titled_files_in_order():
    reply = ("Kernel:\n```cpp title=\"add_custom.cpp\"\nK\n```\n"
             "Tiling:\n~~~cpp filename=add_tiling.h\nT\n~~~\n"
             "Host:\n```cpp host.cpp\nH\n```\n"
             "Notes:\n```\nplain\n```\n")
    blocks = extract_all_code(reply)
    assert [(b.title, b.language, b.code, b.line) for b in blocks] == [
        ("add_custom.cpp", "cpp", "K\n", 2), ("add_tiling.h", "cpp", "T\n", 6), ("host.cpp", "cpp", "H\n", 10),
        ("", "", "plain\n", 14)]


def test_extract_all_code_failures():
    assert kind_of(lambda: extract_all_code("just prose"))[0] == "llm-no-code"
    kind, d = kind_of(lambda: extract_all_code("```cpp a.cpp\nA\n```\n```cpp b.cpp\nB"))
    assert kind == "llm-truncated"
    assert [b.title for b in d.context["complete"]] == ["a.cpp"] and d.line == 4


def test_scan_reports_unclosed_blocks_without_raising():
    blocks = scan_code_blocks("```python\na\n```\n```python\nb")
    assert [(b.code, b.closed) for b in blocks] == [("a\n", True), ("b\n", False)]
