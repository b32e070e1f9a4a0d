"""A host program that hands its kernel a device buffer of device addresses (asc-devkit's list_tensor_desc_input: a
ListTensorDesc's list of tensors): the emulated ACL keeps each aclrtMalloc allocation at an address of its own, the host
run (corpus.py match_asc_host, asc_host_launch.h) places every device allocation, arguments or not, at that address in
the kernel process, registered as GM with its size (emu.run's gm_extra): the addresses the host stored are the kernel's
GM, and bounds checks hold for the buffers that are no parameter."""
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples" / "corpus"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

LISTED = r'''#include "acl/acl.h"
#include "kernel_operator.h"
#include <cstdio>

// z[i] = x[i] + y[i] for i < N, x and y found through the list of their addresses (z holds N floats)
template <uint32_t N>
__global__ __vector__ void add_listed(GM_ADDR list, GM_ADDR z)
{
    AscendC::GlobalTensor<uint64_t> listGm;
    listGm.SetGlobalBuffer((__gm__ uint64_t*)list, 2);
    AscendC::GlobalTensor<float> xGm, yGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)listGm.GetValue(0), N);
    yGm.SetGlobalBuffer((__gm__ float*)listGm.GetValue(1), N);
    zGm.SetGlobalBuffer((__gm__ float*)z, N);
    AscendC::TPipe pipe;
    AscendC::TBuf<AscendC::TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 3 * N * sizeof(float));
    AscendC::LocalTensor<float> a = buf.Get<float>();
    AscendC::LocalTensor<float> b = a[N], c = a[2 * N];
    AscendC::DataCopy(a, xGm, N);
    AscendC::DataCopy(b, yGm, N);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::Add(c, a, b, N);
    AscendC::PipeBarrier<PIPE_ALL>();
    AscendC::DataCopy(zGm, c, N);
}

int main()
{
    constexpr uint32_t n = 16;
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    float xHost[n], yHost[n], zHost[n];
    for (uint32_t i = 0; i < n; ++i) { xHost[i] = i; yHost[i] = 100.0f * i; }
    void *x = nullptr, *y = nullptr, *z = nullptr, *list = nullptr;
    aclrtMalloc(&x, sizeof xHost, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&y, sizeof yHost, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&z, READ * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&list, 2 * sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(x, sizeof xHost, xHost, sizeof xHost, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(y, sizeof yHost, yHost, sizeof yHost, ACL_MEMCPY_HOST_TO_DEVICE);
    const uint64_t addresses[2] = {reinterpret_cast<uint64_t>(x), reinterpret_cast<uint64_t>(y)};
    aclrtMemcpy(list, sizeof addresses, addresses, sizeof addresses, ACL_MEMCPY_HOST_TO_DEVICE);
    add_listed<READ><<<1, nullptr, stream>>>((uint8_t*)list, (uint8_t*)z);
    aclrtSynchronizeStream(stream);
    aclrtMemcpy(zHost, sizeof zHost, z, sizeof zHost, ACL_MEMCPY_DEVICE_TO_HOST);
    bool good = true;
    for (uint32_t i = 0; i < n; ++i) good = good && zHost[i] == 101.0f * i;
    std::printf(good ? "test pass!\n" : "test failed!\n");
    aclrtFree(x); aclrtFree(y); aclrtFree(z); aclrtFree(list);
    return 0;
}
'''


def _run(tmp_path, read: int) -> dict:
    from corpus import _try_entry
    from test_corpus_asc_host import _example_repo
    gitdir, commit, path = _example_repo(tmp_path, "add_listed", LISTED.replace("READ", str(read)), "```bash\n./demo\n```\n")
    return _try_entry(dict(source="t", repo="t/t", commit=commit, path=path, kind="asc-file"), gitdir, True, False)


def test_kernel_reads_tensors_through_a_device_list_of_addresses(tmp_path):
    "x and y are no launch argument: the kernel finds them at the addresses the host stored in `list`."
    out = _run(tmp_path, 16)
    assert out["match"] == "pass" and "test pass!" in out["match_detail"], out


def test_a_listed_buffer_keeps_its_bounds(tmp_path):
    """Reading 32 floats of the 16-float x (an allocation that is no argument; a read may reach 32 bytes past its end,
    as aclrtMalloc's padding allows) stops out of bounds, naming its address."""
    out = _run(tmp_path, 32)
    assert out["match"] == "run-error", out
    assert "gm-out-of-bounds" in out["match_detail"] and "device@0x" in out["match_detail"], out


def test_gm_at_an_address_needs_a_page_boundary():
    from ascendcraft.emu import GM
    with pytest.raises(ValueError, match="page boundary"):
        GM("x", np.zeros(4, np.float32), "in", address=0x300000000010)
    with pytest.raises(ValueError, match="needs an address"):
        GM("x", np.zeros(4, np.float32), "in", offset=4)
