/* MatmulBiasReluCustom kernel: each AIV of the mixed launch computes one single-core tile of relu(a x b + bias).
 * GetBlockIdx() numbers the AIVs (two per block); the Matmul hands the tile over block by block (baseM x baseN,
 * row-major in UB), the vector core applies ReLU and copies the block's rows to c (the last blocks may be short). */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

class MatmulBiasRelu {
public:
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, const TCubeTiling* tiling, TPipe* pipe)
    {
        t = tiling;
        const int32_t tile = GetBlockIdx(), tilesM = (t->M + t->singleCoreM - 1) / t->singleCoreM;
        mIdx = tile % tilesM;
        nIdx = tile / tilesM;
        rows = t->M - mIdx * t->singleCoreM < t->singleCoreM ? t->M - mIdx * t->singleCoreM : t->singleCoreM;
        cols = t->N - nIdx * t->singleCoreN < t->singleCoreN ? t->N - nIdx * t->singleCoreN : t->singleCoreN;
        aGm.SetGlobalBuffer((__gm__ half*)a + mIdx * t->singleCoreM * t->Ka, rows * t->Ka);
        bGm.SetGlobalBuffer((__gm__ half*)b + nIdx * t->singleCoreN, t->Kb * t->N);
        biasGm.SetGlobalBuffer((__gm__ float*)bias + nIdx * t->singleCoreN, cols);
        cGm.SetGlobalBuffer((__gm__ float*)c + mIdx * t->singleCoreM * t->N + nIdx * t->singleCoreN, rows * t->N);
        pipe->InitBuffer(inQ, 1, t->baseM * t->baseN * sizeof(float));
        pipe->InitBuffer(outQ, 1, t->baseM * t->baseN * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        mm.SetTensorA(aGm);
        mm.SetTensorB(bGm);
        mm.SetBias(biasGm);
        mm.SetTail(rows, cols);
        const int32_t blocksM = (rows + t->baseM - 1) / t->baseM;
        int32_t index = 0;
        while (mm.Iterate()) {
            const int32_t bm = index % blocksM, bn = index / blocksM;   // iterateOrder 0: down M first
            const int32_t bRows = rows - bm * t->baseM < t->baseM ? rows - bm * t->baseM : t->baseM;
            const int32_t bCols = cols - bn * t->baseN < t->baseN ? cols - bn * t->baseN : t->baseN;
            LocalTensor<float> x = inQ.AllocTensor<float>();
            mm.GetTensorC(x);
            inQ.EnQue(x);
            x = inQ.DeQue<float>();
            LocalTensor<float> y = outQ.AllocTensor<float>();
            Relu(y, x, bRows * t->baseN);   // the block's rows (a short block leaves the rest of UB unwritten)
            outQ.EnQue(y);
            inQ.FreeTensor(x);
            y = outQ.DeQue<float>();
            DataCopyExtParams out(static_cast<uint16_t>(bRows), static_cast<uint32_t>(bCols * sizeof(float)),
                                  static_cast<uint32_t>((t->baseN - bCols) * sizeof(float) / 32),
                                  static_cast<uint32_t>((t->N - bCols) * sizeof(float)), 0);
            DataCopyPad(cGm[bm * t->baseM * t->N + bn * t->baseN], y, out);
            outQ.FreeTensor(y);
            ++index;
        }
        mm.End();
    }

    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, float>, MatmulType<TPosition::GM, CubeFormat::ND, float>> mm;

private:
    const TCubeTiling* t = nullptr;
    int32_t mIdx = 0, nIdx = 0, rows = 0, cols = 0;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm, cGm;
};

extern "C" __global__ __aicore__ void matmul_bias_relu_custom(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                              GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(tilingData, tiling);
    TPipe pipe;
    MatmulBiasRelu op;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), op.mm, &tilingData.cubeTilingData);
    if (GetBlockIdx() >= tilingData.cubeTilingData.usedCoreNum) return;
    op.Init(a, b, bias, c, &tilingData.cubeTilingData, &pipe);
    op.Process();
}
