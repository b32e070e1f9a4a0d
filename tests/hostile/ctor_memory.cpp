// Hostile: a global constructor that grabs and touches 64 GiB before the runtime's own memory limit is set.
// The launcher's address-space limit is already in place: the run ends with an out-of-memory error.
#include "kernel_operator.h"
#include <cstdlib>
#include <cstring>
#include <new>
using namespace AscendC;

static char* grab() {
    size_t n = size_t(64) << 30;
    char* p = static_cast<char*>(malloc(n));
    if (p) memset(p, 1, n);
    else throw std::bad_alloc();
    return p;
}
static char* const hog = grab();

extern "C" __global__ __aicore__ void ctor_memory(GM_ADDR x, GM_ADDR y, uint32_t n) { (void)hog; }
