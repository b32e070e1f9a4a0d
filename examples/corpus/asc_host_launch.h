// The launch side of corpus.py's host run of an asc-devkit example (match_asc_host): the example's whole .asc file,
// its host main included, is compiled as a host program against the emulated ACL (acl/acl.h), and each
// `kernel<<<blocks, l2ctrl, stream>>>(args...)` statement is rewritten to `ascendcraft_host::launch("kernel", blocks,
// args...)`. A launch hands its arguments to the harness and waits: each pointer argument must point into an
// aclrtMalloc / aclrtMallocHost allocation (the allocation's bytes are written to a file, the argument is that file and
// the offset into it), any other argument is its bytes. The harness runs the kernel on the emulator with those bytes,
// writes each allocation's bytes after the run back to its file, and answers; the host program then reads them back and
// goes on (its own copies back to the host, WriteFile, its own check). The harness's answer "fail" (the kernel stopped
// with an error) ends the host program with status 98: nothing after a failed launch is the example's. The answer
// "assert <text>" (the kernel stopped at the assertion its README shows firing) sets the thread's runtime error
// (aclrtGetLastError: ACL_ERROR_RT_AICORE_EXCEPTION) and the host program goes on.
// Every other device allocation (aclrtMalloc) goes with the launch too, as a line `d START BYTES` after the arguments
// and its bytes in a file: the kernel may reach it through an address the host stored in GM (a ListTensorDesc's list
// of tensors), so the harness places each allocation, the arguments' too, at its host address in the kernel process
// (the emulated ACL keeps device addresses in a range of their own for that: acl.h's map_pages). A launch while a
// stream capture is open (aclmdlRICaptureBegin) is kept in the capture and made when the model runs.
// Written for the corpus harness; no code of CANN's is in it.
#pragma once
#include <acl/acl.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace ascendcraft_host {

struct Arg {
    char kind;            // 'n' null pointer, 'b' buffer (base, offset), 'h' a pointer into no ACL allocation, 'v' value
    uintptr_t base = 0;   // 'b': the allocation's start
    size_t offset = 0;    // 'b': the pointer's offset into it
    std::string bytes;    // 'v': the value's bytes
    char type = 'o';      // 'v': f floating, i signed integer, u unsigned integer / bool / enum, o anything else
};

inline bool find_allocation(uintptr_t p, uintptr_t& base) {
    auto& all = ascendcraft_acl_detail::allocations();
    auto it = all.upper_bound(p);
    if (it == all.begin()) return false;
    --it;
    if (p >= it->first + it->second.first) return false;
    base = it->first;
    return true;
}

template <typename T>
void add(std::vector<Arg>& out, const T& a) {
    using U = std::decay_t<T>;
    if constexpr (std::is_null_pointer_v<U>) {
        out.push_back(Arg{'n'});
    } else if constexpr (std::is_pointer_v<U>) {
        const uintptr_t p = reinterpret_cast<uintptr_t>(a);
        Arg r{'n'};
        if (p) {
            uintptr_t base = 0;
            if (find_allocation(p, base)) { r.kind = 'b'; r.base = base; r.offset = p - base; }
            else r.kind = 'h';
        }
        out.push_back(r);
    } else {
        static_assert(std::is_trivially_copyable_v<U>, "a kernel argument passed by value must be trivially copyable");
        Arg r{'v'};
        r.bytes.assign(reinterpret_cast<const char*>(&a), sizeof(U));
        if constexpr (std::is_floating_point_v<U>) r.type = 'f';
        else if constexpr (std::is_integral_v<U>) r.type = std::is_signed_v<U> ? 'i' : 'u';
        else if constexpr (std::is_enum_v<U>) r.type = std::is_signed_v<std::underlying_type_t<U>> ? 'i' : 'u';
        out.push_back(r);
    }
}

inline std::string hex(const std::string& s) {
    static const char* digits = "0123456789abcdef";
    std::string h;
    for (unsigned char c : s) { h += digits[c >> 4]; h += digits[c & 15]; }
    return h;
}

template <typename... A>
void launch(const char* kernel, uint64_t blocks, const A&... args) {
    if (ascendcraft_acl_detail::capturing()) {   // inside aclmdlRICaptureBegin / End: run when the model runs (acl.h)
        const std::string name = kernel;
        ascendcraft_acl_detail::capture_task("kernel " + name, [=] { launch(name.c_str(), blocks, args...); });
        return;
    }
    std::vector<Arg> v;
    (add(v, args), ...);
    const char* dir = std::getenv("ASCENDCRAFT_HOST_DIR");
    if (!dir) { std::fprintf(stderr, "ascendcraft host run: ASCENDCRAFT_HOST_DIR is not set\n"); std::exit(97); }
    static int count = 0;
    const std::string at = std::string(dir) + "/launch" + std::to_string(count++);
    std::set<uintptr_t> bases;
    {
        std::ofstream spec(at + ".txt");
        spec << kernel << "\n" << blocks << "\n";
        for (const Arg& a : v) {
            if (a.kind == 'b') {
                spec << "b " << a.base << " " << a.offset << " " << ascendcraft_acl_detail::allocations()[a.base].first << "\n";
                bases.insert(a.base);
            } else if (a.kind == 'v') {
                spec << "v " << a.type << " " << a.bytes.size() << " " << hex(a.bytes) << "\n";
            } else {
                spec << a.kind << "\n";
            }
        }
        for (const auto& [start, allocation] : ascendcraft_acl_detail::allocations())
            if (allocation.second == 1 && bases.insert(start).second) spec << "d " << start << " " << allocation.first << "\n";
    }
    for (uintptr_t b : bases) {
        std::ofstream f(at + "_" + std::to_string(b) + ".bin", std::ios::binary);
        f.write(reinterpret_cast<const char*>(b), static_cast<std::streamsize>(ascendcraft_acl_detail::allocations()[b].first));
    }
    // the request: the launch's spec file name, on the request pipe; the answer: one line on the answer pipe
    const char* req = std::getenv("ASCENDCRAFT_HOST_REQUEST");
    const char* ans = std::getenv("ASCENDCRAFT_HOST_ANSWER");
    if (!req || !ans) { std::fprintf(stderr, "ascendcraft host run: no request / answer pipe\n"); std::exit(97); }
    {
        std::FILE* r = std::fopen(req, "w");
        if (!r) std::exit(97);
        std::fprintf(r, "%s\n", at.c_str());
        std::fclose(r);
    }
    char line[512] = {0};
    std::FILE* a = std::fopen(ans, "r");
    if (!a || !std::fgets(line, sizeof line, a)) std::exit(97);
    std::fclose(a);
    if (std::strncmp(line, "assert", 6) == 0) {
        // the kernel stopped at its own assertion, which the example expects (the harness checked its README): as on
        // the NPU, the launch's error is the thread's runtime error and the host program goes on (its buffers as
        // they were before the launch)
        ascendcraft_acl_detail::set_error(ACL_ERROR_RT_AICORE_EXCEPTION, std::string("aicore exception: ") + (line + 6));
        return;
    }
    if (std::strncmp(line, "ok", 2) != 0) std::exit(98);
    for (uintptr_t b : bases) {
        std::ifstream f(at + "_" + std::to_string(b) + ".bin", std::ios::binary);
        f.read(reinterpret_cast<char*>(b), static_cast<std::streamsize>(ascendcraft_acl_detail::allocations()[b].first));
    }
}

}  // namespace ascendcraft_host
