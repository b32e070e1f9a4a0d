"""A Matmul-API kernel whose last block sits at the matrix's edge (M not a multiple of singleCoreM). The Matmul moves a
whole singleCoreM x singleCoreN block unless SetTail shrinks it, so without SetTail the edge block reads A past its
end: a gm-out-of-bounds error at the IterateAll line whose hint names SetTail. With SetTail(M - row) the product
matches NumPy. (An LLM-made public kernel, EvoKernel's MatmulWithTransposedB, passed on its 910B at a shape where M
divides and stops here at M = 200: the kernel's fault, which the hint explains.)"""
import numpy as np
import pytest

from ascendcraft.emu import GM, Tiling, build, run

from test_emu_cube import tcube_tiling

KERNEL = r'''#include "kernel_operator.h"
#define ASCENDC_CUBE_ONLY
#include "lib/matmul_intf.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void mm_tail(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(TCubeTiling);
    GET_TILING_DATA(td, tiling);
    using AType = MatmulType<TPosition::GM, CubeFormat::ND, half>;
    using CType = MatmulType<TPosition::GM, CubeFormat::ND, float>;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), td.M * td.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), td.Kb * td.N);
    cGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(c), td.M * td.N);
    TPipe pipe;
    Matmul<AType, AType, CType, CType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &td);
    const int32_t row = GetBlockIdx() * td.singleCoreM;
    mm.SetTensorA(aGm[row * td.Ka]);
    mm.SetTensorB(bGm);
    SET_TAIL
    mm.IterateAll(cGm[row * td.N]);
    mm.End();
}
'''


@pytest.mark.parametrize("tail", [False, True])
def test_an_edge_block_needs_set_tail(tail):
    m, n, k, single_m = 80, 32, 64, 48                 # block 1 holds rows 48..79: 32 rows, not 48
    rng = np.random.default_rng(31)
    a = rng.standard_normal((m, k)).astype(np.float16)
    bm = rng.standard_normal((k, n)).astype(np.float16)
    tiling = tcube_tiling(usedCoreNum=2, M=m, N=n, Ka=k, Kb=k, singleCoreM=single_m, singleCoreN=n, singleCoreK=k,
                          baseM=16, baseN=32, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2,
                          dbL0C=1)
    set_tail = "if (row + td.singleCoreM > td.M) mm.SetTail(td.M - row, td.N);" if tail else ""
    b = build({"tail.cpp": KERNEL.replace("SET_TAIL", set_tail)})
    assert b.ok, "\n".join(map(str, b.diagnostics))
    r = run(b, [GM("a", a), GM("b", bm), GM("c", np.zeros((m, n), np.float32), "out"),
                GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=2)
    if tail:
        assert r.ok, "\n".join(map(str, r.diagnostics))
        np.testing.assert_allclose(r.outputs["c"], a.astype(np.float64) @ bm.astype(np.float64), rtol=1e-5, atol=1e-4)
        return
    assert not r.ok
    d = next(d for d in r.diagnostics if d.kind == "gm-out-of-bounds")
    assert "'a'" in d.message and "reads" in d.message
    assert "mm.IterateAll" in d.source_line
    assert "SetTail(tailM, tailN)" in d.hint
