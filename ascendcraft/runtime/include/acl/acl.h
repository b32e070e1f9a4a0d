// AscendCraft: the part of CANN's host runtime API (acl/acl.h) that single-source kernels' host helpers call, over
// this machine's memory.
//
// An official .asc example or a direct-invocation sample keeps host code beside its kernel: helpers that allocate and
// copy buffers with aclrtMallocHost / aclrtMemcpy, and a main() that launches the kernel with <<<>>>. The emulation
// builds the kernel with those helpers in the same file, so they must compile and link. Here the "device" is the
// host: device and host memory are both the process's memory, a copy of either kind is a memcpy, a stream is a token
// and synchronising it returns at once (the emulated kernel has finished when its run returns). One device (id 0) is
// present. Error codes and enumerator values are CANN's documented ones. Written from the public ACL documentation;
// no vendor code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include <sys/mman.h>

typedef int aclError;
typedef void* aclrtStream;
typedef void* aclrtContext;
typedef void* aclrtEvent;
// The half-precision value of host buffers (IEEE binary16 bits) and its conversions, as CANN names them.
typedef uint16_t aclFloat16;
inline float aclFloat16ToFloat(aclFloat16 value) { _Float16 h; std::memcpy(&h, &value, sizeof h); return static_cast<float>(h); }
inline aclFloat16 aclFloatToFloat16(float value) {
    _Float16 h = static_cast<_Float16>(value);
    aclFloat16 bits;
    std::memcpy(&bits, &h, sizeof bits);
    return bits;
}

static const aclError ACL_SUCCESS = 0;
static const aclError ACL_ERROR_NONE = 0;      // the older name of ACL_SUCCESS (catlass examples' ACL_CHECK)
static const aclError ACL_ERROR_INVALID_PARAM = 100000;
static const aclError ACL_ERROR_BAD_ALLOC = 200000;
static const aclError ACL_ERROR_RT_AICORE_EXCEPTION = 507015;   // a kernel stopped on the AI Core (its assert, a trap)

typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY = 1,
    ACL_MEM_MALLOC_NORMAL_ONLY = 2,
} aclrtMemMallocPolicy;

typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE = 1,
    ACL_MEMCPY_DEVICE_TO_HOST = 2,
    ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
} aclrtMemcpyKind;

typedef enum aclDataType {
    ACL_DT_UNDEFINED = -1, ACL_FLOAT = 0, ACL_FLOAT16 = 1, ACL_INT8 = 2, ACL_INT32 = 3, ACL_UINT8 = 4, ACL_INT16 = 6,
    ACL_UINT16 = 7, ACL_UINT32 = 8, ACL_INT64 = 9, ACL_UINT64 = 10, ACL_DOUBLE = 11, ACL_BOOL = 12, ACL_BF16 = 27,
} aclDataType;

typedef enum aclFormat {
    ACL_FORMAT_UNDEFINED = -1, ACL_FORMAT_NCHW = 0, ACL_FORMAT_NHWC = 1, ACL_FORMAT_ND = 2, ACL_FORMAT_NC1HWC0 = 3,
    ACL_FORMAT_FRACTAL_Z = 4, ACL_FORMAT_FRACTAL_NZ = 29, ACL_FORMAT_NCDHW = 30, ACL_FORMAT_NCL = 47,
} aclFormat;

namespace ascendcraft_acl_detail {
inline int& stream_token() { static int token = 0; return token; }
inline bool valid_device(int32_t id) { return id == 0; }
// The allocations aclrtMalloc (device, 1) and aclrtMallocHost (host, 0) made and not yet freed: start -> (bytes, kind),
// which aclrtPointerGetAttributes reads (the memory is the process's either way; the kind is what the host code asked for).
inline std::map<uintptr_t, std::pair<size_t, int>>& allocations() { static std::map<uintptr_t, std::pair<size_t, int>> m; return m; }
inline void remember(void* p, size_t size, int kind) { if (p) allocations()[reinterpret_cast<uintptr_t>(p)] = {size, kind}; }
inline void forget(void* p) { allocations().erase(reinterpret_cast<uintptr_t>(p)); }

// Where allocations are placed: a range of addresses of their own, from kDeviceBase up, each allocation its own pages
// with one unmapped page after it. On the NPU a host program sees device addresses and may hand them to a kernel
// inside another buffer (a list of tensors: ListTensorDesc); the corpus harness's host run (asc_host_launch.h) places
// each allocation at the same address in the emulator's kernel process, which needs addresses that are page boundaries
// in a range nothing else there uses. An address is never given out twice (freed pages are unmapped, not reused).
inline constexpr uintptr_t kDeviceBase = 0x300000000000;   // 48 TiB: above the heap and a sanitizer's shadow, below
                                                           // the top-down mmap area of x86-64 and AArch64 processes
inline constexpr size_t kPage = 4096;
inline size_t mapped_bytes(size_t size) { return (size + kPage - 1) / kPage * kPage; }
inline void* map_pages(size_t size) {
    static std::mutex lock;
    static uintptr_t next = kDeviceBase;
    const std::lock_guard<std::mutex> hold(lock);
    const size_t bytes = mapped_bytes(size);
    for (int tries = 0; tries < 64; ++tries) {   // a range in use (this process mapped something there): the next one
        void* want = reinterpret_cast<void*>(next);
        next += bytes + kPage;
        void* p = mmap(want, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
        if (p == want) return p;
        if (p != MAP_FAILED) munmap(p, bytes);   // a kernel older than MAP_FIXED_NOREPLACE took it as a hint
    }
    return nullptr;
}
}  // namespace ascendcraft_acl_detail

// The runtime's error of the calling thread (aclrtGetLastError reads and clears it, aclrtPeekAtLastError reads it) and
// the message of the latest failure (aclGetRecentErrMsg reads and clears it; nullptr when there is none). Here the only
// source is a kernel launch that stopped on the device (the corpus harness's host run sets it: asc_host_launch.h).
typedef enum aclrtLastErrLevel {
    ACL_RT_THREAD_LEVEL = 0,
} aclrtLastErrLevel;
namespace ascendcraft_acl_detail {
struct ThreadError {
    aclError code = ACL_SUCCESS;
    std::string message;     // the latest failure's message ("" once read)
    std::string returned;    // the string aclGetRecentErrMsg handed out last (valid until its next call)
};
inline ThreadError& thread_error() { thread_local ThreadError e; return e; }
inline void set_error(aclError code, const std::string& message) {
    thread_error().code = code;
    thread_error().message = message;
}
}  // namespace ascendcraft_acl_detail
inline aclError aclrtGetLastError(aclrtLastErrLevel /*level*/) {
    const aclError code = ascendcraft_acl_detail::thread_error().code;
    ascendcraft_acl_detail::thread_error().code = ACL_SUCCESS;
    return code;
}
inline aclError aclrtPeekAtLastError(aclrtLastErrLevel /*level*/) { return ascendcraft_acl_detail::thread_error().code; }
inline const char* aclGetRecentErrMsg() {
    ascendcraft_acl_detail::ThreadError& e = ascendcraft_acl_detail::thread_error();
    if (e.message.empty()) return nullptr;
    e.returned = e.message;
    e.message.clear();
    return e.returned.c_str();
}

inline aclError aclInit(const char* /*configPath*/) { return ACL_SUCCESS; }
inline aclError aclFinalize() { return ACL_SUCCESS; }

inline aclError aclrtGetDeviceCount(uint32_t* count) {
    if (!count) return ACL_ERROR_INVALID_PARAM;
    *count = 1;
    return ACL_SUCCESS;
}
inline aclError aclrtSetDevice(int32_t deviceId) {
    return ascendcraft_acl_detail::valid_device(deviceId) ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM;
}
inline aclError aclrtResetDevice(int32_t deviceId) { return aclrtSetDevice(deviceId); }
inline aclError aclrtSynchronizeDevice() { return ACL_SUCCESS; }
// The base address of the device's hardware cross-core synchronisation (FFTS) registers, which a mixed kernel is given
// and sets with SetSyncBaseAddr (catlass's examples). The emulation's cross-core flags need no such registers: the
// address of a placeholder word of this process, never 0 (catlass takes 0 as "not given").
inline aclError aclrtGetHardwareSyncAddr(void** addr) {
    static uint64_t placeholder = 0;
    if (!addr) return ACL_ERROR_INVALID_PARAM;
    *addr = &placeholder;
    return ACL_SUCCESS;
}

inline aclError aclrtCreateContext(aclrtContext* context, int32_t deviceId) {
    if (!context || !ascendcraft_acl_detail::valid_device(deviceId)) return ACL_ERROR_INVALID_PARAM;
    *context = &ascendcraft_acl_detail::stream_token();
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyContext(aclrtContext context) { return context ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }

inline aclError aclrtCreateStream(aclrtStream* stream) {
    if (!stream) return ACL_ERROR_INVALID_PARAM;
    *stream = &ascendcraft_acl_detail::stream_token();
    return ACL_SUCCESS;
}
inline aclError aclrtDestroyStream(aclrtStream stream) { return stream ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }
inline aclError aclrtSynchronizeStream(aclrtStream stream) { return stream ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }

// Device and host allocations: page-aligned (GM wants 32 bytes), at addresses of their own (map_pages). Fresh device
// memory holds no defined value; with
// ASCENDCRAFT_ACL_MALLOC_FILL set (a byte, 0..255) every new allocation is filled with it, so that a host program run
// twice (the corpus harness's host run: once with a poison byte, once with 0) shows what depends on that content.
inline aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy /*policy*/) {
    if (!devPtr || size == 0) return ACL_ERROR_INVALID_PARAM;
    *devPtr = ascendcraft_acl_detail::map_pages(size);
    if (const char* fill = std::getenv("ASCENDCRAFT_ACL_MALLOC_FILL"); fill && *devPtr)
        std::memset(*devPtr, std::atoi(fill) & 0xFF, size);
    ascendcraft_acl_detail::remember(*devPtr, size, 1);
    return *devPtr ? ACL_SUCCESS : ACL_ERROR_BAD_ALLOC;
}
inline aclError aclrtFree(void* devPtr) {
    auto& all = ascendcraft_acl_detail::allocations();
    const auto it = all.find(reinterpret_cast<uintptr_t>(devPtr));
    if (it == all.end()) return ACL_ERROR_INVALID_PARAM;   // not an allocation's start (or freed already)
    munmap(devPtr, ascendcraft_acl_detail::mapped_bytes(it->second.first));
    all.erase(it);
    return ACL_SUCCESS;
}
inline aclError aclrtMallocHost(void** hostPtr, size_t size) {
    const aclError e = aclrtMalloc(hostPtr, size, ACL_MEM_MALLOC_NORMAL_ONLY);
    if (e == ACL_SUCCESS) ascendcraft_acl_detail::remember(*hostPtr, size, 0);
    return e;
}
inline aclError aclrtFreeHost(void* hostPtr) { return aclrtFree(hostPtr); }

// The current context: the one device's, always set here (CANN makes it with aclrtSetDevice; hicann ops-blas's host
// code checks it before launching).
inline aclError aclrtGetCurrentContext(aclrtContext* context) {
    if (!context) return ACL_ERROR_INVALID_PARAM;
    *context = &ascendcraft_acl_detail::stream_token();
    return ACL_SUCCESS;
}
// Where a pointer's memory is (CANN's documented enumerators): allocated by aclrtMallocHost (host), by aclrtMalloc
// (device, id 0), or by neither (unregistered); an address inside an allocation counts as it.
typedef enum aclrtMemLocationType {
    ACL_MEM_LOCATION_TYPE_HOST = 0,
    ACL_MEM_LOCATION_TYPE_DEVICE = 1,
    ACL_MEM_LOCATION_TYPE_UNREGISTERED = 2,
} aclrtMemLocationType;
typedef struct aclrtMemLocation {
    uint32_t id;
    aclrtMemLocationType type;
} aclrtMemLocation;
typedef struct aclrtPtrAttributes {
    aclrtMemLocation location;
    uint32_t pageSize;
    uint32_t rsv[4];
} aclrtPtrAttributes;
inline aclError aclrtPointerGetAttributes(const void* ptr, aclrtPtrAttributes* attributes) {
    if (!ptr || !attributes) return ACL_ERROR_INVALID_PARAM;
    *attributes = aclrtPtrAttributes{};
    attributes->location.type = ACL_MEM_LOCATION_TYPE_UNREGISTERED;
    const uintptr_t p = reinterpret_cast<uintptr_t>(ptr);
    auto& all = ascendcraft_acl_detail::allocations();
    auto it = all.upper_bound(p);
    if (it != all.begin() && p < (--it)->first + it->second.first) {
        attributes->location.type = it->second.second ? ACL_MEM_LOCATION_TYPE_DEVICE : ACL_MEM_LOCATION_TYPE_HOST;
        attributes->pageSize = 4096;
    }
    return ACL_SUCCESS;
}

// A copy of `count` bytes into a destination of `destMax` bytes: more than fits is an error, as in CANN.
inline aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
    if (!dst || !src || count > destMax || kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_DEVICE_TO_DEVICE)
        return ACL_ERROR_INVALID_PARAM;
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
}
inline aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    if (!devPtr || count > maxCount) return ACL_ERROR_INVALID_PARAM;
    std::memset(devPtr, value, count);
    return ACL_SUCCESS;
}

// ---- Asynchronous copies, events and stream capture (aclmdlRI) ------------------------------------------------------
// A stream runs its tasks in the order they are issued, and here every task has finished when its call returns, so an
// event orders nothing: recording and waiting succeed at once. Between aclmdlRICaptureBegin and aclmdlRICaptureEnd the
// tasks issued are not run but kept in the model runtime instance (the ACL reference's aclmdlRICaptureBegin), and each
// aclmdlRIExecuteAsync runs them in that order. On the NPU a stream that waits on an event recorded in a capturing
// stream joins the capture; the emulation has one stream (all stream handles are one token), so while a capture is open
// every asynchronous task is captured: issue order respects every record -> wait edge, so it is a valid order to run
// them in. The captured tasks are copies (aclrtMemcpyAsync) and kernel launches (the corpus harness's launch,
// asc_host_launch.h, records itself through capture_task).
static const uint32_t ACL_EVENT_SYNC = 0x00000001u;

typedef enum aclmdlRICaptureMode {
    ACL_MODEL_RI_CAPTURE_MODE_GLOBAL = 0,
    ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL = 1,
    ACL_MODEL_RI_CAPTURE_MODE_RELAXED = 2,
} aclmdlRICaptureMode;

namespace ascendcraft_acl_detail {
struct CapturedTask {
    std::string what;             // "memcpy <bytes> bytes", "kernel <name>": aclmdlRIDebugJsonPrint's list
    std::function<void()> run;
};
struct ModelRI {
    std::vector<CapturedTask> tasks;
};
// The capture in progress (nullptr: none); a task issued while one is open goes into it instead of running.
inline ModelRI*& open_capture() { static ModelRI* capture = nullptr; return capture; }
inline bool capturing() { return open_capture() != nullptr; }
inline void capture_task(std::string what, std::function<void()> run) {
    open_capture()->tasks.push_back(CapturedTask{std::move(what), std::move(run)});
}
}  // namespace ascendcraft_acl_detail
typedef ascendcraft_acl_detail::ModelRI* aclmdlRI;

inline aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                                 aclrtStream stream) {
    if (!stream || !dst || !src || count > destMax || kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_DEVICE_TO_DEVICE)
        return ACL_ERROR_INVALID_PARAM;
    if (ascendcraft_acl_detail::capturing()) {   // the bytes are read when the model runs, not now
        ascendcraft_acl_detail::capture_task("memcpy " + std::to_string(count) + " bytes",
                                             [=] { std::memmove(dst, src, count); });
        return ACL_SUCCESS;
    }
    std::memmove(dst, src, count);
    return ACL_SUCCESS;
}

inline aclError aclrtCreateEventExWithFlag(aclrtEvent* event, uint32_t /*flag*/) {
    if (!event) return ACL_ERROR_INVALID_PARAM;
    *event = &ascendcraft_acl_detail::stream_token();
    return ACL_SUCCESS;
}
inline aclError aclrtCreateEvent(aclrtEvent* event) { return aclrtCreateEventExWithFlag(event, ACL_EVENT_SYNC); }
inline aclError aclrtDestroyEvent(aclrtEvent event) { return event ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }
inline aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream) { return event && stream ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }
inline aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event) { return event && stream ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }
inline aclError aclrtSynchronizeEvent(aclrtEvent event) { return event ? ACL_SUCCESS : ACL_ERROR_INVALID_PARAM; }

inline aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode /*mode*/) {
    if (!stream || ascendcraft_acl_detail::capturing()) return ACL_ERROR_INVALID_PARAM;   // one capture at a time here
    ascendcraft_acl_detail::open_capture() = new ascendcraft_acl_detail::ModelRI();
    return ACL_SUCCESS;
}
inline aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI* modelRI) {
    if (!stream || !modelRI || !ascendcraft_acl_detail::capturing()) return ACL_ERROR_INVALID_PARAM;
    *modelRI = ascendcraft_acl_detail::open_capture();
    ascendcraft_acl_detail::open_capture() = nullptr;
    return ACL_SUCCESS;
}
inline aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream) {
    if (!modelRI || !stream || ascendcraft_acl_detail::capturing()) return ACL_ERROR_INVALID_PARAM;
    for (const ascendcraft_acl_detail::CapturedTask& t : modelRI->tasks) t.run();
    return ACL_SUCCESS;
}
inline aclError aclmdlRIDestroy(aclmdlRI modelRI) {
    if (!modelRI) return ACL_ERROR_INVALID_PARAM;
    delete modelRI;
    return ACL_SUCCESS;
}
// The model's tasks as JSON, for the reader (the format is the emulation's own: {"tasks": ["memcpy 64 bytes", ...]}).
inline aclError aclmdlRIDebugJsonPrint(aclmdlRI modelRI, const char* path, uint32_t /*flags*/) {
    if (!modelRI || !path) return ACL_ERROR_INVALID_PARAM;
    std::FILE* f = std::fopen(path, "w");
    if (!f) return ACL_ERROR_INVALID_PARAM;
    std::fprintf(f, "{\"tasks\": [");
    for (size_t i = 0; i < modelRI->tasks.size(); ++i)
        std::fprintf(f, "%s\"%s\"", i ? ", " : "", modelRI->tasks[i].what.c_str());
    std::fprintf(f, "]}\n");
    std::fclose(f);
    return ACL_SUCCESS;
}
