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
