#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "CFolioSystem.h"

_Static_assert(FOLIO_O_PATH == O_PATH, "FOLIO_O_PATH must be the system's O_PATH");

// 1 once openat2 has been refused (ENOSYS on old kernels, EPERM or ENOSYS from a seccomp
// filter), so later calls go straight to the walk; or when a test forces the walk.
static atomic_int openat2_unavailable = 0;
static atomic_int walk_forced = 0;

void folio_open_beneath_force_walk(int force) {
    atomic_store(&walk_forced, force);
}

// The path's components, checked: none empty (no "//", no leading "/"), none "." or "..".
static int valid_relative(const char *path) {
    if (path[0] == '\0' || path[0] == '/') return 0;
    const char *start = path;
    for (;;) {
        const char *end = strchrnul(start, '/');
        size_t length = (size_t)(end - start);
        if (length == 0) return 0;
        if (length == 1 && start[0] == '.') return 0;
        if (length == 2 && start[0] == '.' && start[1] == '.') return 0;
        if (*end == '\0') return 1;
        start = end + 1;
    }
}

// Opens every folder on the way with O_NOFOLLOW | O_DIRECTORY, then the last component.
static int open_by_walking(int dirfd, const char *path, int flags, mode_t mode) {
    char component[4096];
    int current = dirfd;
    const char *start = path;
    for (;;) {
        const char *end = strchrnul(start, '/');
        size_t length = (size_t)(end - start);
        if (length >= sizeof component) {
            if (current != dirfd) close(current);
            errno = ENAMETOOLONG;
            return -1;
        }
        memcpy(component, start, length);
        component[length] = '\0';
        if (*end == '\0') {
            int fd = openat(current, component, flags, mode);
            int saved = errno;
            if (current != dirfd) close(current);
            errno = saved;
            return fd;
        }
        int next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int saved = errno;
        if (current != dirfd) close(current);
        if (next < 0) {
            errno = saved;
            return -1;
        }
        current = next;
        start = end + 1;
    }
}

int folio_open_beneath(int dirfd, const char *path, int flags, mode_t mode) {
    if (!valid_relative(path)) {
        errno = EXDEV;
        return -1;
    }
    // A final link is refused, except that O_PATH | O_NOFOLLOW opens the link itself.
    if (!(flags & O_PATH)) flags |= O_NOFOLLOW;
    flags |= O_CLOEXEC;
    if (!atomic_load(&walk_forced) && !atomic_load(&openat2_unavailable)) {
        struct open_how how;
        memset(&how, 0, sizeof how);
        how.flags = (unsigned long long)flags;
        how.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0;
        how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
        long fd;
        do {
            fd = syscall(SYS_openat2, dirfd, path, &how, sizeof how);
        } while (fd < 0 && (errno == EAGAIN || errno == EINTR));
        if (fd >= 0 || (errno != ENOSYS && errno != EPERM && errno != E2BIG)) return (int)fd;
        // EPERM here is a sandbox refusing the call, not a permission on the path: openat2
        // reports those as EACCES. Fall back, and do not ask again.
        atomic_store(&openat2_unavailable, 1);
    }
    return open_by_walking(dirfd, path, flags, mode);
}
