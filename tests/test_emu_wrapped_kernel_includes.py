"""A generated entry that wraps an op's kernel file (opproject's launch entry of a ref output, tensor lists or absent
inputs, `__ascendcraft_list_entry.cpp` at the project's root, which includes op_kernel/x.cpp first) must not change
which tiling headers the driver gives the kernel. cann-ops strided_slice_assign_v2: its kernel includes its own
op_kernel/strided_slice_assign_v2.h, which names StridedSliceAssignV2TilingData, and op_host/strided_slice_assign_v2.h
(the same name) defines that struct. The kernel alone built; the project's run (its ref output `var` wrapped) stopped at
"op_kernel/strided_slice_assign_v2.h:34:70: 'StridedSliceAssignV2TilingData' does not name a type": the driver looked
the kernel's `#include "strided_slice_assign_v2.h"` up from the wrapper's folder (the root), matched both headers by
name, took op_host's for an include the kernel makes itself and left it out."""
import struct

import numpy as np

from ascendcraft import emu
from ascendcraft.config import load_settings

HOST_H = ('#include "register/tilingdata_base.h"\nnamespace optiling {\nBEGIN_TILING_DATA_DEF(SameTiling)\n'
          'TILING_DATA_FIELD_DEF(int64_t, v);\nEND_TILING_DATA_DEF;\nREGISTER_TILING_DATA_CLASS(SameCustom, SameTiling)\n}\n')
KERNEL_H = "#pragma once\n#include \"kernel_operator.h\"\ninline int64_t twice(const SameTiling& t) { return 2 * t.v; }\n"
KERNEL = ('#include "same.h"\nusing namespace AscendC;\n'
          'extern "C" __global__ __aicore__ void same_custom(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {\n'
          '    GET_TILING_DATA(t, tiling);\n    GlobalTensor<int64_t> out; out.SetGlobalBuffer((__gm__ int64_t*)y, 4);\n'
          '    out.SetValue(0, twice(t));\n}\n')
WRAPPER = ('// a generated launch entry, as opproject writes one\n#include "op_kernel/same_custom.cpp"\n'
           'extern "C" __global__ __aicore__ void same_wrapped(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling) {\n'
           '    same_custom(y, workspace, tiling);\n}\n')
SOURCES = {"op_host/same.h": HOST_H, "op_kernel/same.h": KERNEL_H, "op_kernel/same_custom.cpp": KERNEL,
           "__ascendcraft_list_entry.cpp": WRAPPER}


def test_the_driver_of_a_wrapped_kernel_looks_its_includes_up_from_the_kernels_folder():
    entry = next(e for e in emu.find_entries(SOURCES) if e.name == "same_wrapped")
    driver = emu._driver_source(entry, SOURCES, [], op_type="SameCustom")
    assert '#include "op_host/same.h"' in driver.splitlines()


def test_a_wrapped_kernel_whose_header_shares_the_tiling_headers_name_builds_and_reads_its_tiling():
    settings = load_settings()
    b = emu.build(SOURCES, "same_wrapped", settings=settings.replace(cxxflags=f"{settings.cxxflags} -DASCENDCRAFT_OP_TYPE=SameCustom"))
    assert b.ok, [d.render() for d in b.diagnostics]
    r = emu.run(b, [emu.GM("y", None, "out", shape=(4,), dtype=np.int64), emu.GM("workspace", np.zeros(8, np.uint8), "workspace"),
                    emu.Tiling(struct.pack("<q", 21))], block_dim=1)
    assert r.ok and r.outputs["y"][0] == 42
