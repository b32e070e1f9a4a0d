// Hostile: writes a file far larger than the sandbox's file-size limit into its scratch folder (a DoS on the
// machine's RAM-backed /dev/shm). RLIMIT_FSIZE stops it with SIGXFSZ: a run-limit error.
#include "kernel_operator.h"
#include <cstdio>
#include <cstring>
using namespace AscendC;

extern "C" __global__ __aicore__ void big_file(GM_ADDR x, GM_ADDR y, uint32_t n)
{
    static char chunk[1 << 20];
    memset(chunk, 'z', sizeof chunk);
    FILE* f = fopen("fill.bin", "wb");
    for (int i = 0; f && i < 64; ++i) fwrite(chunk, 1, sizeof chunk, f);
    if (f) fclose(f);
}
