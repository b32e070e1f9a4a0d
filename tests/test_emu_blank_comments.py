"""`emu.blank_comments` (comments to spaces, lines and columns kept) is read on every file of a build many times over
(entry, kernel kind, tiling headers, include guards): a corpus op project of thousands of files must blank each text
once per process, not once per pass (a cache of 128 texts did it again on every pass: ops-nn gemm_v3's project
verdict spent 700 of 1,363 s there), and the one-pass form must blank exactly what the character loop did."""
import random
import uuid

from ascendcraft.emu import blank_comments


def by_characters(text: str) -> str:
    "The reference: one character at a time (a literal kept to its closing quote or the line's end)."
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append("".join(c if c == "\n" else " " for c in text[i:j])); i = j
        elif text[i] in "\"'":
            quote, j = text[i], i + 1
            while j < n and text[j] not in (quote, "\n"):
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1]); i = j + 1
        else:
            out.append(text[i]); i += 1
    return "".join(out)


def test_blanks_what_the_character_loop_blanks():
    cases = ['int a; // x "y"\nint b;', 'a /* b\n c */ d', '"// not a comment" /* yes */', "'\"' // c", '"a\\"b" // c',
             'x /*/ y */ z', 'unclosed /* to the end\nstill', '"unclosed string\n// comment', 'e \\\n// f', '"\\']
    for t in cases:
        assert blank_comments(t) == by_characters(t), t
    rng = random.Random(7)
    for _ in range(20000):
        t = "".join(rng.choice('/*"\'\\\nax ') for _ in range(rng.randint(0, 24)))
        assert blank_comments(t) == by_characters(t), repr(t)


def test_a_project_of_thousands_of_files_blanks_each_text_once():
    texts = [f"// {uuid.uuid4()}\nint f{k}(); /* {k} */\n" for k in range(3000)]
    before = blank_comments.cache_info().misses
    for _ in range(3):   # three passes over the project's files, as a build makes
        outs = [blank_comments(t) for t in texts]
    assert blank_comments.cache_info().misses - before == len(texts)
    assert outs[5].splitlines()[1].startswith("int f5();") and "/*" not in outs[5]
