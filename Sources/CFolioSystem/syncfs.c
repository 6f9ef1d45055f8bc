#define _GNU_SOURCE
#include <unistd.h>
#include "CFolioSystem.h"

int folio_syncfs(int fd) {
    return syncfs(fd);
}
