"""The corpus's verdicts of an op project are two builds of one kernel: the kernel alone (`corpus.try_entry`'s
kernel-alone check: op_kernel and the headers, no op_host sources) and then the project (`opproject.build_project`:
the same kernel with the op_host units linked). For a mixed kernel built per core type (`emu.core_type_split`) the
two builds compile the same halves, and the project build takes them from the kernel-alone build: each half's object
is cached by what it compiles (`emu.kernel_object_key`), in the kernel-alone build too, and the vector half's driver
is the same text with or without host files (the host tiling function is declared weak; a build without host
sources has none). Before, a heavy cube project compiled both halves twice, minutes apart (hicann ops-nn mat_mul_v3:
the project's first try took 4:43 at load 11 for halves the kernel alone had compiled minutes before)."""
import uuid
from pathlib import Path

from ascendcraft.emu import AIC_SOURCE, KERNEL_MAIN

from _corpus import git_repo, load_corpus
from _sandbox_record import record_sandbox_runs

corpus = load_corpus("corpus_alone_then_project")
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "tpl_scale_custom"
KERNEL = "op_kernel/tpl_scale_custom.cpp"


def mixed_project() -> dict[str, str]:
    """tpl_scale_custom (a tiling-template kernel) made a mixed kernel whose cube pass does nothing (its entry returns
    under `__DAV_C220_CUBE__`), so it is built per core type; a constant of its own makes its code new to the cache."""
    files = {p.relative_to(EXAMPLE).as_posix(): p.read_text() for p in EXAMPLE.rglob("*")
             if p.is_file() and p.parts[-2] in ("op_host", "op_kernel")}
    kernel = files[KERNEL]
    kernel = kernel.replace('#include "tpl_scale_custom_tiling_key.h"\n',
                            '#include "tpl_scale_custom_tiling_key.h"\n'
                            f'[[maybe_unused]] static const char kTestTag[] = "{uuid.uuid4()}";\n')
    kernel = kernel.replace("    REGISTER_TILING_DEFAULT(TplScaleCustomTilingData);\n",
                            "    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);\n"
                            "#if defined(__DAV_C220_CUBE__)\n    return;   // no cube work in this op\n#endif\n"
                            "    REGISTER_TILING_DEFAULT(TplScaleCustomTilingData);\n")
    assert "__DAV_C220_CUBE__" in kernel and "kTestTag" in kernel
    return {f"ops/tpl_scale_custom/{name}": (kernel if name == KERNEL else text) for name, text in files.items()}


def test_the_project_build_takes_the_halves_the_kernel_alone_compiled(tmp_path, kernel_unit_compiles):
    gitdir, commit = git_repo(tmp_path / "repo", mixed_project())
    entry = {"source": "s", "repo": "me/ops", "commit": commit, "path": "ops/tpl_scale_custom", "kind": "op-project"}
    res = corpus.try_entry((entry, gitdir, False, True))
    assert res["kernel_ok"] and res["project_ok"], res
    assert res.get("per_core_type"), res            # the halves, not one piece
    assert sorted(kernel_unit_compiles) == [AIC_SOURCE, KERNEL_MAIN], kernel_unit_compiles   # each half once, for both verdicts


def test_a_define_is_keyed_by_its_effect_on_the_text():
    """`code_flags` leaves out -D / -U (their whole effect is in the preprocessed text, which the key holds) as it leaves
    out the include folders; the options that change code from the same text stay."""
    from ascendcraft.emu import code_flags
    command = ["g++", "-std=c++17", "-DNN_ENABLE_DLOPEN_LEGACY", "-D", "X=1", "-O1", "-iquote", "op_kernel", "-UY",
               "-I", "/inc", "-g", "__ascendcraft_main.cpp", "-c", "-o", "__ascendcraft_main.o"]
    assert code_flags(command) == ["g++", "-std=c++17", "-O1", "-g", "__ascendcraft_main.cpp", "-c", "-o",
                                   "__ascendcraft_main.o"]


def test_a_link_round_that_brings_other_headers_lists_the_instances_from_the_memo(monkeypatch):
    """A corpus link round brings other ops' sources (their headers under the siblings' folder) and builds the project
    again, which lists the tiling-template instances again (`opproject.tpl_instances`, an -O0 compile of the template
    header): with headers the template header does not include added, the listing is the memo's, no compile; a change
    to a header it includes lists them again, and the new selection shows."""
    from ascendcraft import opproject
    seen = record_sandbox_runs(monkeypatch, lambda argv: argv if "__ascendcraft_tpl.cpp" in argv else None)
    files = {k.split("/", 2)[2]: v for k, v in mixed_project().items()}
    key_h = "op_kernel/tpl_scale_custom_tiling_key.h"
    files[key_h] = f"// {uuid.uuid4()}\n" + files[key_h]             # new to the process's memo
    header = opproject.tpl_header(files, KERNEL)
    assert header == key_h
    first = opproject.tpl_instances(files, header)
    assert len(first) == 5 and len(seen) == 1
    linked = {**files, "siblings/other_op/op_host/other_tiling.h": "#pragma once\nstruct OtherTiling { int n; };\n",
              "siblings/other_op/op_kernel/other.h": '#pragma once\n#include "../op_host/other_tiling.h"\n'}
    assert opproject.tpl_instances(linked, header) == first and len(seen) == 1   # the memo's: no compile
    fewer = {**linked, key_h: linked[key_h].replace("ASCENDC_TPL_BOOL_SEL(SQUARE, 0, 1)", "ASCENDC_TPL_BOOL_SEL(SQUARE, 0)")}
    assert len(opproject.tpl_instances(fewer, header)) == 3 and len(seen) == 2   # its header changed: listed again
