#include <sys/prctl.h>

#include "CFolioSystem.h"

int folio_name_thread(const char *name) {
    // prctl is variadic, which Swift cannot call; the kernel keeps the first 15 bytes.
    return prctl(PR_SET_NAME, name, 0, 0, 0);
}
