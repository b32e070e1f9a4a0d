"""kernel_common.h's per-core pipe pointers (g_cubeTPipePtr, g_vecTPipePtr, g_tPipePtr): a Matmul kernel may set
g_cubeTPipePtr to its TPipe before REGIST_MATMUL_OBJ (asc-devkit's IterateNBatch page does), as LLM4AscendC's Matmul
answers do. Each block has its own (__BLOCK_LOCAL__), and the Matmul still computes C = A x B."""
from pathlib import Path

import numpy as np

from ascendcraft.emu import GM, build, run

STATIC = Path(__file__).parent / "emu_kernels" / "good" / "matmul_api_static.cpp"


def test_a_kernel_that_sets_g_cubeTPipePtr_runs_its_matmul(tmp_path):
    src = STATIC.read_text()
    old = "    TPipe pipe;\n"
    assert src.count(old) == 1
    # every block sets its own pointers; a block that saw another's value would write 0 to its flag
    src = src.replace(old, old + "    g_cubeTPipePtr = &pipe;\n    g_vecTPipePtr = nullptr;\n    g_tPipePtr = &pipe;\n")
    src = src.replace("    mm.End();\n", "    mm.End();\n    flagGm.SetValue(GetBlockIdx(), g_cubeTPipePtr == &pipe && g_tPipePtr == &pipe "
                      "&& g_vecTPipePtr == nullptr ? 1 : 0);\n")
    src = src.replace("GM_ADDR c)\n{\n", "GM_ADDR c, GM_ADDR flag)\n{\n    GlobalTensor<int32_t> flagGm;\n"
                      "    flagGm.SetGlobalBuffer((__gm__ int32_t *)flag, 8);\n")
    assert src.count("flagGm") == 3
    old_c = "cGm.SetGlobalBuffer((__gm__ float *)c, 64 * 64);"   # each block its own C
    assert src.count(old_c) == 1
    src = src.replace(old_c, "cGm.SetGlobalBuffer((__gm__ float *)c + GetBlockIdx() * 64 * 64, 64 * 64);")
    kernel = tmp_path / "pipe_ptr.cpp"
    kernel.write_text(src)
    b = build(kernel)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    rng = np.random.default_rng(5)
    a, bm = (rng.standard_normal((64, 64)).astype(np.float16) for _ in range(2))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.zeros((2, 64, 64), np.float32), "out"),
                GM("flag", np.zeros(8, np.int32), "out")], block_dim=2)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    assert list(r.outputs["flag"][:2]) == [1, 1]
    for c in r.outputs["c"]:
        np.testing.assert_allclose(c, a.astype(np.float64) @ bm.astype(np.float64), rtol=1e-5, atol=1e-4)


def test_the_pointers_are_declared_at_global_scope_as_in_kernel_common_h():
    src = '''#include "kernel_operator.h"
static_assert(std::is_same<decltype(::g_cubeTPipePtr), AscendC::TPipe*>::value, "g_cubeTPipePtr");
static_assert(std::is_same<decltype(::g_vecTPipePtr), AscendC::TPipe*>::value, "g_vecTPipePtr");
static_assert(std::is_same<decltype(::g_tPipePtr), AscendC::TPipe*>::value, "g_tPipePtr");
extern "C" __global__ __aicore__ void k(GM_ADDR x) { (void)x; }
'''
    b = build({"decl.cpp": src})
    assert b.ok, "\n".join(map(str, b.diagnostics))
