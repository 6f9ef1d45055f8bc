#include "HeapUse.h"
#include <malloc.h>

// mallinfo2 is in <malloc.h>, which Swift's Glibc module does not bring in.
size_t heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}
