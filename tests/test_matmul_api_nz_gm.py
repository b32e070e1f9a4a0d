"""A Matmul whose A or B sits in GM in the NZ format (MatmulType<TPosition::GM, CubeFormat::NZ, half>): the matrix as
stored (A or A^T, B or B^T) in fractals of 16 rows x 32 bytes, one column block after another, each as tall as the
stored matrix's rows rounded up to 16 (SetOrgShape's rows; AscendC's data-format docs for NZ). The mat_mul_v3 family's
unaligned kernels (cann-ops MatmulBaseUnAlignedKernel) convert an unaligned ND operand to NZ on the vector cores and
hand the cube a Matmul of the NZ type; the emulated Matmul read it as ND, so the product was wrong everywhere."""
import numpy as np
import pytest

from ascendcraft.emu import GM, Tiling, build, run

from test_emu_cube import tcube_tiling

KERNEL = r'''
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
template <bool TA, bool TB, CubeFormat FA, CubeFormat FB>
__aicore__ inline void Run(GM_ADDR a, GM_ADDR b, GM_ADDR c, const TCubeTiling& t, int rowsA, int rowsB) {
    using aType = matmul::MatmulType<TPosition::GM, FA, half, TA>;
    using bType = matmul::MatmulType<TPosition::GM, FB, half, TB>;
    using cType = matmul::MatmulType<TPosition::GM, CubeFormat::ND, float>;
    GlobalTensor<half> ag, bg;
    GlobalTensor<float> cg;
    ag.SetGlobalBuffer((__gm__ half*)a);
    bg.SetGlobalBuffer((__gm__ half*)b);
    cg.SetGlobalBuffer((__gm__ float*)c);
    TPipe pipe;
    matmul::Matmul<aType, bType, cType> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    // the stored matrices' rows (a multiple of 16 for an NZ operand), as the mat_mul_v3 kernels give them
    mm.SetOrgShape(TA ? t.M : rowsA, TB ? rowsB : t.N, TA ? rowsA : t.Ka, TB ? t.Kb : rowsB, t.N);
    mm.SetTensorA(ag, TA);
    mm.SetTensorB(bg, TB);
    mm.IterateAll(cg);
    mm.End();
}
extern "C" __global__ __aicore__ void nz_matmul(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR workspace, GM_ADDR tiling) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    struct Args { TCubeTiling t; int32_t form, rowsA, rowsB; };
    Args args;
    const __gm__ uint8_t* p = (const __gm__ uint8_t*)tiling;
    for (uint32_t i = 0; i < sizeof(Args); ++i) ((uint8_t*)&args)[i] = p[i];
    switch (args.form) {
    case 0: Run<false, false, CubeFormat::ND, CubeFormat::NZ>(a, b, c, args.t, args.rowsA, args.rowsB); break;
    case 1: Run<false, false, CubeFormat::NZ, CubeFormat::ND>(a, b, c, args.t, args.rowsA, args.rowsB); break;
    case 2: Run<true, true, CubeFormat::NZ, CubeFormat::NZ>(a, b, c, args.t, args.rowsA, args.rowsB); break;
    }
}
'''


def nz(x: np.ndarray) -> np.ndarray:
    "A stored matrix (rows x cols, half) in NZ: rows rounded up to 16, cols to 16, column block after column block."
    r, c = x.shape
    rp, cp = -(-r // 16) * 16, -(-c // 16) * 16
    pad = np.zeros((rp, cp), x.dtype)
    pad[:r, :c] = x
    return np.ascontiguousarray(pad.reshape(rp, cp // 16, 16).transpose(1, 0, 2)).reshape(-1), rp


@pytest.mark.parametrize("form", [0, 1, 2])
def test_an_nz_operand_in_gm_is_read_as_nz(form):
    m, n, k = 40, 72, 56          # no dimension a multiple of 16 after the transposes: the padding counts
    rng = np.random.default_rng(3 + form)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    want = a.astype(np.float64) @ b.astype(np.float64)
    if form == 0:
        ga, rows_a = a.reshape(-1), m
        gb, rows_b = nz(b)
    elif form == 1:
        (ga, rows_a), gb, rows_b = nz(a), b.reshape(-1), k
    else:                          # A^T (k x m) and B^T (n x k) stored, both NZ
        (ga, rows_a), (gb, rows_b) = nz(np.ascontiguousarray(a.T)), nz(np.ascontiguousarray(b.T))
    tiling = tcube_tiling(usedCoreNum=1, M=m, N=n, Ka=k, Kb=k, singleCoreM=m, singleCoreN=n, singleCoreK=k, baseM=32,
                          baseN=32, baseK=32, depthA1=2, depthB1=2, stepM=1, stepN=1, dbL0A=2, dbL0B=2, dbL0C=1)
    tiling += np.array([form, rows_a, rows_b], np.int32).tobytes()
    bld = build({"nz_matmul.cpp": KERNEL}, entry="nz_matmul")
    assert bld.ok, "\n".join(map(str, bld.diagnostics))
    r = run(bld, [GM("a", ga), GM("b", gb), GM("c", np.zeros((m, n), np.float32), "out"),
                  GM("workspace", np.zeros(16, np.uint8), "workspace"), Tiling(tiling)], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_allclose(r.outputs["c"], want, rtol=1e-5, atol=1e-4)
