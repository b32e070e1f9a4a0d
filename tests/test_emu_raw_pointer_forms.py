"""The cast forms emu.numbered_ub_casts maps besides the plain ones (thirty-eighth round's leftovers): a `__ubuf__`
pointer to a template type (`reinterpret_cast<__ubuf__ Kv<K, V>*>(mem)`, as HierarchicalKV's Ascend port writes it) and
a C-style cast of an operand with a prefix operator (`(__ubuf__ Msg*)&(client->buffer)`, as the devkit's own KFC code
writes it). Kernels written here in that style; values against NumPy."""
import numpy as np

from ascendcraft.emu import GM, build, numbered_ub_casts, run

# Pairs (value, index) at UB offset 4 KB through a template-typed numbered pointer: the scalar unit writes x[i] * 3 and i,
# then the DMA copies the 64 pairs (512 bytes) out; the value words go through a second pointer made with `&`.
KERNEL = """
#include "kernel_operator.h"
template <typename V, typename I> struct Pair { V value; I index; };
extern "C" __global__ __aicore__ void raw_forms(GM_ADDR x, GM_ADDR y) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    __ubuf__ float* in = reinterpret_cast<__ubuf__ float*>((uintptr_t)1024);
    copy_gm_to_ubuf(in, (__gm__ float*)x, 0, 1, 64 * 4 / 32, 0, 0);
    set_flag(PIPE_MTE2, PIPE_S, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_S, EVENT_ID0);
    auto* pairs = reinterpret_cast<__ubuf__ Pair<float, int32_t>*>((uintptr_t)4096);
    for (int i = 0; i < 64; ++i) {
        pairs[i].value = in[i] * 3.0f;
        pairs[i].index = i;
    }
    __ubuf__ float* second = (__ubuf__ float*)&(pairs[32].value);
    second[0] += 100.0f;
    set_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_S, PIPE_MTE3, EVENT_ID0);
    copy_ubuf_to_gm((__gm__ float*)y, (__ubuf__ float*)pairs, 0, 1, 128 * 4 / 32, 0, 0);
}
"""


def test_a_template_typed_numbered_pointer_reaches_this_cores_ub(tmp_path):
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL)
    b = build(src)
    assert b.ok, "\n".join(map(str, b.diagnostics))
    x = np.linspace(-2, 2, 64, dtype=np.float32)
    r = run(b, [GM("x", x), GM("y", np.zeros(128, np.float32), "out")], block_dim=1)
    assert r.ok, [d.render() for d in r.diagnostics]
    pairs = r.outputs["y"].view(np.int32).reshape(64, 2)
    values = pairs[:, 0].view(np.float32)
    want = x * 3
    want[32] += 100
    np.testing.assert_allclose(values, want, rtol=1e-6)
    assert pairs[:, 1].tolist() == list(range(64))


def test_the_rewrite_maps_template_types_and_prefix_operators_and_leaves_declarations():
    src = "\n".join([
        "q = reinterpret_cast<__ubuf__ Kv<K, V, S>*>(mem);",
        "r = (__ubuf__ Kv<K, V>*)mem + 1;",
        "p = (__ubuf__ struct Msg*)&(client->buffer);",
        "s = (__ubuf__ float*)++cursor;",
        "void g(__ubuf__ Kv<K, V>*);",
        "bool b = a && (__ubuf__ float*)(e) != nullptr;",
    ])
    assert numbered_ub_casts(src).splitlines() == [
        "q = ::ascendcraft::emu::ub_cast<__ubuf__ Kv<K, V, S>*>(mem);",
        "r = ::ascendcraft::emu::ub_cast<__ubuf__ Kv<K, V>*>(mem) + 1;",
        "p = ::ascendcraft::emu::ub_cast<__ubuf__ struct Msg*>(&(client->buffer));",
        "s = ::ascendcraft::emu::ub_cast<__ubuf__ float*>(++cursor);",
        "void g(__ubuf__ Kv<K, V>*);",
        "bool b = a && ::ascendcraft::emu::ub_cast<__ubuf__ float*>((e)) != nullptr;",
    ]


def test_a_scalar_read_through_a_numbered_l1_pointer_stops_as_no_access_the_chip_makes():
    # the API reference lets the scalar unit (GetValue / SetValue) reach UB positions only: L1 stays unmapped
    src = """
#include "kernel_operator.h"
extern "C" __global__ __aicore__ void raw_l1_read(GM_ADDR y) {
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
    __cbuf__ float* l1 = reinterpret_cast<__cbuf__ float*>((uintptr_t)16384);
    ((__gm__ float*)y)[0] = l1[5];
}
"""
    b = build({"k.cpp": src})
    assert b.ok, b.diagnostics
    r = run(b, [GM("y", np.zeros(8, np.float32), "out")], block_dim=1)
    d = next(d for d in r.diagnostics if d.is_error)
    assert d.kind == "raw-buffer-pointer" and "0x4014" in d.message and "UB and GM only" in d.message, d.render()
