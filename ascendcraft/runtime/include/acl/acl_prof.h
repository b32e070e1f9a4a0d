// AscendCraft: the part of CANN's acl/acl_prof.h (the profiling API) that host code around a kernel launch calls: a
// name's id and a profiling range pushed before a launch and popped after it (asc-devkit's
// torch_library_report_tensor reports its tensors' shapes to msopprof this way). The emulation runs no profiler: the
// calls succeed and record nothing. The profiling timeline of an emulated kernel is AscendCraft's cost model's, not
// msprof's. Written from the public ACL documentation; no vendor code.
#pragma once

#include "acl/acl.h"

#include <cstdint>

// A stable id of a message (an operator's name or type), as the profiler keys them: the string's FNV-1a hash here.
inline uint64_t aclprofStr2Id(const char* message) {
    uint64_t id = 1469598103934665603ull;
    for (const char* c = message ? message : ""; *c; ++c) id = (id ^ static_cast<unsigned char>(*c)) * 1099511628211ull;
    return id;
}

// A range with attributes (the tensors of the launch inside it) opened on the calling thread, and the innermost closed.
inline aclError aclprofRangePushEx(void* attributes) { return attributes ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }
inline aclError aclprofRangePop() { return ACL_SUCCESS; }
