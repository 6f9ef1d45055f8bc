#ifndef HEAP_USE_H
#define HEAP_USE_H

#include <stddef.h>

/// The bytes glibc's allocator has handed out and not had back (its arenas' in-use
/// chunks and its mmapped blocks): what a program's live objects take, without the
/// memory the allocator keeps for reuse.
size_t heap_bytes_in_use(void);

#endif
