"""Tiling-template operators (the style of CANN's newer open repositories, hicann ops-math / ops-nn): the kernel entry is
a template on the parameters ASCENDC_TPL_ARGS_DECL declares, ASCENDC_TPL_SEL selects the instances CANN's build
compiles, the host's tiling function encodes its choice into the tiling key (ASCENDC_TPL_SEL_PARAM) and the launch runs
the instance of that key; a key that selects no instance is an error naming it. The op_host code uses ops-base's
helpers (log/log.h, util/math_util.h) and writes the tiling struct in place (GetTilingData<T>). Without outputs or a
reference, the op's InferShape function gives the output shapes (run_project(infer_shapes=...))."""
from pathlib import Path

import numpy as np
import pytest
import torch

from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.opproject import (build_project, infer_output_shapes, load_project, run_cases, run_project, tpl_header,
                                   tpl_instances)

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "opprojects"
FOLDER = EXAMPLES / "tpl_scale_custom"


def _key(dtype: int, tiles: int, square: bool) -> int:
    "The key layout of the example's declaration: dtype in 8 bits, the tile count's index in (1, 4) in 2, square in 1."
    return dtype | (1, 4).index(tiles) << 8 | int(square) << 10


def test_the_selected_instances_and_their_keys_follow_the_declaration():
    project = load_project(FOLDER)
    header = tpl_header(project.sources, project.kernel_file)
    assert header == "op_kernel/tpl_scale_custom_tiling_key.h"
    got = {i.key: i.args for i in tpl_instances(project.sources, header)}
    want = {_key(0, t, s): ("TypeFromId<0>::type", str(t), "true" if s else "false") for t in (1, 4) for s in (False, True)}
    want[_key(1, 4, False)] = ("TypeFromId<1>::type", "4", "false")    # float16: one combination only
    assert got == want


def test_each_case_runs_the_instance_of_the_key_its_tiling_function_sets():
    results = run_cases(FOLDER)
    for name, r in results:
        assert r.ok, (name, r.mismatches, [d.render() for d in r.run.diagnostics])
    assert [r.tiling_key for _, r in results] == [_key(0, 1, False), _key(0, 4, True), _key(1, 4, False)]


def test_a_key_that_selects_no_instance_is_an_error_naming_it():
    x = torch.randn(8 * 64).to(torch.float16)
    unselected = _key(1, 1, False)    # encodable, but ASCENDC_TPL_SEL builds float16 only with four tiles
    r = run_project(FOLDER, {"x": x}, attrs={"scale": 2.0}, tiling_key=unselected,
                    reference=lambda x, scale: x * scale)
    assert not r.run.ok
    errors = [d for d in r.run.diagnostics if d.is_error]
    assert errors and errors[0].kind == "tiling-key"
    assert f"tiling key {unselected} selects no instance" in errors[0].message
    assert str(_key(1, 4, False)) in errors[0].message      # and it names the keys there are


def test_output_shapes_come_from_the_ops_infershape_function_without_outputs_or_reference():
    x = torch.randn(48 * 64)
    r = run_project(FOLDER, {"x": x}, attrs={"scale": 2.0})     # IMPL_OP_INFERSHAPE(...).InferShape(InferShape4Elewise)
    assert r.ok, [d.render() for d in r.run.diagnostics]
    assert r.outputs["y"].shape == (48 * 64,) and r.outputs["y"].dtype == np.float32
    np.testing.assert_allclose(r.outputs["y"], (x * 2).numpy(), rtol=1e-6)
    # the msopgen style registers it on the OpDef (SetInferShape); its dtype column gives the output's dtype
    add = load_project(EXAMPLES / "scale_add_custom")
    a = torch.randn(16, 64).half()
    assert infer_output_shapes(add, [a, a], {"alpha": 0.5}) == {"z": (16, 64)}
    # with infer_shapes=True the inferred shape is used even with a reference, which is compared with it
    r = run_project(FOLDER, {"x": x}, attrs={"scale": 2.0}, infer_shapes=True, reference=lambda x, scale: x * scale)
    assert r.ok


def test_the_generated_host_programs_are_compiled_once_by_content(monkeypatch, tmp_path):
    """The programs that read a project on the host (InferShape here; the registered definition the same way,
    `host_program`) are cached by content: the same project compiles its program once and runs
    it again for every call (other shapes, other answers); a changed project file, or a cached program that no longer
    matches its seal, compiles it again."""
    import shutil
    import uuid
    from ascendcraft import sandbox
    from ascendcraft.config import load_settings
    from ascendcraft.seal import private_dir
    compiles, real = [], sandbox.run
    def recording(argv, **kw):
        if "__ascendcraft_infer.cpp" in argv: compiles.append(list(argv))
        return real(argv, **kw)
    monkeypatch.setattr(sandbox, "run", recording)
    shutil.copytree(EXAMPLES / "scale_add_custom", tmp_path / "p")
    host = tmp_path / "p" / "op_host" / "scale_add_custom.cpp"
    host.write_text(f"// {uuid.uuid4()}\n" + host.read_text())        # a project the machine's cache has not seen
    add = load_project(tmp_path / "p")
    a, b = torch.randn(16, 64).half(), torch.randn(8, 32).half()
    assert infer_output_shapes(add, [a, a], {"alpha": 0.5}) == {"z": (16, 64)}
    assert infer_output_shapes(add, [b, b], {"alpha": 0.5}) == {"z": (8, 32)}     # the program ran again
    assert len(compiles) == 1
    host.write_text(host.read_text() + "\n// changed\n")
    assert infer_output_shapes(load_project(tmp_path / "p"), [b, b], {"alpha": 0.5}) == {"z": (8, 32)}
    assert len(compiles) == 2
    cached = [p for p in (private_dir(load_settings().cache_path) / "emu" / "hosts").glob("*/*/infer")
              if p.stat().st_mtime >= host.stat().st_mtime]
    assert cached
    for p in cached: p.write_bytes(p.read_bytes() + b"\0")                      # no longer the sealed program
    assert infer_output_shapes(load_project(tmp_path / "p"), [a, a], {"alpha": 0.5}) == {"z": (16, 64)}
    assert len(compiles) == 3


def test_without_outputs_reference_or_infershape_the_error_says_what_to_give():
    project = load_project(EXAMPLES / "leaky_relu_custom")
    assert infer_output_shapes(project, [torch.randn(64)], {}) is None
    with pytest.raises(AscendCraftError, match="InferShape"):
        run_project(project, {"x": torch.randn(48 * 64)})


def test_a_kernel_file_per_soc_the_a2_one_is_taken(tmp_path):
    # the newer repositories keep an Ascend 950 kernel beside the A2 one (glu.cpp, glu_apt.cpp), both entries of the op's
    # name; the A2 configuration's opFile.value (here the definition's "tpl_scale_custom") names the file CANN builds
    import shutil
    shutil.copytree(FOLDER, tmp_path / "p")
    (tmp_path / "p" / "op_kernel" / "tpl_scale_custom_apt.cpp").write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void tpl_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR t) {}\n')
    assert load_project(tmp_path / "p").kernel_file == "op_kernel/tpl_scale_custom.cpp"
    # ... and the Ascend 950 kernel of the same file name under arch35/, with its own tiling registration
    (tmp_path / "p" / "op_kernel" / "arch35").mkdir()
    (tmp_path / "p" / "op_kernel" / "arch35" / "tpl_scale_custom.cpp").write_text(
        (tmp_path / "p" / "op_kernel" / "tpl_scale_custom_apt.cpp").read_text())
    (tmp_path / "p" / "op_host" / "arch35").mkdir()
    (tmp_path / "p" / "op_host" / "arch35" / "tpl_scale_custom_tiling_arch35.cpp").write_text(
        '#include "register/op_impl_registry.h"\nnamespace optiling {\nstruct TplScaleCustomCompileInfo { int regbase; };\n'
        'static ge::graphStatus RegbaseTiling(gert::TilingContext*) { return ge::GRAPH_FAILED; }\n'
        'IMPL_OP_OPTILING(TplScaleCustom).Tiling(RegbaseTiling);\n}\n')
    project = load_project(tmp_path / "p")
    assert project.kernel_file == "op_kernel/tpl_scale_custom.cpp"
    r = run_project(project, {"x": torch.randn(48 * 64)}, attrs={"scale": 2.0}, reference=lambda x, scale: x * scale)
    assert r.ok and r.tiling_key == _key(0, 1, False)      # the A2 tiling function ran, not the regbase one


def test_the_a2_kernel_file_the_ops_cmake_names_is_taken(tmp_path):
    # hicann ops-math add_mat_mat_elements_plus: op_kernel/<op>.cpp (the file opFile.value names) is the Ascend 950
    # kernel, and the op's CMakeLists.txt names the A2 one, `add_kernel_sources(KERNEL_SRC <op>_arch22.cpp COMPUTE_UNITS
    # ascend910b ascend910_93)`; CANN's A2 build compiles that file
    import shutil
    shutil.copytree(FOLDER, tmp_path / "p")
    kernels = tmp_path / "p" / "op_kernel"
    (kernels / "tpl_scale_custom.cpp").rename(kernels / "tpl_scale_custom_arch22.cpp")
    (kernels / "tpl_scale_custom.cpp").write_text(      # the Ascend 950 entry: writes nothing on A2
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void tpl_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR w, GM_ADDR t) {}\n')
    assert load_project(tmp_path / "p").kernel_file == "op_kernel/tpl_scale_custom.cpp"   # without the CMake naming
    (tmp_path / "p" / "CMakeLists.txt").write_text(
        "# add_kernel_sources(KERNEL_SRC tpl_scale_custom.cpp COMPUTE_UNITS ascend910b)  (a comment: not read)\n"
        "add_kernel_sources(KERNEL_SRC tpl_scale_custom.cpp COMPUTE_UNITS ascend950)\n"
        "add_kernel_sources(KERNEL_SRC tpl_scale_custom_arch22.cpp COMPUTE_UNITS ascend910b ascend910_93)\n")
    project = load_project(tmp_path / "p")
    assert project.kernel_file == "op_kernel/tpl_scale_custom_arch22.cpp"
    r = run_project(project, {"x": torch.randn(48 * 64)}, attrs={"scale": 2.0}, reference=lambda x, scale: x * scale)
    assert r.ok and r.tiling_key == _key(0, 1, False), [d.render() for d in r.run.diagnostics]
    # ... named by op_kernel/CMakeLists.txt (ops-nn's layout), by a path under op_kernel/
    (tmp_path / "p" / "CMakeLists.txt").unlink()
    (kernels / "arch22").mkdir()
    (kernels / "tpl_scale_custom_arch22.cpp").rename(kernels / "arch22" / "tpl_scale_custom.cpp")
    (kernels / "arch22" / "tpl_scale_custom.cpp").write_text(
        (kernels / "arch22" / "tpl_scale_custom.cpp").read_text().replace('#include "tpl_scale_custom_', '#include "../tpl_scale_custom_'))
    (kernels / "CMakeLists.txt").write_text("add_kernel_sources(\n    KERNEL_SRC arch22/tpl_scale_custom.cpp\n"
                                            "    COMPUTE_UNITS ascend910b\n)\n")
    assert load_project(tmp_path / "p").kernel_file == "op_kernel/arch22/tpl_scale_custom.cpp"


def test_an_entry_defined_once_per_core_version_branch_the_a2_one_is_taken(tmp_path):
    # hicann ops-nn conv3d_backprop_filter_v2.cpp: `#if __CCE_AICORE__ == 310` an Ascend 950 entry of the op's name with
    # its own template parameters, `#else` the A2 one: the A2 build compiles the second
    import shutil
    shutil.copytree(FOLDER, tmp_path / "p")
    kernel = tmp_path / "p" / "op_kernel" / "tpl_scale_custom.cpp"
    text = kernel.read_text()
    entry = "template <typename D_T, uint32_t TILES, bool SQUARE>\n__global__ __aicore__ void tpl_scale_custom("
    assert text.count(entry) == 1
    body_end = text.index("\n}\n", text.index(entry)) + 3
    other = ("#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510) || __CCE_AICORE__ == 310\n"
             "template <uint32_t A, bool B, bool C, uint32_t D, bool E>\n"
             "__global__ __aicore__ void tpl_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)\n{\n}\n"
             "#else\n")
    kernel.write_text(text[:text.index(entry)] + other + text[text.index(entry):body_end] + "#endif\n" + text[body_end:])
    project = load_project(tmp_path / "p")
    assert project.entry == "tpl_scale_custom"
    r = run_project(project, {"x": torch.randn(48 * 64)}, attrs={"scale": 2.0}, reference=lambda x, scale: x * scale)
    assert r.ok, [d.render() for d in r.run.diagnostics]
    # a branch whose condition reads another macro may be the one: both entries stay, and that is the error it was
    kernel.write_text(kernel.read_text().replace("(__NPU_ARCH__ == 3510) || __CCE_AICORE__ == 310", "MY_OWN_SWITCH"))
    with pytest.raises(AscendCraftError, match="several kernel entries"):
        load_project(tmp_path / "p")


def test_a_plain_a2_entry_beside_an_ascend_950_template_entry_is_called_as_it_is(tmp_path):
    # hicann ops-nn chamfer_distance_grad: `#if __CCE_AICORE__ == 310` a template entry (its key header under
    # op_kernel/arch35/ declares ASCENDC_TPL_ARGS_DECL), `#else` the A2 entry, a plain extern "C" function dispatching on
    # TILING_KEY_IS; the A2 build calls that one (it stopped at "ordered comparison of pointer with integer zero", the
    # dispatcher's `entry<0>(...)` of a function that is no template)
    import shutil
    shutil.copytree(EXAMPLES / "scale_add_custom", tmp_path / "p")
    kernel = tmp_path / "p" / "op_kernel" / "scale_add_custom.cpp"
    text = kernel.read_text()
    entry = 'extern "C" __global__ __aicore__ void scale_add_custom('
    (tmp_path / "p" / "op_kernel" / "arch35").mkdir()
    (tmp_path / "p" / "op_kernel" / "arch35" / "scale_add_key.h").write_text(
        '#pragma once\n#include "ascendc/host_api/tiling/template_argument.h"\n'
        "ASCENDC_TPL_ARGS_DECL(ScaleAddCustom, ASCENDC_TPL_UINT_DECL(MODE, 2, ASCENDC_TPL_UI_LIST, 0, 1), );\n"
        "ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, 0, 1)), );\n")
    other_soc = ("#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 310\n#include \"arch35/scale_add_key.h\"\n"
                 "template <uint32_t MODE>\n__global__ __aicore__ void scale_add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z, "
                 "GM_ADDR workspace, GM_ADDR tiling)\n{\n}\n#else\n")
    assert text.count(entry) == 1
    kernel.write_text(text.replace(entry, other_soc + entry) + "#endif\n")
    project = load_project(tmp_path / "p")
    assert project.entry == "scale_add_custom"
    x, y = torch.randn(4096), torch.randn(4096)
    r = run_project(project, {"x": x, "y": y}, attrs={"alpha": 0.5}, reference=lambda x, y, alpha: x + alpha * y)
    assert r.ok, (r.mismatches, [d.render() for d in r.run.diagnostics])


def test_an_entry_that_is_a_template_only_in_the_cpu_debug_build_is_called_as_the_npu_build_compiles_it(tmp_path):
    # hicann ops-nn experimental hinge_loss: its tiling-template header is included, and the entry is `template
    # <uint32_t schMode>` under __CCE_KT_TEST__ (the kernel test binary instantiates every dtype), `extern "C"`
    # otherwise. The emulation compiles as the NPU build (setting cpu_debug off), so the entry is the plain one (it
    # stopped at "ordered comparison of pointer with integer zero", the dispatcher's `entry<0>(...)`)
    import shutil
    shutil.copytree(EXAMPLES / "scale_add_custom", tmp_path / "p")
    kernel = tmp_path / "p" / "op_kernel" / "scale_add_custom.cpp"
    text = kernel.read_text()
    entry = 'extern "C" __global__ __aicore__ void scale_add_custom('
    (tmp_path / "p" / "op_kernel" / "scale_add_key.h").write_text(
        '#pragma once\n#include "ascendc/host_api/tiling/template_argument.h"\n'
        "ASCENDC_TPL_ARGS_DECL(ScaleAddCustom, ASCENDC_TPL_UINT_DECL(MODE, 2, ASCENDC_TPL_UI_LIST, 0, 1), );\n"
        "ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(MODE, ASCENDC_TPL_UI_LIST, 0, 1)), );\n")
    assert text.count(entry) == 1
    kernel.write_text('#include "scale_add_key.h"\n' + text.replace(
        entry, '#ifdef __CCE_KT_TEST__\ntemplate <uint32_t schMode>\n#else\nextern "C"\n#endif\n'
               '__global__ __aicore__ void scale_add_custom('))
    project = load_project(tmp_path / "p")
    assert project.entry == "scale_add_custom"
    x, y = torch.randn(4096), torch.randn(4096)
    r = run_project(project, {"x": x, "y": y}, attrs={"alpha": 0.5}, reference=lambda x, y, alpha: x + alpha * y)
    assert r.ok, (r.mismatches, [d.render() for d in r.run.diagnostics])


def test_ops_base_helpers_compute_as_numpy_does(tmp_path):
    # ops-base's host helpers, compiled as an op_host file includes them: the 16-bit float types and the integer ones
    import subprocess
    from ascendcraft.config import load_settings
    from ascendcraft.emu import INCLUDE_DIR
    values = [0.0, 1.0, -2.5, 65504.0, 70000.0, 1e-6, 6.1035156e-05, 0.333333, 1.0009766, -3.0e-8]
    (tmp_path / "t.cpp").write_text('#include <cstdio>\n#include "util/fp16.h"\n#include "util/bfloat16.h"\n'
                                    '#include "util/math_util.h"\nint main() {\n'
                                    + "".join(f'  std::printf("%u %u\\n", (unsigned)Ops::Base::fp16_t({v}f).val, '
                                              f'(unsigned)Ops::Base::bfloat16({v}f).value);\n' for v in values)
                                    + '  std::printf("%ld %ld %ld %ld %u\\n", Ops::Base::CeilDiv(-7L, 2L), Ops::Base::CeilDiv(7L, 2L), '
                                      'Ops::Base::FloorAlign(37L, 8L), Ops::Base::CeilAlign(37L, 8L), Ops::Base::CeilDiv(7u, 0u));\n}\n')
    subprocess.run([load_settings().cxx, "-std=c++17", "-I", str(INCLUDE_DIR), str(tmp_path / "t.cpp"), "-o",
                    str(tmp_path / "t")], check=True)
    lines = subprocess.run([str(tmp_path / "t")], capture_output=True, text=True, check=True).stdout.split("\n")
    for v, line in zip(values, lines):
        half, bf16 = map(int, line.split())
        with np.errstate(over="ignore"):
            assert half == int(np.float32(v).astype(np.float16).view(np.uint16)), v
        assert bf16 == int(torch.tensor(v, dtype=torch.float32).to(torch.bfloat16).view(torch.int16)) & 0xFFFF, v
    assert lines[len(values)].split() == ["-3", "4", "32", "40", "7"]   # CeilDiv rounds up; by 0: x unchanged


def test_a_tiling_function_that_calls_code_of_another_op_host_file_links_with_it(tmp_path):
    # CANN's build links every op_host source: a helper in a file that registers nothing (hicann glu's arch35 tiling)
    import shutil
    shutil.copytree(FOLDER, tmp_path / "p")
    tiling = tmp_path / "p" / "op_host" / "tpl_scale_custom_tiling.cpp"
    text = tiling.read_text()
    choice = "    const uint32_t tiles = (dtype == ge::DT_FLOAT16 || total >= cores * 4 * 64) ? TPL_SCALE_TILES_4 : TPL_SCALE_TILES_1;\n"
    assert choice in text
    tiling.write_text(text.replace(choice, "    const uint32_t tiles = TplScaleTiles(dtype == ge::DT_FLOAT16, total, cores);\n")
                      .replace("namespace optiling {\n", "namespace optiling {\nuint32_t TplScaleTiles(bool half, int64_t total, int64_t cores);\n", 1))
    (tmp_path / "p" / "op_host" / "tpl_scale_helper.cpp").write_text(
        '#include <cstdint>\n#include "../op_kernel/tpl_scale_custom_tiling_key.h"\nnamespace optiling {\n'
        'uint32_t TplScaleTiles(bool half, int64_t total, int64_t cores) {\n'
        '    return (half || total >= cores * 4 * 64) ? TPL_SCALE_TILES_4 : TPL_SCALE_TILES_1;\n}\n}\n')
    x = torch.randn(48 * 4 * 64)
    r = run_project(tmp_path / "p", {"x": x}, attrs={"scale": 0.5}, reference=lambda x, scale: x * scale)
    assert r.ok, [d.render() for d in r.run.diagnostics] + [d.render() for d in getattr(r.run, "errors", [])]
    assert r.tiling_key == _key(0, 4, False)


def test_the_template_declaration_is_the_one_an_a2_build_includes():
    # hicann ops-nn conv3d_backprop_filter_v2.cpp: `#if __CCE_AICORE__ == 310` the Ascend 950 key header (five template
    # parameters), `#else` the A2 one (one): the kernel's instances follow the A2 declaration
    decl = "ASCENDC_TPL_ARGS_DECL(Op, ASCENDC_TPL_UINT_DECL(ID, 8, ASCENDC_TPL_UI_LIST, 0, 1));\n"
    sources = {
        "op_kernel/op.cpp": '#if __CCE_AICORE__ == 310\n#include "arch35/op_tiling_key.h"\n#else\n#include "op_tiling_key.h"\n'
                            "#endif\n",
        "op_kernel/arch35/op_tiling_key.h": decl, "op_kernel/op_tiling_key.h": decl}
    assert tpl_header(sources, "op_kernel/op.cpp") == "op_kernel/op_tiling_key.h"
    sources["op_kernel/op.cpp"] = sources["op_kernel/op.cpp"].replace("== 310", "== 220")
    assert tpl_header(sources, "op_kernel/op.cpp") == "op_kernel/arch35/op_tiling_key.h"


def test_a_value_list_name_nothing_defines_is_left_out_as_canns_build_does():
    # hicann ops-nn clipped_swiglu_grad (A2): its key header declares the lists inside a namespace of the op and selects
    # `TPL_FLOOR`, which nothing defines; CANN's build reads the lists as text and leaves that value out (logging it)
    sources = {"op_kernel/k_tiling_key.h":
               "#define K_ONE 1\nnamespace KOp {\n"
               "ASCENDC_TPL_ARGS_DECL(K, ASCENDC_TPL_UINT_DECL(mode, 2, ASCENDC_TPL_UI_LIST, 0, K_ONE, 3),\n"
               "                      ASCENDC_TPL_BOOL_DECL(flag, 0, 1));\n"
               "ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(mode, ASCENDC_TPL_UI_LIST, 0, K_ONE, K_FLOOR),\n"
               "                                     ASCENDC_TPL_BOOL_SEL(flag, 1)));\n}\n"}
    got = {i.key: i.args for i in tpl_instances(sources, "op_kernel/k_tiling_key.h")}
    assert got == {0 | 1 << 2: ("0", "true"), 1 | 1 << 2: ("1", "true")}
    # a name outside the value lists is no value: its error stands
    sources["op_kernel/k_tiling_key.h"] += "static KUndefinedType k;\n"
    with pytest.raises(AscendCraftError, match="KUndefinedType"):
        tpl_instances(sources, "op_kernel/k_tiling_key.h")
    # a declaration without a selection: no instances to build, said so
    with pytest.raises(AscendCraftError, match="no ASCENDC_TPL_ARGS_DECL with an ASCENDC_TPL_SEL"):
        tpl_instances({"op_kernel/k.h": "ASCENDC_TPL_ARGS_DECL(K, ASCENDC_TPL_BOOL_DECL(flag, 0, 1));\n"}, "op_kernel/k.h")


def test_the_selections_are_read_with_the_binarys_macros_as_the_a2_kernel_build_reads_them():
    # hicann ops-nn batch_mat_mul_v3: selections under `#if defined(FORMAT_X2) && FORMAT_X2 != FORMAT_FRACTAL_NZ`, `#if
    # ORIG_DTYPE_X1 == DT_FLOAT` and `__CCE_AICORE__`; read without the binary's macros, an ND x2's instances were missing
    # and its tiling key "selected no instance"
    sel = "ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(mode, ASCENDC_TPL_UI_LIST, {}))"
    sources = {"op_kernel/m_tiling_key.h":
               "ASCENDC_TPL_ARGS_DECL(M, ASCENDC_TPL_UINT_DECL(mode, 4, ASCENDC_TPL_UI_LIST, 0, 1, 2, 3, 4));\n"
               f"ASCENDC_TPL_SEL({sel.format(0)},\n"
               "#if defined(FORMAT_X2) && FORMAT_X2 != FORMAT_FRACTAL_NZ\n"
               f"    {sel.format(1)},\n"
               "#if ORIG_DTYPE_X1 == DT_FLOAT\n"
               f"    {sel.format(2)},\n"
               "#endif\n#endif\n"
               "#if defined(__CCE_AICORE__) && __CCE_AICORE__ < 220\n"
               f"    {sel.format(3)},\n"
               "#elif defined(__CCE_AICORE__) && __CCE_AICORE__ == 220\n"
               f"    {sel.format(4)},\n"
               "#endif\n);\n"}
    keys = lambda **macros: sorted(i.key for i in tpl_instances(sources, "op_kernel/m_tiling_key.h", macros=macros))
    assert keys(FORMAT_X2="FORMAT_ND", ORIG_DTYPE_X1="1") == [0, 1, 4]          # float16: not the float selection
    assert keys(FORMAT_X2="FORMAT_ND", ORIG_DTYPE_X1="0") == [0, 1, 2, 4]       # DT_FLOAT is 0
    assert keys(FORMAT_X2="FORMAT_FRACTAL_NZ", ORIG_DTYPE_X1="0") == [0, 4]
    assert keys() == [0, 4]                                                      # no FORMAT_X2 defined: as the #if says


def test_a_header_the_kernel_view_cannot_read_is_read_as_the_host_reads_it():
    # a header whose kernel-side selections do not compile (here a missing comma) is read as the host reads it (the
    # header's `#else`); ops-nn quant_batch_matmul_v3's int8-output column was such a header until empty selection
    # arguments were read as CANN's build reads them (the test above)
    sel = "ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(mode, ASCENDC_TPL_UI_LIST, {}))"
    sources = {"op_kernel/q_tiling_key.h":
               "ASCENDC_TPL_ARGS_DECL(Q, ASCENDC_TPL_UINT_DECL(mode, 4, ASCENDC_TPL_UI_LIST, 0, 1, 2));\n"
               "ASCENDC_TPL_SEL(\n#if defined(__CCE_AICORE__)\n"
               f"    {sel.format(0)}, ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(mode, 1) 2)\n"
               f"#else\n    {sel.format(1)}, {sel.format(2)}\n#endif\n);\n"}
    assert sorted(i.key for i in tpl_instances(sources, "op_kernel/q_tiling_key.h", macros={})) == [1, 2]


def test_an_empty_argument_of_a_selection_adds_no_parameter_as_canns_text_reading_takes_it():
    # hicann ops-nn quant_batch_matmul_v3's A2 kernel-side selections: `ASCENDC_TPL_ARGS_SEL(SET_..._NONE(...), )` with a
    # macro whose expansion ends in its own comma, so the selection has two empty arguments; CANN's build reads the
    # selections as text, where they add nothing. Before, `std::vector<Param>{a, b, , }` did not compile and the kernel
    # view of the header was given up for the host's (8 int8-output instances of the kernel build listed as 29)
    sources = {"op_kernel/e_tiling_key.h":
               "#define E_TRANS_NONE(t, k) ASCENDC_TPL_UINT_SEL(TRANS, ASCENDC_TPL_UI_LIST, t), \\\n"
               "    ASCENDC_TPL_UINT_SEL(KIND, ASCENDC_TPL_UI_LIST, k),\n"
               "ASCENDC_TPL_ARGS_DECL(E, ASCENDC_TPL_UINT_DECL(TRANS, ASCENDC_TPL_2_BW, ASCENDC_TPL_UI_LIST, 0, 1, 2, 3),\n"
               "    ASCENDC_TPL_UINT_DECL(KIND, ASCENDC_TPL_2_BW, ASCENDC_TPL_UI_LIST, 0, 1, 2), );\n"
               "ASCENDC_TPL_SEL(\n#if defined(__CCE_AICORE__)\n"
               "#if ORIG_DTYPE_Y == DT_INT8\n"
               "    ASCENDC_TPL_ARGS_SEL(E_TRANS_NONE(1, 0), ),\n"                # two empty arguments at the end
               "    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(TRANS, ASCENDC_TPL_UI_LIST, 2), ,\n"   # one in the middle
               "                         ASCENDC_TPL_UINT_SEL(KIND, ASCENDC_TPL_UI_LIST, 1, 2)),\n"
               "#endif\n"
               "    ASCENDC_TPL_ARGS_SEL(E_TRANS_NONE(0, 2)),\n"
               "#else\n"
               "    ASCENDC_TPL_ARGS_SEL(E_TRANS_NONE(3, 0)),\n"
               "#endif\n);\n"}
    keys = lambda **macros: sorted(i.key for i in tpl_instances(sources, "op_kernel/e_tiling_key.h", macros=macros))
    # TRANS is the index in bits 0-1, KIND in bits 2-3: (1, 0) -> 1, (2, 1) -> 6, (2, 2) -> 10, (0, 2) -> 8
    assert keys(ORIG_DTYPE_Y="2") == [1, 6, 8, 10]      # DT_INT8 is 2: the kernel view, empty arguments and all
    assert keys(ORIG_DTYPE_Y="1") == [8]                # float16: only the selection outside the int8 branch
    # (before: the kernel view did not compile, and both read as the host's `#else`: [3])


def test_an_ops_nn_style_template_kernel_with_its_struct_from_the_host_header_runs(tmp_path):
    # hicann ops-nn clipped_swiglu(_grad): the key header declares its lists in a namespace of the op and selects a value
    # nothing defines (left out); the kernel names a struct only the op_host tiling header defines
    # (BEGIN_TILING_DATA_DEF: CANN's generated kernel_tiling.h brings it; here the build includes that header before
    # the kernel, the template's generated entry included); the host's tiling source includes kernel_tiling/kernel_tiling.h
    # (arch35 tiling data) and still encodes the key with the host's GET_TPL_TILING_KEY
    import shutil
    shutil.copytree(FOLDER, tmp_path / "p")
    p = tmp_path / "p"
    key = p / "op_kernel/tpl_scale_custom_tiling_key.h"
    text = key.read_text()
    text = text.replace("ASCENDC_TPL_ARGS_DECL(", "namespace TplScaleOp {\nASCENDC_TPL_ARGS_DECL(", 1)
    text = text.replace("ASCENDC_TPL_BOOL_SEL(SQUARE, 0)), );", "ASCENDC_TPL_BOOL_SEL(SQUARE, 0, TPL_NOT_DEFINED)), );\n}", 1)
    assert "namespace TplScaleOp" in text and "TPL_NOT_DEFINED" in text
    key.write_text(text)
    (p / "op_kernel/tpl_scale_custom_tiling_data.h").unlink()
    (p / "op_host/tpl_scale_custom_tiling.h").write_text(
        '#pragma once\n#include "register/tilingdata_base.h"\nnamespace optiling {\n'
        "BEGIN_TILING_DATA_DEF(TplScaleCustomTilingData)\nTILING_DATA_FIELD_DEF(uint32_t, perCore);\n"
        "TILING_DATA_FIELD_DEF(uint32_t, usedCores);\nTILING_DATA_FIELD_DEF(float, scale);\nEND_TILING_DATA_DEF;\n"
        "REGISTER_TILING_DATA_CLASS(TplScaleCustom, TplScaleCustomTilingData)\n}\n")
    kernel = p / "op_kernel/tpl_scale_custom.cpp"
    text = kernel.read_text().replace('#include "tpl_scale_custom_tiling_data.h"\n', "", 1)
    kernel.write_text(text.replace('#include "tpl_scale_custom_tiling_key.h"\n',
                                   '#include "tpl_scale_custom_tiling_key.h"\nusing namespace TplScaleOp;\n', 1))
    tiling = p / "op_host/tpl_scale_custom_tiling.cpp"
    text = tiling.read_text()
    text = text.replace('#include "../op_kernel/tpl_scale_custom_tiling_data.h"\n',
                        '#include "kernel_tiling/kernel_tiling.h"\n#include "tpl_scale_custom_tiling.h"\n', 1)
    text = text.replace("namespace optiling {\n", "namespace optiling {\nusing namespace TplScaleOp;\n", 1)
    old = """    TplScaleCustomTilingData* tiling = context->GetTilingData<TplScaleCustomTilingData>();
    OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
    tiling->perCore = static_cast<uint32_t>(total / used);
    tiling->usedCores = static_cast<uint32_t>(used);
    tiling->scale = scale;
"""
    assert old in text
    tiling.write_text(text.replace(old, """    TplScaleCustomTilingData tiling;
    tiling.set_perCore(static_cast<uint32_t>(total / used));
    tiling.set_usedCores(static_cast<uint32_t>(used));
    tiling.set_scale(scale);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
""", 1))
    project = load_project(p)
    got = {i.key for i in tpl_instances(project.sources, tpl_header(project.sources, project.kernel_file))}
    assert got == {_key(0, t, s) for t in (1, 4) for s in (False, True)} | {_key(1, 4, False)}
    results = run_cases(p)
    for name, r in results:
        assert r.ok, (name, r.mismatches, [d.render() for d in r.run.diagnostics])
    assert [r.tiling_key for _, r in results] == [_key(0, 1, False), _key(0, 4, True), _key(1, 4, False)]


def test_the_helper_links_though_an_ascend_950_source_does_not_compile(tmp_path):
    # hicann ops-nn conv3d_backprop_filter_v2: the A2 tiling calls a helper of the shared conv_platform_util.cpp, which
    # names std's string unqualified (platform/platform_info.h declares it at global scope, as CANN's does), while an
    # Ascend 950 (arch35) source of the op does not compile against the emulated headers: the A2 sources link first
    import shutil
    shutil.copytree(FOLDER, tmp_path / "p")
    host = tmp_path / "p" / "op_host"
    tiling = host / "tpl_scale_custom_tiling.cpp"
    text = tiling.read_text()
    choice = "    const uint32_t tiles = (dtype == ge::DT_FLOAT16 || total >= cores * 4 * 64) ? TPL_SCALE_TILES_4 : TPL_SCALE_TILES_1;\n"
    assert choice in text
    tiling.write_text(text.replace(choice, "    const uint32_t tiles = Ops::TplScaleTiles(dtype == ge::DT_FLOAT16, total, cores);\n")
                      .replace("namespace optiling {\n", "namespace Ops { uint32_t TplScaleTiles(bool half, int64_t total, "
                               "int64_t cores); }\nnamespace optiling {\n", 1))
    (host / "tpl_scale_helper.cpp").write_text(
        '#include <cstdint>\n#include "platform/platform_info.h"\n#include "../op_kernel/tpl_scale_custom_tiling_key.h"\n'
        'namespace Ops {\nstatic bool Wide(const string& mode) { return mode.size() > 2; }\n'
        'uint32_t TplScaleTiles(bool half, int64_t total, int64_t cores) {\n'
        '    vector<int64_t> parts{total, cores};\n    map<string, int64_t> named{{"total", parts[0]}};\n'
        '    return (half || (Wide("wide") && named["total"] >= parts[1] * 4 * 64)) ? TPL_SCALE_TILES_4 : TPL_SCALE_TILES_1;\n}\n}\n')
    (host / "arch35").mkdir()
    (host / "arch35" / "tpl_scale_regbase.cpp").write_text(
        '#include "op_common/regbase_only_header_not_emulated.h"\nnamespace Ops { int Regbase() { return 1; } }\n')
    x = torch.randn(48 * 4 * 64)
    r = run_project(tmp_path / "p", {"x": x}, attrs={"scale": 0.5}, reference=lambda x, scale: x * scale)
    assert r.ok, [d.render() for d in r.run.diagnostics] + [d.render() for d in getattr(r.run, "errors", [])]
    assert r.tiling_key == _key(0, 4, False)


def test_a_kernel_of_many_instances_is_compiled_one_key_at_a_time_and_runs_each_key(monkeypatch):
    # past TPL_ONE_BUILD_MAX instances (hicann ops-transformer flash_attention_score has 1522, which one translation unit
    # cannot hold) each instance sits under `#if TILING_KEY_VAR == key`: a build compiles its key's instance alone, as
    # CANN's build does, and a launch's run builds its key. Here the example's five instances, with the limit at 2.
    import ascendcraft.opproject as opproject
    from ascendcraft.opproject import TPL_FILE, template_entry, tpl_build_key
    monkeypatch.setattr(opproject, "TPL_ONE_BUILD_MAX", 2)
    project = load_project(FOLDER)
    sources = dict(project.sources)
    assert template_entry(project, sources) and sources[TPL_FILE].count("#if TILING_KEY_VAR == ") == 5
    first = tpl_instances(project.sources, tpl_header(project.sources, project.kernel_file))[0].key
    assert tpl_build_key(sources) == first
    assert tpl_build_key(project.sources) is None                       # no dispatching entry: every instance
    assert build_project(project, 0).tiling_key_var == 0                 # a build for one key (by default 0: none)
    monkeypatch.setattr(opproject, "TPL_ONE_BUILD_MAX", 256)
    assert build_project(project, 0).tiling_key_var is None              # one build of every instance, the key read at run time
    monkeypatch.setattr(opproject, "TPL_ONE_BUILD_MAX", 2)
    results = run_cases(FOLDER)
    for name, r in results:
        assert r.ok, (name, r.mismatches, [d.render() for d in r.run.diagnostics])
    assert [r.tiling_key for _, r in results] == [_key(0, 1, False), _key(0, 4, True), _key(1, 4, False)]
    x = torch.randn(8 * 64).to(torch.float16)
    r = run_project(FOLDER, {"x": x}, attrs={"scale": 2.0}, tiling_key=_key(1, 1, False), reference=lambda x, scale: x * scale)
    errors = [d for d in r.run.diagnostics if d.is_error]
    assert not r.run.ok and errors[0].kind == "tiling-key" and f"tiling key {_key(1, 1, False)} selects no instance" in errors[0].message


# A plain extern "C" entry of the op's name beside the template one (hicann ops-math roll): it copies x to y unscaled, so a
# run of it instead of the key's template instance would not match.
PLAIN_ENTRY = r"""
extern "C" __global__ __aicore__ void tpl_scale_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TplScaleCustomTilingData);
    GET_TILING_DATA_WITH_STRUCT(TplScaleCustomTilingData, tilingData, tiling);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, tilingData.perCore * sizeof(DTYPE_X));
    AscendC::GlobalTensor<DTYPE_X> xg, yg;
    xg.SetGlobalBuffer((__gm__ DTYPE_X*)x + tilingData.perCore * AscendC::GetBlockIdx(), tilingData.perCore);
    yg.SetGlobalBuffer((__gm__ DTYPE_X*)y + tilingData.perCore * AscendC::GetBlockIdx(), tilingData.perCore);
    AscendC::LocalTensor<DTYPE_X> v = buf.Get<DTYPE_X>();
    AscendC::DataCopy(v, xg, tilingData.perCore);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(yg, v, tilingData.perCore);
}
"""


@pytest.mark.parametrize("where", ["after", "before"])
def test_a_plain_entry_of_the_same_name_beside_the_template_one_is_not_the_ops_kernel(tmp_path, where):
    """CANN's build of a tiling-template op compiles one kernel per key of ASCENDC_TPL_SEL from the template entry and
    launches the key's; a plain extern "C" entry of the same name in the same file is not chosen (it was a 'several
    kernel entries' error), whichever comes first in the file."""
    import shutil
    shutil.copytree(FOLDER, tmp_path / "p")
    kernel = tmp_path / "p" / "op_kernel" / "tpl_scale_custom.cpp"
    text = kernel.read_text()
    at = text.index("template <typename D_T, uint32_t TILES, bool SQUARE>\n__global__")
    kernel.write_text(text + PLAIN_ENTRY if where == "after" else text[:at] + PLAIN_ENTRY + text[at:])
    project = load_project(tmp_path / "p")
    assert project.entry == "tpl_scale_custom" and project.kernel_file == "op_kernel/tpl_scale_custom.cpp"
    x = torch.randn(48 * 4 * 64, generator=torch.Generator().manual_seed(3))
    r = run_project(project, {"x": x}, attrs={"scale": 1.5, "square": True},
                    reference=lambda x, scale, square: (x * scale) ** 2, rtol=1e-5, atol=1e-5)
    assert r.ok, (r.mismatches, [d.render() for d in r.run.diagnostics])
    assert r.tiling_key == 1 << 8 | 1 << 10


def test_two_plain_entries_of_the_same_name_are_still_several(tmp_path):
    "Without a template among them the rule does not apply: two different plain entries stay an error naming both."
    import shutil
    shutil.copytree(FOLDER, tmp_path / "p")
    kernel = tmp_path / "p" / "op_kernel" / "tpl_scale_custom.cpp"
    text = kernel.read_text()
    at = text.index("template <typename D_T, uint32_t TILES, bool SQUARE>\n__global__")
    other = PLAIN_ENTRY.replace("GM_ADDR workspace, GM_ADDR tiling)", "GM_ADDR workspace, GM_ADDR tiling, GM_ADDR extra)")
    kernel.write_text(text[:at] + PLAIN_ENTRY + other)
    with pytest.raises(AscendCraftError, match="several kernel entries"):
        load_project(tmp_path / "p")


def test_a_run_builds_its_keys_instance_alone_and_the_verdict_builds_every_one(tmp_path, capsys):
    """A run knows its key from the tiling (`tiling_first`): a tiling-template kernel is compiled for that key's instance
    alone (`build_project(one_key=True)`), as CANN's build compiles one kernel a key, and the run says so; a build
    without a key (the kernel's verdict) compiles every instance and reports one that does not compile."""
    import shutil
    import uuid
    from ascendcraft.opproject import op_command
    shutil.copytree(FOLDER, tmp_path / "p")
    kernel = tmp_path / "p" / "op_kernel" / "tpl_scale_custom.cpp"
    text = kernel.read_text()
    register = "    REGISTER_TILING_DEFAULT(TplScaleCustomTilingData);\n"
    assert text.count(register) == 1
    # the instances of four tiles hold a construct that does not compile; the case's tiling chooses one tile
    kernel.write_text(f"// {uuid.uuid4()}\n" + text.replace(
        register, register + '    static_assert(TILES == 1, "an instance of four tiles: not built for a one-tile run");\n'))
    project = load_project(tmp_path / "p")
    r = run_project(project, {"x": torch.randn(48 * 64)}, attrs={"scale": 2.0}, reference=lambda x, scale: x * scale)
    assert r.ok, [d.render() for d in r.run.diagnostics]
    assert r.tiling_key == r.built_key == _key(0, 1, False)
    assert f"tiling_key={_key(0, 1, False)}, built for key {_key(0, 1, False)} alone" in repr(r)
    verdict = build_project(project, 0)               # no key: every instance, the four-tile ones among them
    assert not verdict.ok
    assert [d for d in verdict.errors if "an instance of four tiles" in d.message], verdict.diagnostics
    # `ascendcraft op` says which key's code it built
    (tmp_path / "p" / "ascendcraft_case.py").write_text(
        "import torch\n\ndef reference(x, scale, square):\n    return x * scale\n\n"
        "def cases():\n    yield dict(name='one tile', inputs={'x': torch.randn(48 * 64)}, attrs={'scale': 1.5, 'square': False})\n")
    class Args: folder = tmp_path / "p"
    assert op_command(Args) == 0
    assert f"tiling key {_key(0, 1, False)} (its code alone built)" in capsys.readouterr().out


def test_the_selections_are_read_after_what_the_kernel_includes_and_defines_before_the_key_header(tmp_path):
    # hicann ops-transformer grouped_matmul: its key header selects under GMM_FLOAT / GMM_QUANT_* macros that
    # grouped_matmul_utils.h defines from ORIG_DTYPE_X, which the kernel includes before the key header. CANN's build
    # reads the selections in the kernel's own translation unit, so those macros hold there; the header alone has none.
    import shutil
    from ascendcraft.opproject import dtype_macros, template_entry, TPL_FILE
    shutil.copytree(FOLDER, tmp_path / "p")
    p = tmp_path / "p"
    (p / "op_kernel/tpl_scale_custom_utils.h").write_text(
        "#ifndef TPL_SCALE_CUSTOM_UTILS_H\n#define TPL_SCALE_CUSTOM_UTILS_H\n#include \"kernel_operator.h\"\n"
        "#if defined(ORIG_DTYPE_X) && ORIG_DTYPE_X == DT_FLOAT\n#define TPL_SCALE_FLOAT\n"
        "#elif defined(ORIG_DTYPE_X) && ORIG_DTYPE_X == DT_FLOAT16\n#define TPL_SCALE_HALF\n#endif\n#endif\n")
    kernel = p / "op_kernel/tpl_scale_custom.cpp"
    old = '#include "tpl_scale_custom_tiling_key.h"\n'
    kernel.write_text(kernel.read_text().replace(old, '#include "tpl_scale_custom_utils.h"\n#if defined(TPL_SCALE_FLOAT)\n'
                                                      "#define TPL_SCALE_SQUARES 0, 1\n#endif\n" + old, 1))
    key = p / "op_kernel/tpl_scale_custom_tiling_key.h"
    text = key.read_text()
    sel = text[text.index("ASCENDC_TPL_SEL("):text.index("#endif", text.index("ASCENDC_TPL_SEL("))]
    float_sel = ("ASCENDC_TPL_SEL(\n    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T, C_DT_FLOAT),\n"
                 "        ASCENDC_TPL_UINT_SEL(TILES, ASCENDC_TPL_UI_LIST, TPL_SCALE_TILES_1, TPL_SCALE_TILES_4),\n"
                 "        ASCENDC_TPL_BOOL_SEL(SQUARE, TPL_SCALE_SQUARES)));\n")
    half_sel = ("ASCENDC_TPL_SEL(\n    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T, C_DT_FLOAT16),\n"
                "        ASCENDC_TPL_UINT_SEL(TILES, ASCENDC_TPL_UI_LIST, TPL_SCALE_TILES_4),\n"
                "        ASCENDC_TPL_BOOL_SEL(SQUARE, 0)));\n")
    key.write_text(text.replace(sel, f"#if defined(TPL_SCALE_FLOAT)\n{float_sel}#elif defined(TPL_SCALE_HALF)\n{half_sel}"
                                     "#endif\n", 1))
    project = load_project(p)
    header = tpl_header(project.sources, project.kernel_file)
    keys = lambda column, **kw: sorted(i.key for i in tpl_instances(
        project.sources, header, macros=dtype_macros(project.op, column), **kw))
    # the header alone (as before): no selection under the binary's macros, nor the host's
    with pytest.raises(AscendCraftError, match="no ASCENDC_TPL_ARGS_DECL with an ASCENDC_TPL_SEL"):
        keys(0)
    # in the kernel's unit: each dtype column's own selection, with the kernel's own TPL_SCALE_SQUARES
    assert keys(0, kernel_file=project.kernel_file) == sorted(_key(0, t, s) for t in (1, 4) for s in (False, True))
    assert keys(1, kernel_file=project.kernel_file) == [_key(1, 4, False)]
    sources = dict(project.sources)
    assert template_entry(project, sources, macros=dtype_macros(project.op, 1)) and f"case {_key(1, 4, False)}ull" \
        in sources[TPL_FILE]
    # and each run picks its key's instance (the float and float16 columns)
    results = run_cases(p)
    for name, r in results:
        assert r.ok, (name, r.mismatches, [d.render() for d in r.run.diagnostics])
    assert [r.tiling_key for _, r in results] == [_key(0, 1, False), _key(0, 4, True), _key(1, 4, False)]


def test_a_key_header_the_kernel_includes_first_is_read_as_before():
    # nothing precedes the header in the kernel's unit: the listing is the header's alone
    from ascendcraft.opproject import tpl_include_chain, tpl_prefix_macros
    from ascendcraft.config import load_settings
    project = load_project(FOLDER)
    header = tpl_header(project.sources, project.kernel_file)
    assert tpl_include_chain(project.sources, project.kernel_file, header) == [(project.kernel_file, 4)]
    sources = {"op_kernel/k.cpp": '// the key header first\n#include "k_tiling_key.h"\n#include "kernel_operator.h"\n',
               "op_kernel/k_tiling_key.h": project.sources[header]}
    assert tpl_prefix_macros(sources, "op_kernel/k.cpp", "op_kernel/k_tiling_key.h", {}, settings=load_settings()) is None
    assert {i.key for i in tpl_instances(sources, "op_kernel/k_tiling_key.h", kernel_file="op_kernel/k.cpp")} == \
        {i.key for i in tpl_instances(project.sources, header)}


def test_a_key_header_reached_by_a_path_that_climbs_out_is_read_after_what_the_kernel_defines():
    # hicann ops-transformer's kernels name shared headers by a path out of the op's folder (matmul_reduce_scatter:
    # `../../common/inc/kernel/mc2_tiling_struct.h`), which the build finds from an include folder and the corpus copy
    # keeps at its repository path. A key header reached so is the kernel's (not the Ascend 950 one beside it), and its
    # selections are read after the macros the kernel defines before it (grouped_matmul's GMM_FLOAT style), as for a
    # key header beside the kernel. Before, the tiling-template readers took only a name beside the includer or a
    # project file of that sub-path (not the `../` climb `emu.included_sources` takes): no header was chosen between
    # the two, the chain was not found, and the float16 instance under the kernel's macro was listed too.
    from ascendcraft.opproject import tpl_include_chain
    project = load_project(FOLDER)
    text = project.sources[tpl_header(project.sources, project.kernel_file)]
    start = text.index("ASCENDC_TPL_SEL(")
    sel = text[start:text.index("#endif", start)]
    float_sel = ("ASCENDC_TPL_SEL(\n    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T, C_DT_FLOAT),\n"
                 "        ASCENDC_TPL_UINT_SEL(TILES, ASCENDC_TPL_UI_LIST, TPL_SCALE_TILES_1, TPL_SCALE_TILES_4),\n"
                 "        ASCENDC_TPL_BOOL_SEL(SQUARE, 0, 1)));\n")
    key = text.replace(sel, f"#if defined(TPL_SCALE_FLOAT_ONLY)\n{float_sel}#else\n{sel}#endif\n", 1)
    shared = "repo/common/inc/kernel/tpl_scale_tiling_key.h"
    sources = {"op_kernel/k.cpp": '#include "kernel_operator.h"\n#define TPL_SCALE_FLOAT_ONLY\n'
                                  '#include "../../common/inc/kernel/tpl_scale_tiling_key.h"\n',
               shared: key, "op_kernel/arch35/k_tiling_key.h": text}
    assert tpl_header(sources, "op_kernel/k.cpp") == shared
    assert tpl_include_chain(sources, "op_kernel/k.cpp", shared) == [("op_kernel/k.cpp", 3)]
    assert sorted(i.key for i in tpl_instances(sources, shared, kernel_file="op_kernel/k.cpp")) == \
        sorted(_key(0, t, s) for t in (1, 4) for s in (False, True))
    # the header alone (no kernel unit) still has both dtypes' selections
    assert len(tpl_instances(sources, shared)) == 5


def test_the_prefix_macros_memo_is_keyed_by_the_files_the_kernels_unit_reads_before_the_key_header(monkeypatch):
    # `tpl_prefix_macros` preprocesses what precedes the key header in the kernel's unit (two g++ -E -dM runs); its
    # memo was keyed by every source of the project, so a link round that brings other ops' files, or a change to a
    # file the unit never reads, ran them again. Now: the texts of the files g++ may read there (the kernel file cut at
    # the key header's include, and what that part includes) and the macros given.
    import uuid
    from ascendcraft import opproject, sandbox
    from ascendcraft.config import load_settings
    runs, real = [], sandbox.run
    def recording(argv, **kw):
        if "__ascendcraft_tpl_prefix.cpp" in argv: runs.append(argv)
        return real(argv, **kw)
    monkeypatch.setattr(sandbox, "run", recording)
    settings = load_settings()
    project = load_project(FOLDER)
    key_h = "op_kernel/k_tiling_key.h"
    sources = {"op_kernel/k.cpp": f'// {uuid.uuid4()}\n#include "kernel_operator.h"\n#include "k_utils.h"\n'
                                  '#define K_TILES 4\n#include "k_tiling_key.h"\n#include "k_after.h"\n'
                                  "// after the key header: not read before it\n",
               "op_kernel/k_utils.h": "#pragma once\n#define K_FLOAT 1\n",
               "op_kernel/k_after.h": "#pragma once\n#define K_AFTER 1\n",
               key_h: project.sources[tpl_header(project.sources, project.kernel_file)],
               "op_kernel/other.h": "#pragma once\n#define OTHER 1\n"}
    prefix = lambda s, macros={}: opproject.tpl_prefix_macros(s, "op_kernel/k.cpp", key_h, macros, settings=settings)
    first = prefix(sources)
    assert "#define K_FLOAT 1" in first and "#define K_TILES 4" in first and "K_AFTER" not in first
    assert len(runs) == 2
    # files the unit does not read before the key header: the memo's (another op's files, a header it includes after
    # the key header, the kernel's text after that include)
    unread = {**sources, "op_kernel/other.h": "#pragma once\n#define OTHER 2\n",
              "siblings/other_op/op_kernel/other_op.h": "#pragma once\n#define SIBLING 1\n",
              "op_kernel/k_after.h": "#pragma once\n#define K_AFTER 2\n",
              "op_kernel/k.cpp": sources["op_kernel/k.cpp"] + "// one more line after\n"}
    assert prefix(unread) == first and len(runs) == 2
    # a header the unit reads before the key header (not on the include chain to it), the kernel's own part, the
    # macros given: read again
    assert "#define K_FLOAT 2" in prefix({**sources, "op_kernel/k_utils.h": "#pragma once\n#define K_FLOAT 2\n"})
    assert len(runs) == 4
    assert "#define K_TILES 1" in prefix({**sources, "op_kernel/k.cpp": sources["op_kernel/k.cpp"].replace(
        "#define K_TILES 4", "#define K_TILES 1")}) and len(runs) == 6
    assert prefix(sources, {"ORIG_DTYPE_X": "DT_FLOAT"}) == first and len(runs) == 8


def test_the_macros_a_header_on_the_way_to_the_key_header_defines_before_it_are_read():
    # the kernel includes a header that defines a macro and then includes the key header (a chain of two). Before,
    # each file of the chain was cut before its include of the next, so the kernel's part no longer included the
    # header on the way and that header's macro was missing from the prefix.
    import uuid
    from ascendcraft.config import load_settings
    from ascendcraft.opproject import tpl_include_chain, tpl_prefix_macros
    project = load_project(FOLDER)
    key_h = "op_kernel/k_tiling_key.h"
    sources = {"op_kernel/k.cpp": f'// {uuid.uuid4()}\n#include "kernel_operator.h"\n#define K_OWN 1\n#include "k_mid.h"\n',
               "op_kernel/k_mid.h": '#pragma once\n#define K_MID 1\n#include "k_tiling_key.h"\n#define K_MID_AFTER 1\n',
               key_h: project.sources[tpl_header(project.sources, project.kernel_file)]}
    assert tpl_include_chain(sources, "op_kernel/k.cpp", key_h) == [("op_kernel/k.cpp", 4), ("op_kernel/k_mid.h", 3)]
    prefix = tpl_prefix_macros(sources, "op_kernel/k.cpp", key_h, {}, settings=load_settings())
    assert "#define K_OWN 1" in prefix and "#define K_MID 1" in prefix and "K_MID_AFTER" not in prefix


def test_a_key_header_the_kernel_unit_leaves_out_is_passed_over_for_the_one_it_keeps():
    # hicann ops-transformer fused_infer_attention_score: the kernel defines FIA_ENABLE_MLA, then includes another op's
    # kernel file (`../../incre_flash_attention/op_kernel/incre_flash_attention.cpp`) whose key header declares that
    # op's parameters under `#ifndef FIA_ENABLE_MLA`; its own key header comes later, through a file of its own. The
    # nearer header declares nothing in this unit: the instances are the kernel's own header's
    from ascendcraft.opproject import tpl_headers, tpl_unit_instances
    other = ("#ifndef MINE_ON\n"
             "ASCENDC_TPL_ARGS_DECL(Other, ASCENDC_TPL_UINT_DECL(mode, 8, ASCENDC_TPL_UI_LIST, 5, 6));\n"
             "ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_UINT_SEL(mode, ASCENDC_TPL_UI_LIST, 5, 6)));\n#endif\n")
    mine = ("ASCENDC_TPL_ARGS_DECL(Mine, ASCENDC_TPL_BOOL_DECL(flag, 0, 1));\n"
            "ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_BOOL_SEL(flag, 1)));\n")
    sources = {
        "mine/op_kernel/mine.cpp": '#include "kernel_operator.h"\n#define MINE_ON\n'
                                   '#include "../../other/op_kernel/other.cpp"\n#include "mine_v2.cpp"\n',
        "other/op_kernel/other.cpp": '#include "other_tiling_key.h"\n',
        "other/op_kernel/other_tiling_key.h": other,
        "mine/op_kernel/mine_v2.cpp": '#include "mine_tiling_key.h"\n',
        "mine/op_kernel/mine_tiling_key.h": mine}
    kernel = "mine/op_kernel/mine.cpp"
    assert tpl_headers(sources, kernel) == ["other/op_kernel/other_tiling_key.h", "mine/op_kernel/mine_tiling_key.h"]
    got = tpl_unit_instances(sources, kernel)
    assert [(i.key, i.args) for i in got] == [(1, ("true",))]
    # without the kernel's define the nearer header is kept, as the compiler keeps it
    sources[kernel] = sources[kernel].replace("#define MINE_ON\n", "")
    assert sorted(i.args for i in tpl_unit_instances(sources, kernel)) == [("5",), ("6",)]
    # a kernel whose every key header is left out: the nearest one's error, named
    sources[kernel] = sources[kernel].replace('#include "mine_v2.cpp"', '#define MINE_ON')
    sources[kernel] = '#define MINE_ON\n' + sources[kernel]
    with pytest.raises(AscendCraftError, match="other_tiling_key.h has no ASCENDC_TPL_ARGS_DECL"):
        tpl_unit_instances(sources, kernel)
