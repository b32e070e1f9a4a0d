"""The names of opbase's element-wise template (atvoss/elewise, atvoss/util) that an A2 build of an op meets through
its tiling header: hicann ops-nn apply_adam_w_v2's A2 tiling header includes its Ascend 950 one, which includes the
template's host tiling and the op's Ascend 950 DAG (types over `Bind`, `Vec::*`, `Placeholder::*`, `MAKE_CONST`) and
holds an `EleBaseTilingDataV2`. The emulated headers give the names and the tiling-data layouts; the template itself
(its tiling, its Ascend 950 kernels) is not emulated, so code that would run it does not compile."""
import subprocess

import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

# In the op's style: an Ascend 950 DAG written as type aliases (never instantiated by an A2 kernel), an Ascend 950
# tiling struct that holds the template's tiling data, and the A2 kernel beside them.
KERNEL = r'''#include "kernel_operator.h"
#include "atvoss/util/dag.h"
#include "atvoss/util/vec.h"
#include "atvoss/util/placeholder.h"
#include "atvoss/elewise/elewise_base_struct.h"
using namespace AscendC;

namespace ScaleShiftRegbase {
using namespace Ops::Base;
template <typename T, typename U = float>
struct ScaleShiftDAG {
    using OpOne = MAKE_CONST(U, 1);
    using OpX = Bind<Vec::CopyIn<T>, Placeholder::In0<T>>;
    using OpXCast = Bind<Vec::Cast<U, T, 0>, OpX>;
    using OpStep = Bind<Vec::Duplicate<T>, Placeholder::In1<T, Placeholder::ScalarAttr<true>>>;
    using OpScaled = Bind<Vec::Muls<U>, OpXCast, Placeholder::Var<U, 0>>;
    using OpShifted = Bind<Vec::Adds<U>, OpScaled, OpOne>;
    using OpOut = Bind<Vec::CopyOut<T>, Placeholder::Out0<T>, Bind<Vec::Cast<T, U, 1>, OpShifted>>;
    using OpDag = DAGSch<Elems<OpOut>, void, MemOptCfg<MemLevel::LEVEL_2>>;
};
}  // namespace ScaleShiftRegbase

struct ScaleShiftRegbaseTilingData {
    Ops::Base::EleBaseTilingDataV2 elewiseTiling;
    float scale;
};

extern "C" __global__ __aicore__ void sizes(GM_ADDR out)
{
    GlobalTensor<int32_t> o;
    o.SetGlobalBuffer((__gm__ int32_t *)out, 8);
    o.SetValue(0, static_cast<int32_t>(sizeof(Ops::Base::EleBaseTilingData)));
    o.SetValue(1, static_cast<int32_t>(sizeof(Ops::Base::EleBaseTilingData16B)));
    o.SetValue(2, static_cast<int32_t>(sizeof(Ops::Base::EleBaseTilingData24B)));
    o.SetValue(3, static_cast<int32_t>(sizeof(Ops::Base::EleBaseTilingData32B)));
    o.SetValue(4, static_cast<int32_t>(sizeof(ScaleShiftRegbaseTilingData)));
    o.SetValue(5, static_cast<int32_t>(offsetof(Ops::Base::EleBaseTilingData, scheMode)));
}
'''


def test_an_ascend_950_dag_and_tiling_struct_beside_an_a2_kernel_compile_and_the_layouts_are_opbases():
    b = build({"sizes.cpp": KERNEL})
    assert b.ok, b.log[-3000:]
    r = run(b, [GM("out", np.full(8, -1, np.int32), "out")], block_dim=1)
    assert r.ok, "\n".join(map(str, r.diagnostics))
    # dim0, coreNum + ubFormer, then eight 8-byte fields; the short forms 16 bytes plus 0, 8 or 16 bytes of scalars
    np.testing.assert_array_equal(r.outputs["out"][:6], [80, 16, 24, 32, 88, 72])


HOST_NAMES = r'''#include "atvoss/elewise/elewise_tiling.h"
#include "atvoss/util/dag.h"
// as an Ascend 950 tiling class declares its steps over the template's tiling, and its compile info
class RegbaseTiling {
public:
    explicit RegbaseTiling(gert::TilingContext* context) : context_(context) {}
    ge::graphStatus DoNormTiling(Ops::Base::ElewiseBaseTiling& base, ge::DataType& dtype);
private:
    gert::TilingContext* context_;
};
struct CompileInfo { Ops::Base::ElewiseCompileInfo elewise; bool isRegbase{false}; };
int main() {
    CompileInfo info{};
    Ops::Base::ElewiseTilingData data{};
    RegbaseTiling t(nullptr);
    (void)t;
    return static_cast<int>(info.elewise.coreNum + data.elemNum) + (USE ? 1 : 0);
}
'''

RUN_THE_TEMPLATE = {
    "a DAG's operation": "Ops::Base::Bind<int> node; (void)node;",
}


def _host(tmp_path, body: str, name: str):
    from ascendcraft.config import load_settings
    from ascendcraft.emu import INCLUDE_DIR
    src = tmp_path / f"{name}.cpp"
    src.write_text(body)
    return subprocess.run([load_settings().cxx, "-std=c++17", "-fsyntax-only", "-DUSE=0", "-I", str(INCLUDE_DIR),
                           str(src)], capture_output=True, text=True)


def test_the_element_wise_templates_host_names_compile(tmp_path):
    r = _host(tmp_path, HOST_NAMES, "names")
    assert r.returncode == 0, r.stderr[-3000:]


@pytest.mark.parametrize("what", sorted(RUN_THE_TEMPLATE))
def test_running_the_template_does_not_compile(tmp_path, what):
    # not emulated: declared only, so a use that would run it stops the build where it is written (no silent no-op)
    body = HOST_NAMES.replace("    (void)t;\n", "    (void)t;\n    " + RUN_THE_TEMPLATE[what] + "\n")
    r = _host(tmp_path, body, "run")
    assert r.returncode != 0
    assert "incomplete type" in r.stderr and "run.cpp:" in r.stderr


def test_the_templates_tiling_compiles_and_stops_when_run(tmp_path):
    # an Ascend 950 tiling source links beside the A2 one, as CANN's build links every op_host source (apply_adam_w_v2's
    # A2 TilingFunc calls its Ascend 950 RunTiling on a branch A2 does not take); reaching DoTiling is an error naming it
    from ascendcraft.config import load_settings
    from ascendcraft.emu import INCLUDE_DIR
    body = "#include <cstdio>\n" + HOST_NAMES.replace("    (void)t;\n", """    (void)t;
    Ops::Base::ElewiseBaseTiling base(static_cast<gert::TilingContext*>(nullptr));
    try { (void)base.DoTiling<int>(data); } catch (const std::exception& e) { std::puts(e.what()); return 3; }
""")
    src, exe = tmp_path / "tiling.cpp", tmp_path / "tiling"
    src.write_text(body)
    cc = subprocess.run([load_settings().cxx, "-std=c++17", "-DUSE=0", "-I", str(INCLUDE_DIR), str(src), "-o", str(exe)],
                        capture_output=True, text=True)
    assert cc.returncode == 0, cc.stderr[-3000:]
    r = subprocess.run([str(exe)], capture_output=True, text=True)
    assert r.returncode == 3 and "ElewiseBaseTiling::DoTiling" in r.stdout and "not emulated" in r.stdout


def test_the_hosts_half_and_bfloat16_are_opbases_two_byte_structs(tmp_path):
    # an op_host source names the kernel's element types in Ops::Base (a DAG instantiated over `half` in an Ascend 950
    # tiling source), as opbase's vec.h gives them outside a device compile
    r = _host(tmp_path, '#include "atvoss/util/vec.h"\nnamespace Ops { namespace Base {\n'
              'static_assert(sizeof(half) == 2 && sizeof(bfloat16_t) == 2, "two bytes");\n}}\nint main() { return 0; }\n',
              "half")
    assert r.returncode == 0, r.stderr[-3000:]
