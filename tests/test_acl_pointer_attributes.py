"""The emulated ACL's aclrtGetCurrentContext and aclrtPointerGetAttributes (acl/acl.h), which hicann ops-blas's host
code calls before it launches (srotg asks whether its scalars are device or host memory): memory from aclrtMalloc is
device memory (id 0), from aclrtMallocHost host memory, anything else unregistered, an address inside an allocation
counts as it, and a freed allocation is forgotten. A host program compiled with g++ against the emulation's headers."""
import subprocess

from ascendcraft.emu import INCLUDE_DIR

PROGRAM = r"""
#include <cstdio>
#include "acl/acl.h"
static int where(const void* p) { aclrtPtrAttributes a; if (aclrtPointerGetAttributes(p, &a) != ACL_SUCCESS) return -1;
                                  return (int)a.location.type; }
int main() {
    aclrtContext ctx = nullptr;
    int ok = aclrtGetCurrentContext(&ctx) == ACL_SUCCESS && ctx != nullptr && aclrtGetCurrentContext(nullptr) != ACL_SUCCESS;
    void *dev = nullptr, *host = nullptr; float local = 0.f;
    aclrtMalloc(&dev, 256, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMallocHost(&host, 64);
    printf("%d %d %d %d %d ", ok, where(dev), where((char*)dev + 255), where(host), where(&local));
    aclrtFree(dev);
    aclrtPtrAttributes a; 
    printf("%d %d\n", where(dev), aclrtPointerGetAttributes(nullptr, &a) == ACL_SUCCESS);
    aclrtFreeHost(host);
    return 0;
}
"""


def test_pointer_attributes_say_where_acl_allocated_the_memory(tmp_path):
    (tmp_path / "p.cpp").write_text(PROGRAM)
    subprocess.run(["g++", "-std=c++17", "-I", str(INCLUDE_DIR), "p.cpp", "-o", "p"], cwd=tmp_path, check=True)
    out = subprocess.run(["./p"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split()
    # context; device start / last byte; host; a stack variable; the device block after aclrtFree; null refused
    assert out == ["1", "1", "1", "0", "2", "2", "0"]
