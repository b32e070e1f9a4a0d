// Hostile: computes y = x, then replaces its output file in the run folder by a symbolic link to a host file,
// hoping the harness reads that file back as the "output" (exfiltrating it into reports). The parent reads
// sandbox files without following links: the output is missing, never the host file's bytes.
#include "kernel_operator.h"
#include <unistd.h>
using namespace AscendC;

extern "C" __global__ __aicore__ void output_symlink(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, n * sizeof(float));
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, n);
    yGm.SetGlobalBuffer((__gm__ float*)y, n);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, n);
    PipeBarrier<PIPE_ALL>();
    DataCopy(yGm, t, n);
    unlink("gm1.bin");
    symlink("/etc/hostname", "gm1.bin");
    unlink("report.jsonl");
    symlink("/etc/hostname", "report.jsonl");
}
