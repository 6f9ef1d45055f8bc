// scale-benchmark's launcher: runs one command and prints, on standard output,
// "<wall nanoseconds> <peak resident KiB> <status>" (status: the exit code, or minus
// the signal that ended it).
//
//     scale-launcher <stdout file> <stderr file> <program> [arguments...]
//
// Why a separate C program: a child's `ru_maxrss` (from `wait4`) starts from the peak
// resident memory of the process that spawned it, since exec records the old address
// space's high-water mark (with fork and with vfork alike). Spawned from the benchmark,
// which holds hundreds of megabytes while it builds the stores, every command would
// seem to use at least that much. This launcher holds about a megabyte. The clock runs
// from just before the spawn to just after `wait4` returns, so its own start is not
// counted either. The program is found on PATH; its standard input is /dev/null.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

static long long now_nanoseconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (long long)time.tv_sec * 1000000000LL + time.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: scale-launcher <stdout file> <stderr file> <program> [arguments...]\n");
        return 2;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 1, argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_addopen(&actions, 2, argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
    pid_t child;
    long long start = now_nanoseconds();
    int failure = posix_spawnp(&child, argv[3], &actions, NULL, argv + 3, environ);
    posix_spawn_file_actions_destroy(&actions);
    if (failure != 0) {
        fprintf(stderr, "scale-launcher: cannot run %s: %s\n", argv[3], strerror(failure));
        return 127;
    }
    int status = 0;
    struct rusage usage;
    while (wait4(child, &status, 0, &usage) < 0) {
        if (errno != EINTR) {
            perror("scale-launcher: wait4");
            return 1;
        }
    }
    long long elapsed = now_nanoseconds() - start;
    int result = WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
    printf("%lld %ld %d\n", elapsed, usage.ru_maxrss, result);
    return 0;
}
