// Hostile: code that runs before main — a global constructor, a highest-priority constructor, a .preinit_array
// entry — each tries to start a process that would outlive the run. The sandbox's seccomp filter is installed
// before the binary's first instruction, so each attempt must be refused; the kernel itself is honest.
#include "kernel_operator.h"
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
using namespace AscendC;

static int spawn(const char* who) {
    pid_t p = fork();
    if (p == 0) { setsid(); sleep(30); _exit(0); }
    printf("%s-fork %s\n", who, p > 0 ? "REACHED" : "blocked");
    fflush(stdout);
    return 0;
}
static const int from_global = spawn("global");
__attribute__((constructor(101))) static void early() { spawn("constructor101"); }
static void pre() { spawn("preinit"); }
__attribute__((section(".preinit_array"), used)) static void (*preinit_entry)() = &pre;

extern "C" __global__ __aicore__ void ctor_spawn(GM_ADDR x, GM_ADDR y, uint32_t n)
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
    (void)from_global;
}
