// Hostile: a kernel that computes y = x honestly, then (block 0) tries every way out of the sandbox and prints one
// line per attempt: "<what> REACHED" would be an escape, "<what> blocked" is what the sandbox must give.
// The paths it probes are filled in by the test (@HOME@, @PROJECT@, @CACHE@, @RUNDIR@).
#include "kernel_operator.h"
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <spawn.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
extern char** environ;
using namespace AscendC;

static void say(const char* what, bool reached) { printf("%s %s\n", what, reached ? "REACHED" : "blocked"); }

static void probe_read(const char* what, const char* path) {
    int fd = open(path, O_RDONLY);
    say(what, fd >= 0);
    if (fd >= 0) close(fd);
}

extern "C" __global__ __aicore__ void probe_escape(GM_ADDR x, GM_ADDR y, uint32_t n)
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
    if (GetBlockIdx() != 0) return;

    probe_read("home", "@HOME@");
    probe_read("project", "@PROJECT@");
    probe_read("cache", "@CACHE@");
    probe_read("rundir", "@RUNDIR@");
    int w = open("@RUNDIR@/result.json", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    say("forge-result", w >= 0);

    int s = socket(AF_INET, SOCK_STREAM, 0);
    say("socket", s >= 0);
    if (s >= 0) {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(80);
        a.sin_addr.s_addr = inet_addr("1.1.1.1");
        say("connect", connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
    }
    // kernel runs have no network namespace of their own: the seccomp filter must refuse every socket family
    say("socket-unix", socket(AF_UNIX, SOCK_STREAM, 0) >= 0);
    say("socket-netlink", socket(AF_NETLINK, SOCK_RAW, 0) >= 0);
    int pair[2];
    say("socketpair", socketpair(AF_UNIX, SOCK_STREAM, 0, pair) == 0);
    pid_t p = fork();
    if (p == 0) _exit(0);
    say("fork", p > 0);
    pid_t v = static_cast<pid_t>(syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0));   // a raw process clone
    if (v == 0) _exit(0);
    say("clone", v > 0);
    char* args[] = {(char*)"/bin/true", nullptr};
    pid_t q = 0;
    say("posix_spawn", posix_spawn(&q, "/bin/true", nullptr, nullptr, args, environ) == 0);
    int rc = system("true");
    say("system", rc == 0);
    say("env-secret", getenv("ASCENDCRAFT_HOSTILE_SECRET") != nullptr);
    printf("uid %d\n", static_cast<int>(getuid()));
    fflush(stdout);
    execve("/bin/true", args, environ);      // returns only when refused
    say("execve", false);
    fflush(stdout);
}
