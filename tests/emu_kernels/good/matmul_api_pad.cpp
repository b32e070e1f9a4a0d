/*
 * GetTensorC<sync, doPad = true>(ub, enAtomic, enSequentialWrite, height, width): a block of C whose width is not a
 * whole number of 32-byte blocks (N = 20 floats) lands in UB with each row padded by zeros to 24 floats, as
 * ops-transformer's prompt_flash_attention takes a head size that is not a multiple of 16. The kernel copies the
 * padded rows out whole (M x 24 floats) so that the test sees the padding too. The Matmul is one block
 * (singleCoreM = baseM = M, singleCoreN = baseN = N) computed asynchronously (Iterate<false>, the block waiting in
 * `cache`, SetWorkspace); the tiling's last word is the height the kernel passes.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

struct PaddedCopyTiling {
    TCubeTiling cube;
    uint32_t height;
};

extern "C" __global__ __aicore__ void matmul_pad(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR cache, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(PaddedCopyTiling);
    GET_TILING_DATA(td, tiling);
    const TCubeTiling &t = td.cube;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> yGm;
    aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), t.M * t.Ka);
    bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), t.Kb * t.N);
    const uint32_t rowLen = (t.N + 7) / 8 * 8;   // floats in a padded row
    yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), t.M * rowLen);
    TPipe pipe;
    TQue<TPosition::VECIN, 1> blockIn;
    pipe.InitBuffer(blockIn, 1, t.M * rowLen * sizeof(float));
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::VECCALC, CubeFormat::ND, float>> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm);
    mm.SetWorkspace(reinterpret_cast<__gm__ float *>(cache), t.M * t.N * sizeof(float));   // where the block waits
    mm.template Iterate<false>();
    LocalTensor<float> c = blockIn.AllocTensor<float>();
    mm.template GetTensorC<false, true>(c, false, false, td.height, t.N);
    mm.End();
    blockIn.EnQue(c);
    c = blockIn.DeQue<float>();
    DataCopy(yGm, c, t.M * rowLen);
    blockIn.FreeTensor(c);
}
