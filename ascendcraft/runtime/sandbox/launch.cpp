// ascendcraft sandbox launcher: the last step before an untrusted kernel binary runs.
//
// It runs inside the bubblewrap sandbox and, in this order:
//   1. opens the program to run on descriptor EXEC_FD (close-on-exec);
//   2. sets the resource limits it was given (CPU seconds, address space, file size, processes, descriptors);
//      the descriptor limit is EXEC_FD, so the program can never again own a descriptor with that number;
//   3. sets no_new_privs and installs a seccomp filter that refuses fork, vfork, clone without CLONE_THREAD,
//      clone3 (ENOSYS: glibc then uses clone for threads), execve, ptrace, namespaces and sockets, and allows
//      execveat only on descriptor EXEC_FD with AT_EMPTY_PATH;
//   4. execveat(EXEC_FD, "", ..., AT_EMPTY_PATH).
// The filter is in place before the program's first instruction (its dynamic loader, ifunc resolvers, global
// constructors and .preinit_array included), and it is inherited by every thread. After the exec, EXEC_FD is closed
// and no descriptor with that number can be created (RLIMIT_NOFILE), so the one allowed execveat is spent.
//
// It also takes SIGKILL when its parent dies (PR_SET_PDEATHSIG; --parent PID checks the parent is still that one),
// so the Python side can start it without a preexec_fn (and so with vfork, not a copy of a large process).
//
// It is one static executable with no C library (built with LAUNCHER_FLAGS in ascendcraft/sandbox.py: -static
// -nostdlib -fno-stack-protector ...): it makes its few system calls itself. Every kernel run starts it, and a C
// library's start-up (the dynamic loader, relocations, and the dozens of CPUID instructions glibc runs to pick its
// string functions, each a trap to the hypervisor on a virtual machine) cost about 0.6 ms of every start.
//
// usage: launch [--cpu S] [--as BYTES] [--fsize BYTES] [--nproc N] [--parent PID] [--no-seccomp] -- PROGRAM ARGS...
// exit status 120 + message on stderr when the launcher itself fails.
#include <cstddef>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

namespace {

constexpr int EXEC_FD = 255;  // also the RLIMIT_NOFILE the program gets: descriptors 0..254

// ---- system calls (no C library) ----
#if defined(__x86_64__)
long sys(long n, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0, long f = 0) {
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    long ret;
    __asm__ volatile("syscall" : "=a"(ret) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
}
#elif defined(__aarch64__)
long sys(long n, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0, long f = 0) {
    register long x8 __asm__("x8") = n;
    register long x0 __asm__("x0") = a;
    register long x1 __asm__("x1") = b;
    register long x2 __asm__("x2") = c;
    register long x3 __asm__("x3") = d;
    register long x4 __asm__("x4") = e;
    register long x5 __asm__("x5") = f;
    __asm__ volatile("svc #0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory");
    return x0;
}
#else
#error "the sandbox launcher knows x86-64 and aarch64 only"
#endif

long err_no = 0;  // the last failed call's error number

bool ok(long ret) {
    if (ret < 0 && ret > -4096) { err_no = -ret; return false; }
    return true;
}

[[noreturn]] void leave(int status) {
    for (;;) sys(SYS_exit_group, status);
}

unsigned long length(const char* s) {
    unsigned long n = 0;
    while (s[n]) ++n;
    return n;
}

bool same(const char* a, const char* b) {
    while (*a && *a == *b) ++a, ++b;
    return *a == *b;
}

void say(const char* s) { sys(SYS_write, 2, reinterpret_cast<long>(s), static_cast<long>(length(s))); }

const char* error_text(long e) {
    switch (e) {
    case 1: return "Operation not permitted";
    case 2: return "No such file or directory";
    case 8: return "Exec format error";
    case 9: return "Bad file descriptor";
    case 12: return "Cannot allocate memory";
    case 13: return "Permission denied";
    case 14: return "Bad address";
    case 20: return "Not a directory";
    case 21: return "Is a directory";
    case 22: return "Invalid argument";
    case 24: return "Too many open files";
    case 26: return "Text file busy";
    case 36: return "File name too long";
    case 38: return "Function not implemented";
    case 40: return "Too many levels of symbolic links";
    default: return nullptr;
    }
}

[[noreturn]] void fail(const char* what) {
    say("ascendcraft-sandbox: ");
    say(what);
    say(": ");
    if (const char* text = error_text(err_no)) say(text);
    else {
        char digits[24], *p = digits + sizeof digits;
        *--p = 0;
        unsigned long v = static_cast<unsigned long>(err_no);
        do *--p = static_cast<char>('0' + v % 10); while (v /= 10);
        say("error ");
        say(p);
    }
    say("\n");
    leave(120);
}

[[noreturn]] void refuse(const char* message, const char* what = nullptr) {
    say("ascendcraft-sandbox: ");
    say(message);
    if (what) say(what);
    say("\n");
    leave(120);
}

unsigned long long number(const char* s) {  // decimal digits (anything after them is ignored, like strtoull)
    unsigned long long v = 0;
    while (*s >= '0' && *s <= '9') v = v * 10 + static_cast<unsigned>(*s++ - '0');
    return v;
}

void limit(int resource, unsigned long long value, const char* name) {
    unsigned long long r[2] = {value, value};  // struct rlimit64: soft, hard
    if (!ok(sys(SYS_prlimit64, 0, resource, reinterpret_cast<long>(r), 0))) fail(name);
}

constexpr unsigned ARCH =
#if defined(__x86_64__)
    AUDIT_ARCH_X86_64;
#else
    AUDIT_ARCH_AARCH64;
#endif

constexpr unsigned NR = offsetof(struct seccomp_data, nr);
constexpr unsigned ARCH_OFF = offsetof(struct seccomp_data, arch);
constexpr unsigned ARG0 = offsetof(struct seccomp_data, args[0]);  // low 32 bits (little endian)
constexpr unsigned ARG4 = offsetof(struct seccomp_data, args[4]);

#define STMT(code, k) BPF_STMT(static_cast<unsigned short>(code), static_cast<unsigned>(k))
#define JUMP(code, k, t, f) BPF_JUMP(static_cast<unsigned short>(code), static_cast<unsigned>(k), t, f)
#define DENY(nr, err) JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1), STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err))

constexpr unsigned EPERM_ = 1, ENOSYS_ = 38;

struct sock_filter prog[] = {  // static data: no copy (and so no memcpy) at run time
    STMT(BPF_LD | BPF_W | BPF_ABS, ARCH_OFF),
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
    STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    STMT(BPF_LD | BPF_W | BPF_ABS, NR),
#if defined(__x86_64__)
    JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1),          // x32 system calls
    STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
    DENY(SYS_fork, EPERM_),
    DENY(SYS_vfork, EPERM_),
#endif
    DENY(SYS_execve, EPERM_),
    DENY(SYS_clone3, ENOSYS_),
    DENY(SYS_ptrace, EPERM_),
    DENY(SYS_process_vm_readv, EPERM_),
    DENY(SYS_process_vm_writev, EPERM_),
    DENY(SYS_unshare, EPERM_),
    DENY(SYS_setns, EPERM_),
    DENY(SYS_socket, EPERM_),
    DENY(SYS_socketpair, EPERM_),
    DENY(SYS_mount, EPERM_),
    DENY(SYS_bpf, EPERM_),
    DENY(SYS_userfaultfd, EPERM_),
    DENY(SYS_perf_event_open, EPERM_),
    DENY(SYS_io_uring_setup, EPERM_),
    DENY(SYS_keyctl, EPERM_),
    DENY(SYS_add_key, EPERM_),
    DENY(SYS_request_key, EPERM_),
    // clone: threads only
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4),
    STMT(BPF_LD | BPF_W | BPF_ABS, ARG0),
    JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 1, 0),
    STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM_),
    STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    // execveat: only EXEC_FD with AT_EMPTY_PATH (the launcher's own exec)
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execveat, 0, 6),
    STMT(BPF_LD | BPF_W | BPF_ABS, ARG0),
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, EXEC_FD, 0, 3),
    STMT(BPF_LD | BPF_W | BPF_ABS, ARG4),
    JUMP(BPF_JMP | BPF_JEQ | BPF_K, AT_EMPTY_PATH, 0, 1),
    STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM_),
    STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

void install_filter() {
    struct sock_fprog fprog{static_cast<unsigned short>(sizeof(prog) / sizeof(prog[0])), prog};
    if (!ok(sys(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))) fail("no_new_privs");
    if (!ok(sys(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, reinterpret_cast<long>(&fprog)))) fail("seccomp");
}

}  // namespace

// The process's first instruction jumps here with the initial stack: argc, argv[], 0, envp[], 0, auxv.
extern "C" [[noreturn]] __attribute__((used)) void launcher_main(long* stack) {
    sys(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL);
    int argc = static_cast<int>(stack[0]);
    char** argv = reinterpret_cast<char**>(stack + 1);
    char** envp = argv + argc + 1;
    unsigned long long cpu = 0, as = 0, fsize = 0, nproc = 0, parent = 0;
    bool seccomp = true;
    int i = 1;
    for (; i < argc; ++i) {
        if (same(argv[i], "--")) { ++i; break; }
        if (same(argv[i], "--no-seccomp")) { seccomp = false; continue; }
        if (i + 1 >= argc) refuse(argv[i], " needs a value");
        unsigned long long v = number(argv[i + 1]);
        if (same(argv[i], "--cpu")) cpu = v;
        else if (same(argv[i], "--as")) as = v;
        else if (same(argv[i], "--fsize")) fsize = v;
        else if (same(argv[i], "--nproc")) nproc = v;
        else if (same(argv[i], "--parent")) parent = v;
        else refuse("unknown option ", argv[i]);
        ++i;
    }
    if (i >= argc) refuse("no program to run");
    if (parent && static_cast<unsigned long long>(sys(SYS_getppid)) != parent) leave(120);   // it died before the prctl

    long fd = sys(SYS_openat, AT_FDCWD, reinterpret_cast<long>(argv[i]), O_RDONLY | O_CLOEXEC);
    if (!ok(fd)) fail(argv[i]);
    if (fd != EXEC_FD) {
        if (!ok(sys(SYS_dup3, fd, EXEC_FD, O_CLOEXEC))) fail("dup3");
        sys(SYS_close, fd);
    }
    if (!ok(sys(SYS_close_range, 3, EXEC_FD - 1, 0)))                 // nothing inherited but stdio
        for (int other = 3; other < EXEC_FD; ++other) sys(SYS_close, other);   // (Linux before 5.9)
    if (cpu) limit(RLIMIT_CPU, cpu, "RLIMIT_CPU");
    if (as) limit(RLIMIT_AS, as, "RLIMIT_AS");
    if (fsize) limit(RLIMIT_FSIZE, fsize, "RLIMIT_FSIZE");
    if (nproc) limit(RLIMIT_NPROC, nproc, "RLIMIT_NPROC");
    limit(RLIMIT_NOFILE, EXEC_FD, "RLIMIT_NOFILE");
    limit(RLIMIT_CORE, 0, "RLIMIT_CORE");
    if (seccomp) install_filter();
    ok(sys(SYS_execveat, EXEC_FD, reinterpret_cast<long>(""), reinterpret_cast<long>(argv + i),
           reinterpret_cast<long>(envp), AT_EMPTY_PATH));
    fail("execveat");
}

// The entry point: the stack pointer (which points at argc) to launcher_main, the stack aligned as a call expects.
#if defined(__x86_64__)
__asm__(".text\n.global _start\n.type _start,@function\n_start:\n"
        "  xor %ebp, %ebp\n  mov %rsp, %rdi\n  and $-16, %rsp\n  call launcher_main\n  hlt\n");
#else
__asm__(".text\n.global _start\n.type _start,%function\n_start:\n"
        "  mov x29, #0\n  mov x30, #0\n  mov x0, sp\n  and x1, x0, #-16\n  mov sp, x1\n  bl launcher_main\n  brk #0\n");
#endif
