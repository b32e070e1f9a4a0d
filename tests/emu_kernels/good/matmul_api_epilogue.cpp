/*
 * y = LeakyRelu(A x B) with the vector core doing the epilogue: the Matmul object hands each baseM x baseN
 * block of C to a UB tensor (GetTensorC into a VECIN queue), LeakyRelu runs on it, and the block goes out to
 * its place in y with a strided DataCopy. One block computes the whole matrix.
 */
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using namespace AscendC;

struct EpilogueTiling {
    TCubeTiling cube;
    float alpha;
};

class MatmulLeakyRelu {
public:
    __aicore__ inline MatmulLeakyRelu() {}
    __aicore__ inline void Init(GM_ADDR a, GM_ADDR b, GM_ADDR y, const EpilogueTiling &td)
    {
        t = td.cube;
        alpha = td.alpha;
        aGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(a), t.M * t.Ka);
        bGm.SetGlobalBuffer(reinterpret_cast<__gm__ half *>(b), t.Kb * t.N);
        yGm.SetGlobalBuffer(reinterpret_cast<__gm__ float *>(y), t.M * t.N);
        pipe.InitBuffer(blockIn, 1, t.baseM * t.baseN * sizeof(float));
        pipe.InitBuffer(blockOut, 1, t.baseM * t.baseN * sizeof(float));
        REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &t);
    }
    __aicore__ inline void Process()
    {
        mm.SetTensorA(aGm);
        mm.SetTensorB(bGm);
        const uint32_t blocksM = (t.singleCoreM + t.baseM - 1) / t.baseM;
        uint32_t index = 0;
        while (mm.Iterate()) {
            LocalTensor<float> c = blockIn.AllocTensor<float>();
            mm.GetTensorC(c);
            blockIn.EnQue(c);
            c = blockIn.DeQue<float>();
            LocalTensor<float> r = blockOut.AllocTensor<float>();
            LeakyRelu(r, c, alpha, t.baseM * t.baseN);
            blockOut.EnQue(r);
            blockIn.FreeTensor(c);
            r = blockOut.DeQue<float>();
            // iterateOrder 0: blocks walk down M first
            const uint32_t row = (index % blocksM) * t.baseM, col = (index / blocksM) * t.baseN;
            DataCopyParams out(t.baseM, t.baseN * sizeof(float) / 32, 0, (t.N - t.baseN) * sizeof(float) / 32);
            DataCopy(yGm[row * t.N + col], r, out);
            blockOut.FreeTensor(r);
            ++index;
        }
        mm.End();
    }

private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> blockIn;
    TQue<TPosition::VECOUT, 1> blockOut;
    Matmul<MatmulType<TPosition::GM, CubeFormat::ND, half>, MatmulType<TPosition::GM, CubeFormat::ND, half>,
           MatmulType<TPosition::VECIN, CubeFormat::ND, float>> mm;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> yGm;
    TCubeTiling t;
    float alpha = 0;
};

extern "C" __global__ __aicore__ void matmul_leaky_relu(GM_ADDR a, GM_ADDR b, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(EpilogueTiling);
    GET_TILING_DATA(td, tiling);
    MatmulLeakyRelu op;
    op.Init(a, b, y, td);
    op.Process();
}
