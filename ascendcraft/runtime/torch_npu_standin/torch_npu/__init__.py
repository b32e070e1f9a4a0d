"""AscendCraft's stand-in for torch_npu on a machine without an NPU: NOT torch_npu.

It exists so that a PyTorch C++ extension that launches an AscendC kernel (`kernel<<<blocks, nullptr, stream>>>` on
`c10_npu::getCurrentNPUStream().stream(false)`, bound with pybind11 or TORCH_LIBRARY / TORCH_LIBRARY_IMPL(...,
PrivateUse1, ...)) and its test script (`import torch_npu`, `x.npu()`, `.cpu()`, `torch_npu.testing.testcase`) run
unchanged on AscendCraft's CPU emulator. It is found only through PYTHONPATH (README.md beside this package says how);
it is never installed, and it refuses to load where a real torch_npu is installed.

What it gives: the "npu" device (PyTorch's PrivateUse1 backend renamed), one device npu:0 whose memory is the emulated
ACL's allocations (_backend.cpp); `Tensor.npu()` / `.cpu()` / `.is_npu`, `torch.npu` (= `torch_npu.npu`: device
count, current device, synchronize); every other operator on npu tensors runs as on the CPU. Kernel launches of an
extension built by `python -m torch_npu._ascendcraft_build build` run on the emulator, with its GM bounds, race and
poison checks (_ascendcraft.py). Written for AscendCraft; no torch_npu code.
"""
import importlib.metadata
import types

import torch

from . import _ascendcraft

__version__ = "0.0+ascendcraft.standin"
ASCENDCRAFT_STANDIN = True   # how a script can tell this stand-in from torch_npu


def _refuse_to_shadow_a_real_torch_npu():
    try:
        real = importlib.metadata.distribution("torch_npu")
    except importlib.metadata.PackageNotFoundError:
        return
    raise ImportError(f"AscendCraft's torch_npu stand-in ({__file__}) is on PYTHONPATH, but torch_npu {real.version} is "
                      "installed: take the stand-in off PYTHONPATH to use the real one")


def _device_module() -> types.ModuleType:
    "torch.npu: the calls of torch_npu's device module that scripts beside a custom op use, for one emulated device."
    npu = types.ModuleType("torch_npu.npu", "AscendCraft's stand-in for torch.npu: one emulated device, npu:0.")
    npu.is_available = lambda: True
    npu.is_initialized = lambda: True
    npu.device_count = lambda: 1
    npu.current_device = lambda: 0
    npu._is_in_bad_fork = lambda: False
    # random numbers on npu tensors are the CPU's (the CPU fallback), which torch.manual_seed seeds already
    npu.manual_seed = npu.manual_seed_all = lambda seed: None
    npu.synchronize = lambda device=None: None   # every emulated launch has finished when it returns

    def set_device(device):
        index = torch.device(device).index if isinstance(device, (str, torch.device)) else device
        if index not in (None, 0):
            raise RuntimeError(f"torch_npu stand-in: one emulated device (npu:0), not {device}")
    npu.set_device = set_device
    npu.config = types.SimpleNamespace(allow_internal_format=False)
    return npu


def _register():
    _refuse_to_shadow_a_real_torch_npu()
    torch.utils.rename_privateuse1_backend("npu")
    torch.ops.load_library(str(_ascendcraft.backend_library()))
    from torch.utils.backend_registration import _DummyPrivateUse1Hook
    torch._C._acc.register_python_privateuseone_hook(_DummyPrivateUse1Hook())
    module = _device_module()
    torch._register_device_module("npu", module)
    torch.utils.generate_methods_for_privateuse1_backend(for_tensor=True, for_module=True, for_storage=False)
    return module


def npu_dynamic_quant(input, *, smooth_scales=None, group_index=None, dst_type=None):
    """torch_npu.npu_dynamic_quant as its documentation states it, computed on the CPU (a reference, not an emulated
    kernel): per-token symmetric int8 quantisation over the last axis, scale = max(|x * smooth_scales|) / 127 in
    float32, y = round(x / scale) (ties to even) clipped to [-128, 127]; returns (y int8, scale float32 of
    input.shape[:-1]) on input's device. The grouped (group_index) and non-int8 (dst_type) forms are not here."""
    if group_index is not None:
        raise NotImplementedError("torch_npu stand-in: npu_dynamic_quant with group_index (the MoE grouped form) is not "
                                  "emulated; quantise each group's rows with a call of its own")
    if dst_type not in (None, torch.int8):
        raise NotImplementedError(f"torch_npu stand-in: npu_dynamic_quant to {dst_type} is not emulated (int8 only)")
    x = input.detach().to("cpu", torch.float32)
    if smooth_scales is not None:
        x = x * smooth_scales.detach().to("cpu", torch.float32)
    scale = x.abs().amax(dim=-1) / 127.0
    safe = torch.where(scale == 0, torch.ones_like(scale), scale)
    y = torch.clamp(torch.round(x / safe.unsqueeze(-1)), -128, 127).to(torch.int8)
    return y.to(input.device), scale.to(input.device)


npu = _register()
