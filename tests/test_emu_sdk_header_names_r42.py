"""SDK header names a CANN operator challenge op and its reference (ghhufue/cann-operator-challenge-august, round 42,
newsrc) include and the emulation lacked: the host's tiling/matmul/matmul_tiling.h (the matmul host tiling, here in
tiling/tiling_api.h) and the kernel's kernel_vec_intf.h / kernel_cube_intf.h (the kernel API's vector and cube parts in
newer CANN installs). Before, each build stopped at `No such file or directory`."""
import numpy as np

from ascendcraft.emu import GM, build, run
from ascendcraft.opproject import run_project
from test_emu_tiling_input_past_inputs import HOST, KERNEL, TILING_H


def test_kernel_api_by_its_vector_and_cube_header_names(tmp_path):
    src = tmp_path / "twice.cpp"
    src.write_text('#include "kernel_vec_intf.h"\n#include "kernel_cube_intf.h"\n'
                   + KERNEL.replace('#include "kernel_operator.h"\n', "")
                   .replace("GET_TILING_DATA(t, tiling);", "struct { uint32_t count = 64, past = 1; } t;"))
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.arange(64, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(64, np.float32), "out"), GM("workspace", np.zeros(8, np.uint8)),
                GM("tiling", np.zeros(8, np.uint8))], block_dim=1)
    assert r.ok, "\n".join(d.render() for d in r.diagnostics)
    np.testing.assert_array_equal(r.outputs["y"], x * 2)


def test_host_matmul_tiling_by_its_own_header_name(tmp_path):
    host = ('#include "tiling/matmul/matmul_tiling.h"\n'
            + HOST.replace("HeadRowsTilingData tiling;",
                           "matmul_tiling::MultiCoreMatmulTiling mm;\n    (void)mm;\n    HeadRowsTilingData tiling;"))
    for rel, text in (("op_host/head_rows_tiling.h", TILING_H), ("op_host/head_rows.cpp", host),
                      ("op_kernel/head_rows.cpp", KERNEL)):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    x = np.random.default_rng(5).standard_normal((6, 16)).astype(np.float32)
    r = run_project(tmp_path, {"x": x}, outputs={"y": ((6, 16), "float32")})
    assert r.run.ok, [d.render() for d in r.run.diagnostics]
    np.testing.assert_array_equal(r.outputs["y"], x * 2)
