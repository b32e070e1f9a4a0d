"""Stream capture in the emulated ACL (acl.h: aclmdlRICaptureBegin / End, aclmdlRIExecuteAsync, as asc-devkit's
04_aclgraph uses them): the copies and the kernel launch issued between Begin and End do not run then; each execution
of the model runs them in issue order, reading the host's bytes at that time; events order nothing (one stream)."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "examples" / "corpus"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

CAPTURED = r'''#include "acl/acl.h"
#include "kernel_operator.h"
#include <cstdio>

__global__ __vector__ void twice(GM_ADDR x, GM_ADDR z)
{
    AscendC::GlobalTensor<float> xGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 8);
    zGm.SetGlobalBuffer((__gm__ float*)z, 8);
    for (int i = 0; i < 8; ++i) zGm.SetValue(i, 2.0f * xGm.GetValue(i));
}

int main()
{
    aclInit(nullptr);
    aclrtSetDevice(0);
    aclrtStream stream = nullptr, other = nullptr;
    aclrtCreateStream(&stream);
    aclrtCreateStream(&other);
    aclrtEvent ready = nullptr;
    aclrtCreateEventExWithFlag(&ready, ACL_EVENT_SYNC);
    float xHost[8], zHost[8];
    for (int i = 0; i < 8; ++i) { xHost[i] = i; zHost[i] = -1.0f; }
    void *x = nullptr, *z = nullptr;
    aclrtMalloc(&x, sizeof xHost, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&z, sizeof zHost, ACL_MEM_MALLOC_HUGE_FIRST);
    aclmdlRI model = nullptr;
    aclmdlRICaptureBegin(stream, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL);
    aclrtMemcpyAsync(x, sizeof xHost, xHost, sizeof xHost, ACL_MEMCPY_HOST_TO_DEVICE, stream);
    aclrtRecordEvent(ready, stream);
    aclrtStreamWaitEvent(other, ready);
    twice<<<1, nullptr, other>>>((uint8_t*)x, (uint8_t*)z);
    aclrtMemcpyAsync(zHost, sizeof zHost, z, sizeof zHost, ACL_MEMCPY_DEVICE_TO_HOST, stream);
    aclmdlRICaptureEnd(stream, &model);
    const bool nothing_yet = zHost[3] == -1.0f;   // captured, not run
    aclmdlRIExecuteAsync(model, stream);
    aclrtSynchronizeStream(stream);
    const bool first = zHost[3] == 6.0f;
    xHost[3] = 10.0f;                              // the model reads the host's bytes when it runs
    aclmdlRIExecuteAsync(model, stream);
    aclrtSynchronizeStream(stream);
    const bool second = zHost[3] == 20.0f;
    aclmdlRIDebugJsonPrint(model, "model.json", 0);
    aclmdlRIDestroy(model);
    std::printf("%d %d %d\n", nothing_yet, first, second);
    std::printf(nothing_yet && first && second ? "test pass!\n" : "test failed!\n");
    return 0;
}
'''


def test_captured_tasks_run_when_the_model_runs(tmp_path):
    from corpus import _try_entry
    from test_corpus_asc_host import _example_repo
    gitdir, commit, path = _example_repo(tmp_path, "captured", CAPTURED, "```bash\n./demo\n```\n")
    out = _try_entry(dict(source="t", repo="t/t", commit=commit, path=path, kind="asc-file"), gitdir, True, False)
    assert out["match"] == "pass" and "test pass!" in out["match_detail"], out
