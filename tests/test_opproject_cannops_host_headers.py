"""Host-header names cann-ops' op_host sources reach (Hayden727/cann-ops eef0ff7): GE's `ge::UNKNOWN_DIM` through the
op-definition header alone (grid_sample's InferShape compares an input's dim 0 with it), also unqualified where a source
has both `using namespace ge` and `using namespace Ops::Base`, and the op API layer's log header
`aclnn/opdev/op_log.h` (multi_scale_deformable_attention_grad's and multi_scale_deformable_attn_function's tiling
sources log an op's error with `OP_LOGE_WITHOUT_REPORT(op_name, "%s", message)`). Host programs compiled with g++
against the emulation's headers."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR


def _run(tmp_path, program: str) -> subprocess.CompletedProcess:
    (tmp_path / "host.cpp").write_text(program)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "host.cpp", "-o", "host"], cwd=tmp_path, check=True)
    return subprocess.run([str(tmp_path / "host")], capture_output=True, text=True, check=True)


UNKNOWN_DIM = r"""
#include <cstdio>
#include "register/op_def_registry.h"
static bool SameBatch(const gert::Shape& x, const gert::Shape& grid) {
    return x.GetDim(0U) == ge::UNKNOWN_DIM || grid.GetDim(0U) == ge::UNKNOWN_DIM || x.GetDim(0U) == grid.GetDim(0U);
}
int main() {
    gert::Shape a({2, 3}), b({-1, 5}), c({4, 5});
    std::printf("%lld %d %d %d\n", (long long)ge::UNKNOWN_DIM, SameBatch(a, b), SameBatch(a, c), SameBatch(c, c));
}
"""


def test_the_unknown_dim_is_a_graph_type_constant_of_the_op_definition_header(tmp_path):
    assert _run(tmp_path, UNKNOWN_DIM).stdout.split() == ["-1", "1", "0", "1"]


BOTH_NAMESPACES = r"""
#include <cstdio>
#include "register/op_def_registry.h"
#include "log/log.h"
using namespace ge;
using namespace Ops::Base;
int main() {
    gert::Shape s;
    SetUnknownShape(2, s);
    std::printf("%lld %d %d\n", (long long)UNKNOWN_DIM, s.GetDim(1) == UNKNOWN_DIM, IsUnknownShape(s));
}
"""


def test_the_unknown_dim_is_one_name_under_both_namespaces(tmp_path):
    """ops-base's shape helpers keep their own name for -1; with both namespaces open the name must not be ambiguous."""
    assert _run(tmp_path, BOTH_NAMESPACES).stdout.split() == ["-1", "1", "1"]


OP_LOG = r"""
#include <cstdio>
#include <base/err_msg.h>
#include "register/op_def_registry.h"
#include "aclnn/opdev/op_log.h"
#define VECTOR_INFER_SHAPE_INNER_ERR_REPORT(op_name, err_msg) \
  do {                                                        \
    OP_LOGE_WITHOUT_REPORT(op_name, "%s", err_msg);           \
  } while (0)
static ge::graphStatus Check(const char* name, int64_t heads) {
    OP_LOGD(name, "heads %lld", (long long)heads);
    if (heads > 16) {
        VECTOR_INFER_SHAPE_INNER_ERR_REPORT(name, "numHeads must be at most 16");
        return ge::GRAPH_FAILED;
    }
    return ge::GRAPH_SUCCESS;
}
int main() {
    std::printf("%d %d\n", Check("MsdaGrad", 8) == ge::GRAPH_SUCCESS, Check("MsdaGrad", 32) == ge::GRAPH_FAILED);
}
"""


def test_the_op_api_log_header_logs_an_ops_error_to_stderr(tmp_path):
    run = _run(tmp_path, OP_LOG)
    assert run.stdout.split() == ["1", "1"]
    assert "MsdaGrad" in run.stderr and "numHeads must be at most 16" in run.stderr   # the error, once
    assert run.stderr.count("numHeads") == 1 and "heads 8" not in run.stderr          # debug lines are off


SHAPE_RANGE = r"""
#include <cstdio>
#include "register/op_def_registry.h"
// an InferShapeRange function in grid_sample's style: y's range takes N from x and the rest from grid
static ge::graphStatus InferRange(gert::InferShapeRangeContext* context) {
    const gert::Range<gert::Shape>* x = context->GetInputShapeRange(0);
    const gert::Range<gert::Shape>* grid = context->GetInputShapeRange(1);
    gert::Range<gert::Shape>* y = context->GetOutputShapeRange(0);
    if (x == nullptr || grid == nullptr || y == nullptr || context->GetInputShapeRange(2) != nullptr) return ge::GRAPH_FAILED;
    y->GetMin()->SetDimNum(2);
    y->GetMax()->SetDimNum(2);
    y->GetMin()->SetDim(0, x->GetMin()->GetDim(0));
    y->GetMax()->SetDim(0, x->GetMax()->GetDim(0));
    y->GetMin()->SetDim(1, grid->GetMin()->GetDim(1));
    y->GetMax()->SetDim(1, grid->GetMax()->GetDim(1));
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_INFERSHAPE(RangeProbe).InferShapeRange(InferRange);
int main() {
    gert::Shape xMin({1, 3}), xMax({8, 3}), gMin({1, 2}), gMax({8, 16}), yMin, yMax;
    gert::InferShapeRangeContext context;
    context.name_ = "RangeProbe";
    context.in_ = {gert::Range<gert::Shape>(&xMin, &xMax), gert::Range<gert::Shape>(&gMin, &gMax)};
    context.out_ = {gert::Range<gert::Shape>(&yMin, &yMax)};
    const bool ok = InferRange(&context) == ge::GRAPH_SUCCESS;
    gert::Range<gert::Shape> same(&xMin);
    std::printf("%d %s %lld %lld %lld %lld %d\n", ok, context.GetNodeName(), (long long)yMin.GetDim(0),
                (long long)yMax.GetDim(0), (long long)yMin.GetDim(1), (long long)yMax.GetDim(1),
                same.GetMin() == same.GetMax());
}
"""


def test_an_infer_shape_range_function_reads_and_sets_shape_ranges(tmp_path):
    """grid_sample registers an InferShapeRange function (the graph's range inference; the emulated host never calls
    it), which must compile: gert::Range<Shape>'s bounds and the context's input and output ranges."""
    assert _run(tmp_path, SHAPE_RANGE).stdout.split() == ["1", "RangeProbe", "1", "8", "2", "16", "1"]
