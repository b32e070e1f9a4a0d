"""TBufPool: TPipe::InitBufPool takes a block of UB once; queues and buffers made in the pool share it, Reset gives it
back, a second pool can reuse the first one's bytes (InitBufPool(pool, len, shared)), pools nest, and a user's own
pool class with EXTERN_IMPL_BUFPOOL places queues through InitStartBufHandle / InitBufHandle. Each form adds and
multiplies half vectors, checked against NumPy; a queue past its pool's end and a pool without memory stop with
named errors."""
import numpy as np
import pytest

from ascendcraft.emu import GM, build, run

N = 256
KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t N = 256, LEN = N * sizeof(half);
class OwnPool {
public:
    OwnPool() { Init(); }
    template <class Q> bool InitBuffer(Q& que, uint8_t num, uint32_t len) {
        len = (len + 31) / 32 * 32;
        auto h = GetBufHandle(GetCurBufSize());
        uint32_t at = GetCurAddr();
        que.InitStartBufHandle(h, num, len);
        for (uint32_t i = 0; i < num; i++) que.InitBufHandle(this, i, h, at + i * len, len);
        SetCurAddr(at + num * len);
        SetCurBufSize(GetCurBufSize() + num);
        return true;
    }
    template <TPosition P> bool InitBuffer(TBuf<P>& buf, uint32_t len) {
        len = (len + 31) / 32 * 32;
        auto h = GetBufHandle(GetCurBufSize());
        buf.InitStartBufHandle(h, 1, len);
        buf.InitBufHandle(this, 0, h, GetCurAddr(), len);
        SetCurAddr(GetCurAddr() + len);
        SetCurBufSize(GetCurBufSize() + 1);
        return true;
    }
    EXTERN_IMPL_BUFPOOL(OwnPool, TPosition::VECCALC, 8);
};
template <class P>
__aicore__ inline void AddMul(P& pool, GlobalTensor<half>& x, GlobalTensor<half>& y, GlobalTensor<half>& z, bool mul)
{
    TQue<TPosition::VECIN, 1> qx, qy;
    TQue<TPosition::VECOUT, 1> qz;
    pool.InitBuffer(qx, 1, LEN);
    pool.InitBuffer(qy, 2, LEN);
    pool.InitBuffer(qz, 1, LEN);
    LocalTensor<half> a = qx.AllocTensor<half>(), b = qy.AllocTensor<half>();
    DataCopy(a, x, N); DataCopy(b, y, N);
    qx.EnQue(a); qy.EnQue(b);
    a = qx.DeQue<half>(); b = qy.DeQue<half>();
    LocalTensor<half> c = qz.AllocTensor<half>();
    if (mul) Mul(c, a, b, N); else Add(c, a, b, N);
    qz.EnQue(c);
    qx.FreeTensor(a); qy.FreeTensor(b);
    c = qz.DeQue<half>();
    DataCopy(z, c, N);
    qz.FreeTensor(c);
}
extern "C" __global__ __aicore__ void pools(GM_ADDR x, GM_ADDR y, GM_ADDR z0, GM_ADDR z1)
{
    TPipe pipe;
    GlobalTensor<half> xg, yg, g0, g1;
    xg.SetGlobalBuffer((__gm__ half*)x); yg.SetGlobalBuffer((__gm__ half*)y);
    g0.SetGlobalBuffer((__gm__ half*)z0); g1.SetGlobalBuffer((__gm__ half*)z1);
    %(BODY)s
}
"""
BODIES = {
    "reuse": """TBufPool<TPosition::VECCALC> p1, p2;
    pipe.InitBufPool(p1, 4 * LEN);
    pipe.InitBufPool(p2, 4 * LEN, p1);
    AddMul(p1, xg, yg, g0, false);
    p1.Reset();
    AddMul(p2, xg, yg, g1, true);
    p2.Reset();""",
    "nested": """TBufPool<TPosition::VECCALC> outer, a, b;
    pipe.InitBufPool(outer, 9 * LEN);
    outer.InitBufPool(a, 4 * LEN);
    TBuf<TPosition::VECCALC> spare;
    outer.InitBuffer(spare, LEN);
    outer.InitBufPool(b, 4 * LEN, a);
    AddMul(a, xg, yg, g0, false);
    a.Reset();
    AddMul(b, xg, yg, g1, true);
    b.Reset();
    outer.Reset();
    pipe.Reset();""",
    "custom": """OwnPool own;
    pipe.InitBufPool(own, 5 * LEN);
    AddMul(own, xg, yg, g0, false);
    own.Reset();
    TBuf<TPosition::VECCALC> tb;
    own.InitBuffer(tb, LEN);
    LocalTensor<half> t = tb.Get<half>();
    DataCopy(t, xg, N);
    PipeBarrier<PIPE_ALL>();
    Mul(t, t, t, N);
    PipeBarrier<PIPE_ALL>();
    DataCopy(g1, t, N);
    PipeBarrier<PIPE_ALL>();
    own.Reset();""",
}


def _run(body):
    b = build({"k.cpp": KERNEL % dict(BODY=body)})
    assert b.ok, "\n".join(d.render() for d in b.errors)
    rng = np.random.default_rng(7)
    x, y = rng.uniform(-2, 2, N).astype(np.float16), rng.uniform(-2, 2, N).astype(np.float16)
    r = run(b, [GM("x", x), GM("y", y), GM("z0", np.zeros(N, np.float16), "out"), GM("z1", np.zeros(N, np.float16), "out")],
            block_dim=1)
    return x, y, r


@pytest.mark.parametrize("form", list(BODIES))
def test_pools_match_numpy(form):
    x, y, r = _run(BODIES[form])
    assert r.ok, "\n".join(map(str, r.diagnostics))
    np.testing.assert_array_equal(r.outputs["z0"], x + y)
    np.testing.assert_array_equal(r.outputs["z1"], x * (x if form == "custom" else y))


def test_a_queue_past_the_pools_end_is_an_error():
    _, _, r = _run("""TBufPool<TPosition::VECCALC> p;
    pipe.InitBufPool(p, 3 * LEN);
    AddMul(p, xg, yg, g0, false);""")   # AddMul needs 4 buffers of LEN
    assert not r.ok
    d = next(d for d in r.diagnostics if d.is_error)
    assert d.kind == "ub-overflow" and "TBufPool" in d.message


def test_a_pool_without_memory_is_an_error():
    _, _, r = _run("""TBufPool<TPosition::VECCALC> p;
    AddMul(p, xg, yg, g0, false);""")
    assert not r.ok
    d = next(d for d in r.diagnostics if d.is_error)
    assert d.kind == "unsupported" and "InitBufPool" in d.hint + d.message


def test_a_pool_of_another_tbufpool_type_inside_one_does_not_compile():
    "As in AscendC: a TBufPool nests pools of its own type (or custom pools), not other TBufPool specialisations."
    b = build({"k.cpp": KERNEL % dict(BODY="TBufPool<TPosition::VECCALC, 8> o; TBufPool<TPosition::VECCALC> a; "
                                          "pipe.InitBufPool(o, 4 * LEN); o.InitBufPool(a, LEN);")})
    assert not b.ok and any("InitBufPool" in d.render() for d in b.errors)


def test_a_tensor_left_in_a_pool_at_reset_is_a_leak():
    _, _, r = _run("""TBufPool<TPosition::VECCALC> p;
    pipe.InitBufPool(p, 4 * LEN);
    TQue<TPosition::VECIN, 1> q;
    p.InitBuffer(q, 1, LEN);
    LocalTensor<half> t = q.AllocTensor<half>();
    p.Reset();""")
    assert not r.ok
    assert any(d.kind == "queue-leak" and "Reset" in d.message for d in r.diagnostics if d.is_error)
