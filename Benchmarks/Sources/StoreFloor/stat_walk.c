// The walk floor: every folder of the layout listed, every entry stat'ed, nothing read.
// fdopendir, fstatat and openat are POSIX 2008.
#define _POSIX_C_SOURCE 200809L
#include "StoreFloor.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/// Below the root: entity, year, month and day folders, then the files.
enum { document_level = 4 };

static int walk(int folder_fd, int level, store_floor_walk_totals *totals) {
    int listing_fd = dup(folder_fd);
    if (listing_fd < 0) return errno;
    DIR *folder = fdopendir(listing_fd);
    if (folder == NULL) {
        int failure = errno;
        close(listing_fd);
        return failure;
    }
    int failure = 0;
    struct dirent *entry;
    while (failure == 0 && (entry = readdir(folder)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        struct stat info;
        if (fstatat(folder_fd, entry->d_name, &info, AT_SYMLINK_NOFOLLOW) != 0) {
            failure = errno;
            break;
        }
        if (level == document_level) {
            if (!S_ISREG(info.st_mode)) continue;
            totals->files += 1;
            totals->file_bytes += info.st_size;
            totals->file_bytes_on_disk += (int64_t)info.st_blocks * 512;
        } else if (S_ISDIR(info.st_mode)) {
            totals->folders += 1;
            totals->folder_bytes_on_disk += (int64_t)info.st_blocks * 512;
            int child = openat(folder_fd, entry->d_name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
            if (child < 0) {
                failure = errno;
                break;
            }
            failure = walk(child, level + 1, totals);
            close(child);
        }
    }
    closedir(folder);
    return failure;
}

static int walk_from(const char *folder, int level, store_floor_walk_totals *totals) {
    *totals = (store_floor_walk_totals){0};
    int folder_fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (folder_fd < 0) return errno;
    int failure = walk(folder_fd, level, totals);
    close(folder_fd);
    return failure;
}

int store_floor_stat_walk(const char *root, store_floor_walk_totals *totals) { return walk_from(root, 0, totals); }

int store_floor_stat_walk_entity(const char *entity_folder, store_floor_walk_totals *totals) {
    return walk_from(entity_folder, 1, totals);
}
