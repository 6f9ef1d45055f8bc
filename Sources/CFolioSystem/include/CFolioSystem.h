// Linux system calls Folio and its tool need that Swift's Glibc module does not show
// (they are declared only under _GNU_SOURCE, or have no glibc wrapper at all).
#ifndef FOLIO_CFOLIOSYSTEM_H
#define FOLIO_CFOLIOSYSTEM_H

#include <spawn.h>
#include <sys/types.h>

/// Flushes every dirty page and inode of the file system holding `fd` to disk:
/// one call makes a whole batch of new files durable, far cheaper than an fsync each.
int folio_syncfs(int fd);

/// Reserves the first `length` bytes of the file's blocks without changing its size
/// (`fallocate` with `FALLOC_FL_KEEP_SIZE`), so appends up to there allocate nothing.
/// Returns -1 with `errno` set where the file system refuses; nothing else changes then.
int folio_reserve(int fd, off_t length);

/// The last byte equal to `byte` among the first `length` at `bytes` (`memrchr`, a GNU
/// extension), or NULL.
const void *folio_last_byte(const void *bytes, int byte, size_t length);

/// Opens `path`, relative to the folder `dirfd`, without following any symbolic link on
/// the way or at the end and without leaving `dirfd` (no `..`, no absolute path).
///
/// `flags` and `mode` are `openat`'s; `O_NOFOLLOW` is implied except with `O_PATH`, where
/// a final link is opened as the link itself (as `lstat` sees it). Fails with `ELOOP` when a
/// component is a symbolic link and `EXDEV` when the path would leave `dirfd`, setting
/// `errno` as `openat` does otherwise. Uses `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)`,
/// one system call, where the kernel has it; elsewhere (kernels before 5.6, sandboxes that
/// refuse the call) it opens the path one component at a time with `O_NOFOLLOW`.
int folio_open_beneath(int dirfd, const char *path, int flags, mode_t mode);

/// `O_PATH`, which Swift's Glibc module does not show (it is defined only under _GNU_SOURCE).
#define FOLIO_O_PATH 010000000

/// Makes `folio_open_beneath` take its component-by-component path even where `openat2`
/// works, so tests can check both; `0` restores the default.
void folio_open_beneath_force_walk(int force);

/// Names the calling thread, as `top -H`, a debugger and `/proc/<pid>/task/<tid>/comm`
/// show it (the first 15 bytes of `name`). Returns -1 with `errno` set on failure.
int folio_name_thread(const char *name);

/// Has `posix_spawn` change the child's working folder to `path` before it runs the
/// program (`posix_spawn_file_actions_addchdir_np`). Returns 0, or an error number.
int folio_spawn_add_chdir(posix_spawn_file_actions_t *actions, const char *path);

/// Has `posix_spawn` close every descriptor from `lowest` up in the child, so a program the
/// tool runs inherits none of the store's files (`posix_spawn_file_actions_addclosefrom_np`).
/// Returns 0, or an error number.
int folio_spawn_add_closefrom(posix_spawn_file_actions_t *actions, int lowest);

#endif
