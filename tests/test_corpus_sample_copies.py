"""Copies of the official Ascend/samples repository with its operator/ tree (community.OFFICIAL_SAMPLE_COPIES, the
forty-third round, newsrc): each sample's FrameworkLaunch op project is an op-project entry (grouped by the chip its
OpDef names), and each kernel-launch sample's kernel source (KernelLaunch/**, kernel_invocation/*, HelloWorldSample)
a kernel-file entry, one per distinct text; the launch folders' main.cpp (which declares the kernel for its CPU debug
build), the host tiling source and the pybind11 glue are no kernels. The kernel-file entry is built alone.

The op is written for the test: ScaleRows, y = 2 x, in half, the samples' style (a class with Init / Process over a
double-buffered queue, a tiling struct passed by value)."""
from _corpus import git_repo, load_corpus

corpus = load_corpus("corpus_sample_copies")

LAUNCH_TILING_H = """#pragma once
#include <cstdint>
struct ScaleTilingData {
    uint32_t totalLength;
    uint32_t tileNum;
};
"""

LAUNCH_KERNEL = r'''#include "kernel_operator.h"
#include "scale_tiling.h"
using namespace AscendC;
constexpr int32_t BUFFER_NUM = 2;

class KernelScale {
public:
    __aicore__ inline KernelScale() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t totalLength, uint32_t tileNum)
    {
        blockLength = totalLength / GetBlockNum();
        tileLength = blockLength / tileNum / BUFFER_NUM;
        loops = tileNum * BUFFER_NUM;
        xGm.SetGlobalBuffer((__gm__ half *)x + blockLength * GetBlockIdx(), blockLength);
        yGm.SetGlobalBuffer((__gm__ half *)y + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQ, BUFFER_NUM, tileLength * sizeof(half));
        pipe.InitBuffer(outQ, BUFFER_NUM, tileLength * sizeof(half));
    }
    __aicore__ inline void Process()
    {
        for (uint32_t i = 0; i < loops; i++) {
            LocalTensor<half> a = inQ.AllocTensor<half>();
            DataCopy(a, xGm[i * tileLength], tileLength);
            inQ.EnQue(a);
            a = inQ.DeQue<half>();
            LocalTensor<half> b = outQ.AllocTensor<half>();
            Muls(b, a, (half)2.0, tileLength);
            outQ.EnQue(b);
            inQ.FreeTensor(a);
            b = outQ.DeQue<half>();
            DataCopy(yGm[i * tileLength], b, tileLength);
            outQ.FreeTensor(b);
        }
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQ;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQ;
    GlobalTensor<half> xGm, yGm;
    uint32_t blockLength, tileLength, loops;
};

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y, ScaleTilingData tiling)
{
    KernelScale op;
    op.Init(x, y, tiling.totalLength, tiling.tileNum);
    op.Process();
}
'''

LAUNCH_MAIN = r'''#include "scale_tiling.h"
#ifndef ASCENDC_CPU_DEBUG
#include "acl/acl.h"
#else
#include "tikicpulib.h"
extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y, ScaleTilingData tiling);
#endif
int main() { return 0; }
'''

OP_HOST = r'''#include "scale_custom_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ScaleCustomTilingData tiling;
    tiling.set_totalLength(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
    context->SetBlockDim(2);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}
namespace ops {
class ScaleCustom : public OpDef {
public:
    explicit ScaleCustom(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910");
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ScaleCustom);
}
'''

OP_TILING_H = """#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleCustom, ScaleCustomTilingData)
}
"""

OP_KERNEL = LAUNCH_KERNEL.replace('#include "scale_tiling.h"\n', "").replace(
    "GM_ADDR x, GM_ADDR y, ScaleTilingData tiling)\n{\n    KernelScale op;\n    op.Init(x, y, tiling.totalLength, tiling.tileNum);",
    "GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)\n{\n    GET_TILING_DATA(t, tiling);\n    KernelScale op;\n"
    "    op.Init(x, y, t.totalLength, 8);")

SAMPLE = "operator/ScaleCustomSample"
TREE = {
    f"{SAMPLE}/FrameworkLaunch/ScaleCustom/op_host/scale_custom.cpp": OP_HOST,
    f"{SAMPLE}/FrameworkLaunch/ScaleCustom/op_host/scale_custom_tiling.h": OP_TILING_H,
    f"{SAMPLE}/FrameworkLaunch/ScaleCustom/op_kernel/scale_custom.cpp": OP_KERNEL,
    f"{SAMPLE}/FrameworkLaunch/AclNNInvocation/src/main.cpp": "int main() { return 0; }\n",
    f"{SAMPLE}/KernelLaunch/ScaleKernelInvocation/scale_custom.cpp": LAUNCH_KERNEL,
    f"{SAMPLE}/KernelLaunch/ScaleKernelInvocation/scale_tiling.h": LAUNCH_TILING_H,
    f"{SAMPLE}/KernelLaunch/ScaleKernelInvocation/main.cpp": LAUNCH_MAIN,
    f"{SAMPLE}/KernelLaunch/ScaleKernelInvocation/scale_custom_tiling.cpp":
        '#include "scale_tiling.h"\nScaleTilingData GenerateTiling() { return {2048, 8}; }\n',
    # the PyTorch-extension copy of the same kernel, and its glue
    f"{SAMPLE}/KernelLaunch/ZCppExtensions/scale_custom.cpp": LAUNCH_KERNEL,
    f"{SAMPLE}/KernelLaunch/ZCppExtensions/scale_tiling.h": LAUNCH_TILING_H,
    f"{SAMPLE}/KernelLaunch/ZCppExtensions/pybind11.cpp": '#include "aclrtlaunch_scale_custom.h"\nvoid bind() {}\n',
}


def test_a_sample_copy_gives_its_op_project_and_each_launch_kernel_once(tmp_path):
    repo = "Mr-Xiao2021/ascend_op_learning"
    gitdir, _ = git_repo(tmp_path / "repo", TREE)
    got = [(e["kind"], e["path"], e["source"].rsplit(", ", 1)[-1]) for e in corpus.collect(repo, gitdir)]
    assert got == [("op-project", f"{SAMPLE}/FrameworkLaunch/ScaleCustom", "built for 910B"),
                   ("kernel-file", f"{SAMPLE}/KernelLaunch/ScaleKernelInvocation/scale_custom.cpp", "kernel launch")]


def test_the_launch_kernel_builds_alone_and_the_op_project_whole(tmp_path):
    repo = "tjulitianyi1997/AscendProjects"
    gitdir, _ = git_repo(tmp_path / "repo", TREE)
    entries = corpus.collect(repo, gitdir)
    assert [e["kind"] for e in entries] == ["op-project", "kernel-file"]
    for e in entries:
        res = corpus.try_entry((e, gitdir, False))
        assert res["kernel_ok"], res
        if e["kind"] == "op-project": assert res["project_ok"], res
