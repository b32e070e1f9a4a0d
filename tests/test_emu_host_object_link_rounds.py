"""A host unit's object is keyed by what it compiles (`emu._host_key`: its preprocessed text and the options that
change code), not by the include folders or the project's other files. An op project's link rounds
(`corpus.link_until_settled`) bring repository sources: each adds folders to every unit's `-iquote` list and headers
that may share a name with one a unit includes, and the host units whose text did not change keep their objects
(ops-nn quant_batch_matmul_v4's project build compiled its host units again in every round)."""
from test_emu_host_object import add, build, host_compiles, project  # noqa: F401 - the fixture and the small project

from ascendcraft.emu import _host_key


def test_a_link_round_that_adds_folders_and_same_named_headers_keeps_the_host_object(host_compiles):
    sources = project(blocks=8)
    add(build(sources), 8)
    assert len(host_compiles) == 1
    # a round brings another op's sources: a header in folders of their own (new -iquote folders), one of them named
    # as the header the host file includes (its host_inputs grow), and a source of their own
    brought = {**sources,
               "linked/other_op/op_host/blocks.h": "#pragma once\nconstexpr uint32_t OTHER_BLOCKS = 2;\n",
               "linked/other_op/op_host/other_tiling.h": "#pragma once\nstruct OtherTiling { int n; };\n"}
    b = build(brought)
    assert b.ok, b.diagnostics
    assert "-iquote" in b.command and any("linked/other_op" in a for a in b.command)   # the command did change
    add(b, 8)
    assert len(host_compiles) == 1, [c[-3:] for c in host_compiles]
    # what the host file reads still keys its object: its own header changed is compiled again
    add(build({**brought, "op_host/blocks.h": "#pragma once\nconstexpr uint32_t BLOCKS = 4;\n"}), 4)
    assert len(host_compiles) == 2


def test_the_host_key_leaves_out_include_folders_and_keeps_the_rest():
    base = ["g++", "-O1", "-I", "/inc", "-iquote", "op_host", "-DX=1", "h.cpp", "-c", "-o", "h.o"]
    key = lambda cmd, text=b"int x;": _host_key(cmd, "g++", text)
    # folders in either form, in any number: the same key
    assert key(base) == key(["g++", "-O1", "-I/inc", "-iquote", "op_host", "-iquote", "linked/a", "-isystem", "s",
                             "-DX=1", "h.cpp", "-c", "-o", "h.o"])
    # a -D value is in the text; its name, an option that changes code and the text itself are in the key
    assert key(base) == key([a.replace("X=1", "X=2") for a in base])
    assert key(base) != key([a.replace("X=1", "Y=1") for a in base])
    assert key(base) != key([a.replace("-O1", "-O2") for a in base])
    assert key(base) != key(base, b"int y;")


def test_a_host_unit_is_named_by_its_source_not_its_place():
    # build_project's tries and the link rounds give lists in which a source moves (another brought before it): its
    # unit keeps its name and text, so its compile command and preprocessed text, and so its object's key
    from ascendcraft.opproject import _host_units
    first = _host_units("host", ["op_host/a_tiling.cpp.inc", "op_host/b.cpp.inc"])
    later = _host_units("host", ["linked/op_host/a_tiling.cpp.inc", "op_host/a_tiling.cpp.inc", "op_host/b.cpp.inc"])
    assert set(first.items()) <= set(later.items())
    # two sources of one base name in other folders: two units; the list's order is the link order
    assert len(later) == 3 and [t.rsplit('"', 2)[-2] for t in later.values()] == [
        "linked/op_host/a_tiling.cpp.inc", "op_host/a_tiling.cpp.inc", "op_host/b.cpp.inc"]
    assert all(n.startswith("__ascendcraft_host_") and n.endswith(".cpp") for n in later)
