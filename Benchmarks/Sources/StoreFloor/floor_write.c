// The write floor: temporary file and rename per document, then optionally one syncfs.
// syncfs is a GNU extension.
#define _GNU_SOURCE
#include "StoreFloor.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/// Creates every folder above `path` (relative to `root_fd`) that is missing.
static int make_parents(int root_fd, const char *path) {
    char prefix[PATH_MAX];
    size_t length = strlen(path);
    if (length >= sizeof prefix) return ENAMETOOLONG;
    memcpy(prefix, path, length + 1);
    for (char *slash = strchr(prefix, '/'); slash != NULL; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        if (mkdirat(root_fd, prefix, 0755) != 0 && errno != EEXIST) return errno;
        *slash = '/';
    }
    return 0;
}

/// Writes one file whole, under a temporary name, and renames it into place.
static int write_file(int root_fd, const char *path, const uint8_t *bytes, size_t length) {
    char temporary[PATH_MAX];
    if (snprintf(temporary, sizeof temporary, "%s.tmp", path) >= (int)sizeof temporary) return ENAMETOOLONG;
    int fd = openat(root_fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    if (fd < 0 && errno == ENOENT) {
        int failure = make_parents(root_fd, path);
        if (failure != 0) return failure;
        fd = openat(root_fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0644);
    }
    if (fd < 0) return errno;
    size_t written = 0;
    while (written < length) {
        ssize_t count = write(fd, bytes + written, length - written);
        if (count < 0) {
            if (errno == EINTR) continue;
            int failure = errno;
            close(fd);
            return failure;
        }
        written += (size_t)count;
    }
    if (close(fd) != 0) return errno;
    if (renameat(root_fd, temporary, root_fd, path) != 0) return errno;
    return 0;
}

int store_floor_write(const char *root, const char *paths, const size_t *path_offsets,
                      const uint8_t *bytes, const size_t *byte_offsets, size_t count, int sync_at_end) {
    if (mkdir(root, 0755) != 0 && errno != EEXIST) return errno;
    int root_fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root_fd < 0) return errno;
    int failure = 0;
    for (size_t index = 0; index < count && failure == 0; index++) {
        failure = write_file(root_fd, paths + path_offsets[index], bytes + byte_offsets[index],
                             byte_offsets[index + 1] - byte_offsets[index]);
    }
    if (failure == 0 && sync_at_end && syncfs(root_fd) != 0) failure = errno;
    close(root_fd);
    return failure;
}

int store_floor_syncfs(const char *root) {
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return errno;
    int failure = syncfs(fd) == 0 ? 0 : errno;
    close(fd);
    return failure;
}
