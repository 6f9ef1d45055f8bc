#define _GNU_SOURCE
#include <fcntl.h>
#include <unistd.h>
#include "CFolioSystem.h"

int folio_syncfs(int fd) {
    return syncfs(fd);
}

int folio_reserve(int fd, off_t length) {
    return fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, length);
}
