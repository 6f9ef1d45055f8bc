// memrchr is a GNU extension, which Swift's Glibc module does not show.
#define _GNU_SOURCE
#include <string.h>
#include "CFolioSystem.h"

const void *folio_last_byte(const void *bytes, int byte, size_t length) {
    return memrchr(bytes, byte, length);
}
