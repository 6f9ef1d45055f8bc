// The C floors of Folio's document store: the same files written, and the same
// tree walked, with plain system calls and nothing on top.
//
// A commit ends with every document's canonical bytes in its own file at
// <Entity>/<YYYY>/<MM>/<DD>/<UUID>.json, each landed by a rename; opening a store
// with a warm cache needs no more of the disk than a stat of every file. These
// loops do exactly that much, so no design that keeps one file per document can
// do less.
#ifndef STORE_FLOOR_H
#define STORE_FLOOR_H

#include <stddef.h>
#include <stdint.h>

/// Writes `count` files below `root` (created if missing): file `i` is named by the
/// NUL-terminated relative path at `paths + path_offsets[i]` and holds the bytes
/// `bytes[byte_offsets[i] ..< byte_offsets[i + 1]]`. Each is written whole to
/// `<path>.tmp` in its folder and renamed into place; missing folders are created
/// when a file cannot be created for want of them. With `sync_at_end`, one
/// `syncfs` of the file system makes the whole batch durable. Returns 0, or the
/// `errno` of the first call that failed.
int store_floor_write(const char *root, const char *paths, const size_t *path_offsets,
                      const uint8_t *bytes, const size_t *byte_offsets, size_t count, int sync_at_end);

/// What a stat walk found: the files at the document level, the folders above them,
/// and the disk space both take (`st_blocks`, as `du` counts it).
typedef struct {
    int64_t files;
    int64_t file_bytes;
    int64_t file_bytes_on_disk;
    int64_t folders;
    int64_t folder_bytes_on_disk;
} store_floor_walk_totals;

/// Walks `root` the way a store's change detection must, and no further: the entity,
/// year, month and day folders and the files in them with `opendir`, `readdir` and
/// `fstatat` (no file is opened or read, no link followed; hidden names are passed
/// over, as Folio passes them over). Returns 0, or the `errno` of the first failure.
int store_floor_stat_walk(const char *root, store_floor_walk_totals *totals);

/// The same walk over one entity's folder (`<root>/<Entity>`): its year, month and day
/// folders and the files in them.
int store_floor_stat_walk_entity(const char *entity_folder, store_floor_walk_totals *totals);

/// Makes everything written to the file system holding `root` durable (one `syncfs`), as
/// a `.full` commit does. Returns 0, or the `errno` of the call that failed.
int store_floor_syncfs(const char *root);

#endif
