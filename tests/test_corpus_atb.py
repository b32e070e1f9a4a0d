"""The corpus collector of hicann/ascend-transformer-boost (ATB; examples/corpus/atb.py): the sources its op folders'
`add_kernel(<name> <soc> <core type> <source> <class> [INCLUDE_DIRECTORIES ...])` calls build for ascend910b (kind
kernel-file, the kernel the call's name), with ATB's include folders and the call's own, the catlass headers of the tag
ATB's build clones; how such an entry is materialised and built. Small one-commit repositories; no mirror. And
atb_by_hand.py's written-out pp matmul tiling: the two tiling-key layouts and the int8 / mix limits."""
import subprocess
import sys

import numpy as np
import pytest

from _corpus import CORPUS_DIR, git_repo, load_corpus

corpus = load_corpus("corpus_atb")

NORM_CMAKE = """set(norm_srcs ${CMAKE_CURRENT_LIST_DIR}/norm_operation.cpp)
add_operation(NormOperation "${norm_srcs}")
add_kernel(scale_norm
    ascend910b vector scalenorm/op_kernel/scale_norm.cpp ScaleNormKernel)
add_kernel(scale_norm
    ascend310p vector scalenorm/op_kernel/scale_norm.cpp ScaleNormKernel)
# add_kernel(old_norm ascend910b vector oldnorm/op_kernel/old_norm.cpp OldNormKernel)
add_kernel(norm_310p ascend310p vector normnz/op_kernel/norm_310p.cpp Norm310pKernel)
"""

# two kernels in one file: the add_kernel call names the second
SCALE_NORM = """#include "kernel_operator.h"
#include "kernels/utils/kernel/scale_utils.h"
#include "kernels/norm/common/norm_tiling.h"
extern "C" __global__ __aicore__ void scale_norm_debug(GM_ADDR x, GM_ADDR y, GM_ADDR tiling) { Halve(x, y, tiling); }
extern "C" __global__ __aicore__ void scale_norm(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    NormTiling t;
    t.numel = (*(const __gm__ uint32_t *)(tiling + 0));
    t.factor = (*(const __gm__ float *)(tiling + 4));
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float *)x, t.numel);
    yg.SetGlobalBuffer((__gm__ float *)y, t.numel);
    for (uint32_t i = 0; i < t.numel; ++i) yg.SetValue(i, Scaled(xg.GetValue(i), t.factor));
}
"""

UTILS = """#pragma once
__aicore__ inline float Scaled(float v, float f) { return v * f; }
__aicore__ inline void Halve(GM_ADDR, GM_ADDR, GM_ADDR) {}
"""

GMM_CMAKE = """add_kernel(
    gmm_tile ascend910b mix
    op_kernel/gmm_tile.cpp
    GmmTileKernel
    INCLUDE_DIRECTORIES ${OPS_THIRD_PARTY_DIR}/catlass/include
                        ${OPS_PROJECT_ROOT_DIR}/mixkernels/utils/common/kernel/catlass
)
"""

GMM = """#include "kernel_operator.h"
#include "catlass/catlass.hpp"
#include "epilogue/dispatch_policy.h"
extern "C" __global__ __aicore__ void gmm_tile(GM_ADDR y)
{
    AscendC::GlobalTensor<int32_t> yg;
    yg.SetGlobalBuffer((__gm__ int32_t *)y, 2);
    yg.SetValue(0, CATLASS_ANSWER);
    yg.SetValue(1, EPILOGUE_ANSWER);
}
"""

ATB = {
    "src/kernels/kernels/norm/CMakeLists.txt": NORM_CMAKE,
    "src/kernels/kernels/norm/norm_operation.cpp": "// host\n",
    "src/kernels/kernels/norm/scalenorm/op_kernel/scale_norm.cpp": SCALE_NORM,
    "src/kernels/kernels/norm/normnz/op_kernel/norm_310p.cpp": "#error 310P only\n",
    "src/kernels/kernels/norm/oldnorm/op_kernel/old_norm.cpp": "#error not built\n",
    "src/kernels/kernels/norm/common/norm_tiling.h": "#pragma once\nstruct NormTiling { uint32_t numel; float factor; };\n",
    "src/kernels/kernels/utils/kernel/scale_utils.h": UTILS,
    "src/kernels/kernels/utils/kernel/unused.h": "#error never included\n",
    "src/kernels/mixkernels/gmm/CMakeLists.txt": GMM_CMAKE,
    "src/kernels/mixkernels/gmm/op_kernel/gmm_tile.cpp": GMM,
    "src/kernels/mixkernels/utils/common/kernel/catlass/epilogue/dispatch_policy.h":
        "#pragma once\n#define EPILOGUE_ANSWER (CATLASS_ANSWER + 1)\n",
    "src/kernels/lcal/src/kernels/lcal_sum.cce": "// communication kernels: their own build\n",
}

CATLASS = {"include/catlass/catlass.hpp": '#pragma once\n#include "detail/answer.hpp"\n',
           "include/catlass/detail/answer.hpp": "#pragma once\n#define CATLASS_ANSWER 14\n",
           "include/catlass/unused.hpp": "#error never included\n"}


def catlass_repo(root, answer_at_tag: int = 14):
    "A catlass repository whose tag v1.4.0 has CATLASS_ANSWER `answer_at_tag` and whose newer HEAD has another."
    gitdir, _ = git_repo(root, {**CATLASS, "include/catlass/detail/answer.hpp": f"#pragma once\n#define CATLASS_ANSWER {answer_at_tag}\n"})
    git = ["git", "-C", str(root), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "tag", "v1.4.0"], check=True)
    (root / "include/catlass/detail/answer.hpp").write_text("#pragma once\n#define CATLASS_ANSWER 99\n")
    subprocess.run([*git, "commit", "-qam", "newer"], check=True)
    return gitdir


def test_atb_collects_the_sources_built_for_ascend910b_with_their_kernel_core_and_include_folders(tmp_path):
    got = {e["path"]: e for e in corpus.collect("hicann/ascend-transformer-boost", git_repo(tmp_path, ATB)[0])}
    assert sorted(got) == ["src/kernels/kernels/norm/scalenorm/op_kernel/scale_norm.cpp",
                           "src/kernels/mixkernels/gmm/op_kernel/gmm_tile.cpp"]   # not 310P-only, not commented out
    norm = got["src/kernels/kernels/norm/scalenorm/op_kernel/scale_norm.cpp"]
    assert (norm["kind"], norm["kernel"], norm["core"], norm["include"]) == \
        ("kernel-file", "scale_norm", "vector", ["src/kernels", "src/kernels/include"])
    assert "third_party" not in norm
    gmm = got["src/kernels/mixkernels/gmm/op_kernel/gmm_tile.cpp"]
    assert gmm["include"] == ["src/kernels", "src/kernels/include", "src/kernels/mixkernels/utils/common/kernel/catlass"]
    assert (gmm["core"], gmm["third_party"]) == ("mix", ["${OPS_THIRD_PARTY_DIR}/catlass/include"])


def test_an_add_kernel_call_with_an_unknown_folder_variable_is_an_error_that_names_it():
    import sys
    sys.path.insert(0, str(corpus.HERE))
    import atb
    with pytest.raises(ValueError, match=r"\$\{SOMEWHERE\}"):
        atb.include_folder("${SOMEWHERE}/inc", "src/kernels/x")
    with pytest.raises(ValueError, match="expected <name> <soc>"):
        atb.add_kernel_calls("add_kernel(only two)")


def test_an_atb_entry_is_its_file_with_what_it_reaches_and_builds_the_kernel_its_call_names(tmp_path):
    gitdir = git_repo(tmp_path / "repo", ATB)[0]
    entry = next(e for e in corpus.collect("hicann/ascend-transformer-boost", gitdir) if e["kernel"] == "scale_norm")
    dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
    have = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
    assert have == ["src/kernels/ascendcraft_corpus_include_root.h", "src/kernels/kernels/norm/common/norm_tiling.h",
                    "src/kernels/kernels/norm/scalenorm/op_kernel/scale_norm.cpp",
                    "src/kernels/kernels/utils/kernel/scale_utils.h"]
    out = corpus.try_entry((entry, gitdir, False, False))
    assert out["kernel_ok"], out
    from ascendcraft.emu import GM, build, read_sources, run
    b = build(read_sources(dest), entry["kernel"])
    assert b.ok, b.diagnostics
    x = np.linspace(-1, 1, 16, dtype=np.float32)
    tiling = np.frombuffer(np.array([16], np.uint32).tobytes() + np.array([2.5], np.float32).tobytes(), np.uint8).copy()
    r = run(b, [GM("x", x), GM("y", np.zeros(16, np.float32), "out"), GM("tiling", tiling)], block_dim=1)
    assert r.ok, r.diagnostics
    np.testing.assert_array_equal(r.outputs["y"], x * np.float32(2.5))   # scale_norm ran, not scale_norm_debug


def test_catlass_headers_come_from_the_tag_atbs_build_clones_and_a_deeper_root_is_an_include_folder(tmp_path):
    gitdir = git_repo(tmp_path / "repo", ATB)[0]
    entry = next(e for e in corpus.collect("hicann/ascend-transformer-boost", gitdir) if e["kernel"] == "gmm_tile")
    with pytest.raises(RuntimeError, match="--git hicann/catlass=<git dir>"):
        corpus.materialise(entry, gitdir, tmp_path / "without")
    corpus.GITDIRS["hicann/catlass"] = catlass_repo(tmp_path / "catlass")
    try:
        dest = corpus.materialise(entry, gitdir, tmp_path / "copy")
        have = sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*") if p.is_file())
        assert have == ["catlass_include/ascendcraft_corpus_include_root.h", "catlass_include/catlass/catlass.hpp",
                        "catlass_include/catlass/detail/answer.hpp",
                        "src/kernels/mixkernels/gmm/op_kernel/gmm_tile.cpp",
                        "src/kernels/mixkernels/utils/common/kernel/catlass/ascendcraft_corpus_include_root.h",
                        "src/kernels/mixkernels/utils/common/kernel/catlass/epilogue/dispatch_policy.h"]
        from ascendcraft.emu import GM, build, read_sources, run
        b = build(read_sources(dest), "gmm_tile")
        assert b.ok, b.diagnostics
        r = run(b, [GM("y", np.zeros(2, np.int32), "out")], block_dim=1)
        assert r.ok, r.diagnostics
        assert r.outputs["y"].tolist() == [14, 15]   # the tag's header, not the newer HEAD's
    finally:
        del corpus.GITDIRS["hicann/catlass"]


def test_an_entrys_add_kernel_core_type_is_the_kernel_type_its_build_declares():
    # "cube" / "vector": compiled for that core alone, whatever its headers hold; "mix": the type its code gives
    if str(CORPUS_DIR) not in sys.path: sys.path.insert(0, str(CORPUS_DIR))
    import atb
    assert atb.kernel_type({"path": "pp.cce", "core": "cube"}) == "KERNEL_TYPE_AIC_ONLY"
    assert atb.kernel_type({"path": "norm.cpp", "core": "vector"}) == "KERNEL_TYPE_AIV_ONLY"
    assert atb.kernel_type({"path": "fa.cce", "core": "mix"}) is None
    with pytest.raises(ValueError, match=r"pp\.cce: add_kernel core type 'aic'"):
        atb.kernel_type({"path": "pp.cce", "core": "aic"})


def _atb_by_hand():
    if str(CORPUS_DIR) not in sys.path: sys.path.insert(0, str(CORPUS_DIR))
    import atb_by_hand
    return atb_by_hand


def test_pp_tiling_keys_take_the_layout_each_kernel_switches_on():
    # SetTilingKey's long layout, SwizzleDir TransA TransB DtypeA[3] DtypeB[3] DtypeC[3] FormatA FormatB FormatC WithBias
    # (dtype codes int8 0, half 1, bfloat16 2, float 3), for accum / bias / ein_sum and int8 -> bfloat16; the short one,
    # SwizzleDir TransA TransB Int8 WithBias SplitK, for the rest. The swizzle bit is the shape's, masked off here.
    h = _atb_by_hand()
    key = lambda *a, **k: h.pp_matmul_tiling(*a, **k)["tilingKey"]
    accum = key(1, 100, 200, 300, False, False, mm_type="accum", dtypes=("half", "half", "float"))
    assert accum & ~(1 << 15) == 0b0_0_0_001_001_011_0_0_0_0   # the accum kernel's `tilingKey >> 10` case 0b000001
    einsum = key(2, 20, 70, 50, False, True, mm_type="einsum", dtypes=("bfloat16",) * 3, nz_b=True)
    assert einsum & ~(1 << 15) == 0b0_0_1_010_010_010_0_1_0_0  # ein_sum's `tilingKey >> 2` case ..._bf16_nz, B^T
    i8 = key(1, 37, 1000, 70, False, True, dtypes=("int8", "int8", "bfloat16"), bias=True, i8_long_key=True)
    assert i8 & ~(1 << 15) == 0b0_0_1_000_000_010_0_0_0_1
    assert key(1, 100, 200, 300, True, False, dtypes=("int8", "int8", "half"), bias=True) & 0b011111 == 0b010110
    assert key(1, 100, 200, 300, True, True) & 0b011111 == 0b011000   # the plain half kernel's, as before


def test_pp_tiling_int8_and_mix_limits_follow_the_host_code():
    h = _atb_by_hand()
    # int8: inDtype 1 lets the search reach 512, but n0 stays at most 256 (64 x 512 would cost less); k0 in whole 512s
    # of what is left of L1 beside 6 KiB of scale: (262144 - 6144) / (64 + 256) = 800 -> 512
    t = h.pp_matmul_tiling(1, 64, 4096, 4096, False, False, dtypes=("int8", "int8", "bfloat16"), i8_long_key=True)
    assert (t["m0"], t["n0"], t["k0"]) == (64, 256, 512)
    # the mix tiling keeps the first m0 / n0 the search settles on: no transposed-B narrowing in its SetBaseOp
    plain = h.pp_matmul_tiling(2, 37, 1000, 70, False, True)
    mix = h.pp_matmul_tiling(2, 37, 1000, 70, False, True, bias=True, mix=True)
    assert (plain["m0"], plain["n0"], mix["m0"], mix["n0"]) == (48, 16, 64, 64)
    assert mix["tilingKey"] & 0b011111 == 0b001010             # pp_matmul_add's case: B^T, with its third input
