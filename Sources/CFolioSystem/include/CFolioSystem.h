// Linux system calls Folio's store needs that Swift's Glibc module does not show
// (they are declared only under _GNU_SOURCE).
#ifndef FOLIO_CFOLIOSYSTEM_H
#define FOLIO_CFOLIOSYSTEM_H

/// Flushes every dirty page and inode of the file system holding `fd` to disk:
/// one call makes a whole batch of new files durable, far cheaper than an fsync each.
int folio_syncfs(int fd);

#endif
