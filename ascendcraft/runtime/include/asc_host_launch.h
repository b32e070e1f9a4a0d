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
// A PyTorch extension built by AscendCraft's torch_npu stand-in (ascendcraft/runtime/torch_npu_standin: it defines
// ASCENDCRAFT_HOST_PYTHON and links the extension's ascendcraft_extension_manifest()) runs inside the Python process
// of its test script: there the launch is handed to the stand-in's Python side (torch_npu._ascendcraft.launch) in the
// same process instead of the harness's pipes, with the same spec and files, and a launch that fails raises a C++
// exception (a Python RuntimeError in the script) naming the kernel's error.
// Written for the corpus harness; no code of CANN's is in it.
#pragma once
#ifdef ASCENDCRAFT_HOST_PYTHON
#include <Python.h>   // first, as Python's headers ask
#endif
#include <acl/acl.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <set>
#include <stdexcept>
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

#ifdef ASCENDCRAFT_HOST_PYTHON
// The extension's manifest (its kernels' sources and entries), a function the stand-in's build writes for each extension.
extern "C" const char* ascendcraft_extension_manifest();

// The stand-in's Python side, called with the interpreter's lock held (taken here when the caller let it go).
// `what`: "folder" (where the launch files go) or "launch" (run the launch whose spec is `spec`: "ok" or "fail ...").
inline std::string ask_python(const char* what, const std::string& spec = "") {
    const PyGILState_STATE gil = PyGILState_Ensure();
    std::string answer = std::string("fail the torch_npu stand-in gave no answer to '") + what + "'";
    PyObject* module = PyImport_ImportModule("torch_npu._ascendcraft");
    PyObject* got = nullptr;
    if (module && std::strcmp(what, "folder") == 0) got = PyObject_CallMethod(module, "launch_folder", nullptr);
    else if (module) got = PyObject_CallMethod(module, "launch", "ss", spec.c_str(), ascendcraft_extension_manifest());
    if (got && PyUnicode_Check(got)) {
        answer = PyUnicode_AsUTF8(got);
    } else if (PyErr_Occurred()) {   // the stand-in's own failure (torch_npu not the stand-in, a build error): its text
        PyObject *type = nullptr, *value = nullptr, *trace = nullptr;
        PyErr_Fetch(&type, &value, &trace);
        PyObject* text = value ? PyObject_Str(value) : nullptr;
        answer = std::string("fail torch_npu stand-in: ") + (text && PyUnicode_Check(text) ? PyUnicode_AsUTF8(text) : "?");
        Py_XDECREF(text); Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(trace);
    }
    Py_XDECREF(got);
    Py_XDECREF(module);
    PyGILState_Release(gil);
    return answer;
}
#endif

template <typename... A>
void launch(const char* kernel, uint64_t blocks, const A&... args) {
    if (ascendcraft_acl_detail::capturing()) {   // inside aclmdlRICaptureBegin / End: run when the model runs (acl.h)
        const std::string name = kernel;
        ascendcraft_acl_detail::capture_task("kernel " + name, [=] { launch(name.c_str(), blocks, args...); });
        return;
    }
    std::vector<Arg> v;
    (add(v, args), ...);
#ifdef ASCENDCRAFT_HOST_PYTHON
    const std::string dir = ask_python("folder");
    if (dir.rfind("fail ", 0) == 0) throw std::runtime_error(dir.substr(5));
#else
    const char* dir = std::getenv("ASCENDCRAFT_HOST_DIR");
    if (!dir) { std::fprintf(stderr, "ascendcraft host run: ASCENDCRAFT_HOST_DIR is not set\n"); std::exit(97); }
#endif
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
#ifdef ASCENDCRAFT_HOST_PYTHON
    const std::string answer = ask_python("launch", at);
    if (answer.rfind("ok", 0) != 0) {   // the kernel stopped (or could not run): the script's RuntimeError says why
        for (uintptr_t b : bases) std::remove((at + "_" + std::to_string(b) + ".bin").c_str());
        std::remove((at + ".txt").c_str());
        throw std::runtime_error(answer.rfind("fail ", 0) == 0 ? answer.substr(5) : answer);
    }
    std::remove((at + ".txt").c_str());
#else
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
#endif
    for (uintptr_t b : bases) {
        const std::string file = at + "_" + std::to_string(b) + ".bin";
        {
            std::ifstream f(file, std::ios::binary);
            f.read(reinterpret_cast<char*>(b), static_cast<std::streamsize>(ascendcraft_acl_detail::allocations()[b].first));
        }
#ifdef ASCENDCRAFT_HOST_PYTHON
        std::remove(file.c_str());   // a script may launch many times: its files go once read
#endif
    }
}

}  // namespace ascendcraft_host
