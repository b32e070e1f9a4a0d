"""A generated entry that wraps the kernel file (opproject's launch entry for a ref output, a tensor list or an absent
input: `#include "op_kernel/x.cpp"` first): the kernel's own includes are read from the kernel's folder, as g++ reads
them, so that a kernel header of the same name as the op_host tiling header does not hide that tiling header from the
driver (cann-ops strided_slice_assign_v2: its ref output var_out made the wrapper, and the project build stopped at
"'StridedSliceAssignV2TilingData' does not name a type")."""
import struct

import numpy as np

from ascendcraft import emu
from ascendcraft.config import load_settings

HOST_H = ('#include "register/tilingdata_base.h"\nnamespace optiling {\nconstexpr size_t MAX_DIM_NUM = 8;\n'
          'BEGIN_TILING_DATA_DEF(SameTiling)\nTILING_DATA_FIELD_DEF(int64_t, v);\nEND_TILING_DATA_DEF;\n'
          'REGISTER_TILING_DATA_CLASS(SameCustom, SameTiling)\n}\n')
KERNEL_H = ('#pragma once\n#include "kernel_operator.h"\nconstexpr uint32_t MAX_DIM_NUM = 8;\n'
            'inline int64_t twice(const SameTiling* t) { return 2 * t->v * (MAX_DIM_NUM / 8); }\n')
KERNEL = ('#include "same.h"\nusing namespace AscendC;\n'
          'extern "C" __global__ __aicore__ void same_custom(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {\n'
          '    GET_TILING_DATA(t, tiling);\n    GlobalTensor<int64_t> out; out.SetGlobalBuffer((__gm__ int64_t*)y, 4);\n'
          '    out.SetValue(0, twice(&t));\n}\n')
WRAPPER = ('// Generated: the kernel launched through an entry of its own.\n#include "op_kernel/same_custom.cpp"\n'
           '#include <cstdint>\n'
           'extern "C" __global__ __aicore__ void ascendcraft_list_entry(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)\n'
           '{\n    same_custom(y, workspace, tiling);\n}\n')


def test_a_wrapped_kernel_reads_its_own_header_and_the_driver_the_tiling_header_of_the_same_name():
    sources = {"op_host/same.h": HOST_H, "op_kernel/same.h": KERNEL_H, "op_kernel/same_custom.cpp": KERNEL,
               "__ascendcraft_list_entry.cpp": WRAPPER}
    settings = load_settings()
    settings = settings.replace(cxxflags=f"{settings.cxxflags} -DASCENDCRAFT_OP_TYPE=SameCustom")
    b = emu.build(sources, "ascendcraft_list_entry", settings=settings)
    assert b.ok, [d.render() for d in b.diagnostics]
    r = emu.run(b, [emu.GM("y", None, "out", shape=(4,), dtype=np.int64), emu.GM("workspace", np.zeros(8, np.uint8), "workspace"),
                    emu.Tiling(struct.pack("<q", 21))], block_dim=1)
    assert r.ok and r.outputs["y"][0] == 42
