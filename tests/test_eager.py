"""The modelled eager baseline on stand-in references at full MultiKernelBench shapes (never allocated)."""
import time

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from ascendcraft.cost import kernel_time, tiled_trace
from ascendcraft.diagnostics import AscendCraftError
from ascendcraft.eager import TensorSpec, eager_time, meta_inputs
from ascendcraft.soc import load_soc

SOC = load_soc("Ascend910B2")
F32 = 4


@pytest.fixture(scope="module", autouse=True)
def warm_up():
    "The first meta dispatch in a process loads torch's meta kernels (about a second, once)."
    eager_time(lambda t: t + 1, [TensorSpec((8,))], SOC)


# --- stand-in references, written for these tests ------------------------------------------------
class Relu(nn.Module):
    def forward(self, x): return torch.relu(x)


class RowSoftmax(nn.Module):
    def forward(self, x): return torch.softmax(x, dim=1)


class Mse(nn.Module):
    def forward(self, p, t): return torch.mean((p - t) ** 2)


class SumMiddle(nn.Module):
    def __init__(self, dim): super().__init__(); self.dim = dim
    def forward(self, x): return torch.sum(x, dim=self.dim, keepdim=True)


class MaxPool(nn.Module):
    def __init__(self): super().__init__(); self.pool = nn.MaxPool2d(4, stride=1, padding=1)
    def forward(self, x): return self.pool(x)


class Cumsum(nn.Module):
    def forward(self, x): return torch.cumsum(x, dim=1)


def memory_time(nbytes: float) -> float:
    return SOC.hbm_us(nbytes)


LAUNCH = SOC.launch_us + SOC.block_head_us

CASES = {
    # name: (model, inputs, bytes every op together must move, number of ops)
    "relu": (Relu(), [TensorSpec((4096, 393216))], 2 * 4096 * 393216 * F32, 1),
    # a 1.5 MB row does not fit in UB: the input is read three times (max, sum of exponentials, normalise)
    "softmax": (RowSoftmax(), [TensorSpec((4096, 393216))], 4 * 4096 * 393216 * F32, 1),
    # (p - t) reads 2 writes 1; ** 2 reads 1 writes 1; mean reads 1 writes a scalar
    "mse_loss": (Mse(), [TensorSpec((32768, 32768))] * 2, 6 * 32768 * 32768 * F32 + F32, 3),
    "layer_norm": (nn.LayerNorm((64, 256, 256)), [TensorSpec((64, 64, 256, 256))],
                   3 * 64 * 64 * 256 * 256 * F32 + 2 * 64 * 256 * 256 * F32 + 2 * 64 * F32, 1),  # x read twice
    "sum_middle": (SumMiddle(1), [TensorSpec((128, 4096, 4096))], (128 * 4096 * 4096 + 128 * 4096) * F32, 1),
    # max_pool2d returns values and int64 indices: 511 = 512 + 2*1 - 4 + 1
    "max_pool2d": (MaxPool(), [TensorSpec((32, 64, 512, 512))],
                   32 * 64 * 512 * 512 * F32 + 32 * 64 * 511 * 511 * (F32 + 8), 1),
    "cumsum": (Cumsum(), [TensorSpec((32768, 32768))], 2 * 32768 * 32768 * F32, 1),
}


@pytest.mark.parametrize("name", CASES)
def test_full_shape_references_cost_in_well_under_a_second(name):
    model, inputs, nbytes, n_ops = CASES[name]
    start = time.perf_counter()
    cost = eager_time(model, inputs, SOC)
    elapsed = time.perf_counter() - start
    assert elapsed < 0.5, elapsed
    assert len(cost.ops) == n_ops, [o.name for o in cost.ops]
    assert cost.bytes == nbytes
    assert cost.label == "modelled on Ascend910B2" and not cost.unknown
    # these are all memory-bound on the 910B2: time = host + launches + bytes / HBM bandwidth (pipelined)
    assert all(o.bound == "memory" for o in cost.ops)
    # only softmax's further reads of its rows can come from L2: they do when 48 rows read and 48 rows written
    # between a core's reads of its row fit in the usable L2 (the rule the kernel model shares)
    row = 393216 * F32
    assert cost.l2_bytes == (2 * 4096 * row if name == "softmax" and SOC.l2_holds(2 * 48 * row) else 0)
    # each op: its launches plus its HBM bytes on the saturating bandwidth curve (reductions to a scalar: 2 launches),
    # plus the unhidden share of its (shorter) vector work
    vector = lambda o: o.work_cycles / (SOC.vector_cores * SOC.clock_hz) * 1e6
    assert cost.device_us == pytest.approx(sum(o.launches * LAUNCH + memory_time(o.bytes - o.l2_bytes)
                                               + SOC.eager_unhidden_fraction * vector(o) for o in cost.ops), rel=1e-9)
    assert [o.launches for o in cost.ops] == ([1, 1, 2] if name == "mse_loss" else [1] * n_ops)
    # the host enqueues the first op after the timed call starts, the launch thread launches it, then the device
    # runs back to back
    assert cost.total_us == pytest.approx(SOC.call_host_us + cost.ops[0].host_us + SOC.op_dispatch_us + cost.device_us, rel=1e-9)


def test_inputs_are_never_allocated():
    seen = []

    class Probe(nn.Module):
        def forward(self, x):
            seen.append(x.device.type)
            return torch.relu(x)

    real = torch.zeros(4, 4)                     # a real tensor is replaced by a meta one of the same shape
    eager_time(Probe(), [real], SOC)
    eager_time(Probe(), [TensorSpec((4096, 393216))], SOC)
    assert seen == ["meta", "meta"]
    specs = meta_inputs(lambda: [torch.rand(4096, 393216), torch.rand(4096, 393216) > 0.5])
    assert [t.device.type for t in specs] == ["meta", "meta"] and specs[1].dtype == torch.bool


def test_what_the_level1_references_do():
    soc = SOC
    # batch norm in training mode: one native op plus the running-stat counter update
    bn = eager_time(nn.BatchNorm2d(64), [TensorSpec((64, 64, 512, 512))], soc)
    assert any("batch_norm" in o.name for o in bn.ops)
    # instance norm: a batch norm over a reshaped view
    inorm = eager_time(nn.InstanceNorm2d(64), [TensorSpec((128, 64, 512, 512))], soc)
    assert any("batch_norm" in o.name for o in inorm.ops) and not inorm.unknown
    gn = eager_time(nn.GroupNorm(8, 64), [TensorSpec((128, 64, 512, 512))], soc)
    assert [o.name for o in gn.ops] == ["aten.native_group_norm.default"]
    # losses with 0-dim outputs and int64 targets
    ce = eager_time(nn.CrossEntropyLoss(), [TensorSpec((32768, 4096)), TensorSpec((32768,), torch.int64)], soc)
    assert ce.ops[-1].out_shapes[0] == () and "int64" in ce.ops[-1].dtypes
    # bool masks and Python-float arguments
    masked = eager_time(lambda x, m: torch.cumsum(x * m, dim=1), [TensorSpec((32768, 32768)), TensorSpec((32768, 32768), torch.bool)], soc)
    assert masked.ops[0].bytes == 32768 * 32768 * (F32 + 1 + F32)
    scal = eager_time(lambda a, s: a * s, [TensorSpec((65536, 16384)), 3.14], soc)
    assert scal.ops[0].bytes == 2 * 65536 * 16384 * F32
    # log_softmax, flip-based reverse cumsum, reductions with dims, pooling in 1d/3d
    rev = eager_time(lambda x: torch.cumsum(x.flip(1), 1).flip(1), [TensorSpec((32768, 32768))], soc)
    assert [o.name.split(".")[1] for o in rev.ops] == ["flip", "cumsum", "flip"]
    for fn, shape in ((lambda x: F.log_softmax(x, 1), (4096, 393216)), (lambda x: torch.max(x, dim=1).values, (128, 4096, 4096)),
                      (lambda x: F.avg_pool1d(x, 8, 1, 4), (64, 128, 65536)), (lambda x: F.max_pool3d(x, 3, 2, 1), (16, 32, 128, 128, 128)),
                      (lambda x: F.avg_pool3d(x, 3, 2, 1), (16, 32, 128, 128, 256)), (lambda x: torch.prod(x, dim=1), (128, 4096, 4096))):
        c = eager_time(fn, [TensorSpec(shape)], soc)
        assert c.ops and not c.unknown


def test_pooling_work_grows_with_the_window():
    small = eager_time(lambda x: F.avg_pool2d(x, 2), [TensorSpec((16, 64, 512, 512))], SOC).ops[0]
    large = eager_time(lambda x: F.avg_pool2d(x, 8, stride=2), [TensorSpec((16, 64, 512, 512))], SOC).ops[0]
    per_out = lambda o: o.work_cycles / (o.out_shapes[0][2] * o.out_shapes[0][3])
    assert per_out(large) == pytest.approx(16 * per_out(small), rel=0.02)


def sgd(p, g, vel):
    vel = 0.9 * vel + g
    return p - 0.01 * vel


def test_small_ops_are_host_bound_and_large_ops_device_bound():
    small = eager_time(sgd, [TensorSpec((256, 1024))] * 3, SOC)
    assert len(small.ops) == 4 and all(o.device_us < SOC.op_dispatch_us for o in small.ops)
    assert all(o.dispatch_us == SOC.op_dispatch_us and o.host_us < o.dispatch_us for o in small.ops)
    # the Python thread enqueues faster than the launch thread launches: the launch thread paces the chain, and the
    # device finishes each small op before the next one is launched
    assert small.total_us == pytest.approx(SOC.call_host_us + small.ops[0].host_us + sum(o.dispatch_us for o in small.ops)
                                           + small.ops[-1].device_us, rel=1e-9)
    assert small.serial_us == pytest.approx(SOC.call_host_us + sum(o.host_us + o.dispatch_us + o.device_us for o in small.ops))
    assert small.total_us < small.serial_us
    # large ops: the host and the launch thread run ahead, the device works back to back
    large = eager_time(sgd, [TensorSpec((8192, 8192))] * 3, SOC)
    assert all(o.device_us > SOC.op_dispatch_us for o in large.ops)
    assert large.total_us == pytest.approx(SOC.call_host_us + large.ops[0].host_us + SOC.op_dispatch_us + large.device_us, rel=1e-9)


def test_transcendental_heavy_op_can_be_vector_bound_but_never_cheaper_than_its_bytes():
    c = eager_time(torch.special.erf, [TensorSpec((8192, 8192))], SOC)
    o = c.ops[0]
    assert o.device_us >= LAUNCH + memory_time(o.bytes) - 1e-9
    assert o.work_cycles == pytest.approx(8192 * 8192 * F32 / 256 * SOC.vector_ops["Erf"])


def test_matmul_counts_cube_flops():
    c = eager_time(torch.matmul, [TensorSpec((4096, 4096)), TensorSpec((4096, 4096))], SOC)
    assert c.ops[0].cube_flops == 2 * 4096**3
    assert c.ops[0].bound == "cube"


def test_unknown_ops_are_listed_and_counted_as_elementwise():
    c = eager_time(torch.special.bessel_j0, [TensorSpec((1024, 1024))], SOC)
    assert c.unknown == ["aten.special_bessel_j0.default"] and not c.ops[0].known
    assert c.ops[0].work_cycles == pytest.approx(1024 * 1024 * F32 / 256 * SOC.vector_ops["Add"])
    assert "(?)" in c.table()


def test_values_read_on_the_host_are_a_diagnostic():
    with pytest.raises(AscendCraftError) as e:
        eager_time(lambda x: x * x.sum().item(), [TensorSpec((8,))], SOC)
    assert e.value.kinds == ["eager-meta"]


def test_speedup_against_a_modelled_kernel_on_the_same_chip():
    eager = eager_time(Relu(), [TensorSpec((4096, 393216))], SOC)
    kernel = kernel_time(tiled_trace(4096 * 393216, tile=8192, blocks=48), SOC)
    # both move the same bytes over the same HBM: neither can be much faster than the other
    assert 0.9 < eager.speedup(kernel) < 1.1
    other = kernel_time(tiled_trace(4096, tile=4096, blocks=1), load_soc("Ascend910B3"))
    with pytest.raises(AscendCraftError):
        eager.speedup(other)


class Mixer(nn.Module):
    "A stand-in with a parameter and a buffer."
    def __init__(self):
        super().__init__()
        self.w = nn.Parameter(torch.randn(32, 8))
        self.register_buffer("b", torch.randn(16, 32))
    def forward(self, x): return torch.softmax(torch.cat([x, self.b]), dim=1) @ self.w


def test_module_state_is_costed_on_meta_and_restored():
    "The parameters and buffers are swapped for meta copies during the model and put back afterwards, unchanged."
    net = Mixer()
    w, b = net.w.detach().clone(), net.b.clone()
    cost = eager_time(net, [torch.randn(16, 32)], SOC)
    assert [o.name for o in cost.ops] == ["aten.cat.default", "aten._softmax.default", "aten.mm.default"]
    assert cost.ops[-1].cube_flops == 2 * 32 * 32 * 8
    assert isinstance(net.w, nn.Parameter) and net.w.requires_grad and net.w.device.type == "cpu"
    assert torch.equal(net.w, w) and torch.equal(net.b, b) and net.b.device.type == "cpu"


def test_recorder_does_not_import_dynamo():
    "Ops with C++ meta kernels cost milliseconds, not the seconds of importing torch._dynamo (Python reference kernels,\n    e.g. elementwise ops, still import it; bench caches eager costs for those)."
    import subprocess, sys
    code = ("import sys, torch\n"
            "from ascendcraft.eager import eager_time\n"
            "from ascendcraft.soc import load_soc\n"
            "cost = eager_time(lambda x: torch.softmax(x, dim=1).sum(1), [torch.randn(16, 32)], load_soc('Ascend910B2'))\n"
            "assert len(cost.ops) == 2, cost.ops\n"
            "print('dynamo' if 'torch._dynamo' in sys.modules else 'no-dynamo')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "no-dynamo"


def test_metadata_calls_cost_host_time_and_the_timed_call_its_own():
    c = eager_time(lambda x, h: torch.einsum("bsd,n->bnsd", x, h), [TensorSpec((4, 512, 256)), TensorSpec((4,))], SOC)
    (mul,) = c.ops                                         # einsum: six unsqueeze/permute calls, then one mul
    assert mul.views == 6 and mul.host_us == pytest.approx(SOC.op_host_us + 6 * SOC.view_host_us)
    assert c.total_us == pytest.approx(SOC.call_host_us + mul.host_us + mul.dispatch_us + mul.device_us)


def test_short_contiguous_runs_cost_bandwidth():
    # glu reads the two halves of each row: 100 B runs at the last dim 100 (fp16), 64 KB runs at 65536
    narrow = eager_time(F.glu, [TensorSpec((100 * 65536, 100), torch.float16)], SOC).ops[0]
    wide = eager_time(F.glu, [TensorSpec((100, 65536 * 100), torch.float16)], SOC).ops[0]
    assert narrow.bytes == wide.bytes and (narrow.run_bytes, wide.run_bytes) == (100, 65536 * 100)
    assert narrow.device_us > 2 * wide.device_us
    # a transposing copy reads each side in memory order: a permuted contiguous tensor is one long run
    t = eager_time(lambda x: x.transpose(0, 1).contiguous(), [TensorSpec((4096, 8192))], SOC).ops[0]
    assert t.run_bytes == 4096 * 8192 * F32
    # a column slice is not: its rows are runs of 64 elements
    s = eager_time(lambda x: x[:, :64] * 2, [TensorSpec((65536, 128))], SOC).ops[0]
    assert s.run_bytes == 64 * F32


def test_half_precision_special_functions_are_computed_in_fp32():
    f32 = eager_time(torch.exp, [TensorSpec((8192, 8192))], SOC).ops[0]
    f16 = eager_time(torch.exp, [TensorSpec((8192, 8192), torch.float16)], SOC).ops[0]
    b16 = eager_time(torch.sigmoid, [TensorSpec((8192, 8192), torch.bfloat16)], SOC).ops[0]
    cast = 2 * SOC.vector_ops["Cast"] * 8192 * 8192 * F32 / 256
    assert f16.work_cycles == pytest.approx(f32.work_cycles + cast)          # same lanes as fp32, plus a cast each way
    assert b16.work_cycles > eager_time(torch.sigmoid, [TensorSpec((8192, 8192))], SOC).ops[0].work_cycles
    # simple ops keep their fp16 width
    add16 = eager_time(torch.add, [TensorSpec((8192, 8192), torch.float16)] * 2, SOC).ops[0]
    add32 = eager_time(torch.add, [TensorSpec((8192, 8192))] * 2, SOC).ops[0]
    assert add16.work_cycles == pytest.approx(add32.work_cycles / 2)


def test_a_warm_l2_holds_a_footprint_that_fits_and_nothing_of_one_that_does_not():
    small = eager_time(sgd, [TensorSpec((1024, 4096))] * 3, SOC, l2_state="warm")
    assert small.l2_bytes == small.bytes                       # every byte of every op from L2
    assert small.device_us < eager_time(sgd, [TensorSpec((1024, 4096))] * 3, SOC, l2_state="cold").device_us
    big = eager_time(sgd, [TensorSpec((8192, 8192))] * 3, SOC, l2_state="warm")
    cold_big = eager_time(sgd, [TensorSpec((8192, 8192))] * 3, SOC, l2_state="cold")
    assert big.warm is None and big.device_us == pytest.approx(cold_big.device_us)


def test_a_reduction_to_fewer_values_than_cores_launches_a_second_pass():
    assert eager_time(torch.sum, [TensorSpec((4096, 4096))], SOC).ops[0].launches == 2
    assert eager_time(lambda x: x.sum(1), [TensorSpec((4096, 4096))], SOC).ops[0].launches == 1
    assert eager_time(torch.relu, [TensorSpec((16,))], SOC).ops[0].launches == 1


def test_matmuls_off_the_cube_fractals_pay_layout_conversions():
    # aligned operands (multiples of 16 rows and of one 32-byte fractal row) go straight to the cube
    aligned = eager_time(torch.bmm, [TensorSpec((64, 256, 256)), TensorSpec((64, 256, 256))], SOC).ops[0]
    assert aligned.launches == 1 and aligned.cube_flops == 2 * 64 * 256**3
    assert aligned.bytes == 3 * 64 * 256 * 256 * F32
    # K = N = 4 (the mHC stream count): the cube computes on padded fractals and both the 4-column operand and the
    # 4-column result are converted in passes of their own, each reading the tensor and writing it padded
    small = eager_time(torch.bmm, [TensorSpec((1, 1 << 20, 4)), TensorSpec((1, 4, 4))], SOC).ops[0]
    a, out = (1 << 20) * 4 * F32, (1 << 20) * 4 * F32
    assert small.launches == 4                                    # a, b (4 x 4) and the result are off the fractals
    assert small.cube_flops == 2.0 * (1 << 20) * 4 * 4            # the op's own 2·M·N·K ...
    assert small.cube_padded == 2.0 * (1 << 20) * 8 * 16          # ... the cube's: K up to 8 fp32 columns, N up to 16 rows
    assert small.bytes >= a + out + (a + 2 * a) + (out + 2 * out)  # plain traffic plus the conversions


def test_half_precision_normalisations_hold_their_rows_in_fp32():
    # a 32768-element fp16 row is 64 KB, but the op computes in fp32: 128 KB, and with its output tile it no longer
    # fits in UB, so softmax makes three passes (two more reads) where the same row counted at 2 bytes would fit
    half = eager_time(lambda x: torch.softmax(x, -1), [TensorSpec((64, 32768), torch.float16)], SOC).ops[0]
    assert half.reread == 2 * 64 * 32768 * 2
    short = eager_time(lambda x: torch.softmax(x, -1), [TensorSpec((64, 16384), torch.float16)], SOC).ops[0]
    assert short.reread == 0                                   # 64 KB in fp32: the row and its output tile fit
    # the vector work of a half-precision special function is counted in fp32 lanes, with the casts
    f32 = eager_time(torch.exp, [TensorSpec((4096, 4096))], SOC).ops[0]
    f16 = eager_time(torch.exp, [TensorSpec((4096, 4096), torch.float16)], SOC).ops[0]
    assert f16.work_cycles > f32.work_cycles and f16.bytes == f32.bytes // 2
