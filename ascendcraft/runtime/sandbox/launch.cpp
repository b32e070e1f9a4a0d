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
// usage: launch [--cpu S] [--as BYTES] [--fsize BYTES] [--nproc N] [--parent PID] [--no-seccomp] -- PROGRAM ARGS...
// exit status 120 + message on stderr when the launcher itself fails.
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char** environ;

namespace {

constexpr int EXEC_FD = 255;  // also the RLIMIT_NOFILE the program gets: descriptors 0..254

[[noreturn]] void fail(const char* what) {
    fprintf(stderr, "ascendcraft-sandbox: %s: %s\n", what, strerror(errno));
    _exit(120);
}

void limit(int resource, unsigned long long value, const char* name) {
    struct rlimit r{static_cast<rlim_t>(value), static_cast<rlim_t>(value)};
    if (setrlimit(resource, &r) != 0) fail(name);
}

#if defined(__x86_64__)
constexpr unsigned ARCH = AUDIT_ARCH_X86_64;
#elif defined(__aarch64__)
constexpr unsigned ARCH = AUDIT_ARCH_AARCH64;
#else
#error "the sandbox launcher knows x86-64 and aarch64 only"
#endif

constexpr unsigned NR = offsetof(struct seccomp_data, nr);
constexpr unsigned ARCH_OFF = offsetof(struct seccomp_data, arch);
constexpr unsigned ARG0 = offsetof(struct seccomp_data, args[0]);  // low 32 bits (little endian)
constexpr unsigned ARG4 = offsetof(struct seccomp_data, args[4]);

#define STMT(code, k) BPF_STMT(static_cast<unsigned short>(code), static_cast<unsigned>(k))
#define JUMP(code, k, t, f) BPF_JUMP(static_cast<unsigned short>(code), static_cast<unsigned>(k), t, f)
#define DENY(nr, err) JUMP(BPF_JMP | BPF_JEQ | BPF_K, nr, 0, 1), STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (err))

void install_filter() {
    struct sock_filter prog[] = {
        STMT(BPF_LD | BPF_W | BPF_ABS, ARCH_OFF),
        JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
        STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        STMT(BPF_LD | BPF_W | BPF_ABS, NR),
#if defined(__x86_64__)
        JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1),          // x32 system calls
        STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS),
        DENY(SYS_fork, EPERM),
        DENY(SYS_vfork, EPERM),
#endif
        DENY(SYS_execve, EPERM),
        DENY(SYS_clone3, ENOSYS),
        DENY(SYS_ptrace, EPERM),
        DENY(SYS_process_vm_readv, EPERM),
        DENY(SYS_process_vm_writev, EPERM),
        DENY(SYS_unshare, EPERM),
        DENY(SYS_setns, EPERM),
        DENY(SYS_socket, EPERM),
        DENY(SYS_socketpair, EPERM),
        DENY(SYS_mount, EPERM),
        DENY(SYS_bpf, EPERM),
        DENY(SYS_userfaultfd, EPERM),
        DENY(SYS_perf_event_open, EPERM),
        DENY(SYS_io_uring_setup, EPERM),
        DENY(SYS_keyctl, EPERM),
        DENY(SYS_add_key, EPERM),
        DENY(SYS_request_key, EPERM),
        // clone: threads only
        JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_clone, 0, 4),
        STMT(BPF_LD | BPF_W | BPF_ABS, ARG0),
        JUMP(BPF_JMP | BPF_JSET | BPF_K, CLONE_THREAD, 1, 0),
        STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        // execveat: only EXEC_FD with AT_EMPTY_PATH (the launcher's own exec)
        JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execveat, 0, 6),
        STMT(BPF_LD | BPF_W | BPF_ABS, ARG0),
        JUMP(BPF_JMP | BPF_JEQ | BPF_K, EXEC_FD, 0, 3),
        STMT(BPF_LD | BPF_W | BPF_ABS, ARG4),
        JUMP(BPF_JMP | BPF_JEQ | BPF_K, AT_EMPTY_PATH, 0, 1),
        STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
        STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
        STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
    };
    struct sock_fprog fprog{static_cast<unsigned short>(sizeof(prog) / sizeof(prog[0])), prog};
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) fail("no_new_privs");
    if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &fprog) != 0) fail("seccomp");
}

}  // namespace

int main(int argc, char** argv) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    unsigned long long cpu = 0, as = 0, fsize = 0, nproc = 0, parent = 0;
    bool seccomp = true;
    int i = 1;
    for (; i < argc; ++i) {
        if (!strcmp(argv[i], "--")) { ++i; break; }
        if (!strcmp(argv[i], "--no-seccomp")) { seccomp = false; continue; }
        if (i + 1 >= argc) { fprintf(stderr, "ascendcraft-sandbox: %s needs a value\n", argv[i]); return 120; }
        unsigned long long v = strtoull(argv[i + 1], nullptr, 10);
        if (!strcmp(argv[i], "--cpu")) cpu = v;
        else if (!strcmp(argv[i], "--as")) as = v;
        else if (!strcmp(argv[i], "--fsize")) fsize = v;
        else if (!strcmp(argv[i], "--nproc")) nproc = v;
        else if (!strcmp(argv[i], "--parent")) parent = v;
        else { fprintf(stderr, "ascendcraft-sandbox: unknown option %s\n", argv[i]); return 120; }
        ++i;
    }
    if (i >= argc) { fprintf(stderr, "ascendcraft-sandbox: no program to run\n"); return 120; }
    if (parent && static_cast<unsigned long long>(getppid()) != parent) _exit(120);   // it died before the prctl

    int fd = open(argv[i], O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(argv[i]);
    if (fd != EXEC_FD) {
        if (dup3(fd, EXEC_FD, O_CLOEXEC) != EXEC_FD) fail("dup3");
        close(fd);
    }
    for (int other = 3; other < EXEC_FD; ++other) close(other);   // nothing inherited but stdio
    if (cpu) limit(RLIMIT_CPU, cpu, "RLIMIT_CPU");
    if (as) limit(RLIMIT_AS, as, "RLIMIT_AS");
    if (fsize) limit(RLIMIT_FSIZE, fsize, "RLIMIT_FSIZE");
    if (nproc) limit(RLIMIT_NPROC, nproc, "RLIMIT_NPROC");
    limit(RLIMIT_NOFILE, EXEC_FD, "RLIMIT_NOFILE");
    limit(RLIMIT_CORE, 0, "RLIMIT_CORE");
    if (seccomp) install_filter();
    syscall(SYS_execveat, EXEC_FD, "", argv + i, environ, AT_EMPTY_PATH);
    fail("execveat");
}
