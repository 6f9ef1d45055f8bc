import Glibc

/// The operating system's page cache, which decides whether "cold" means cold.
enum PageCache {
    /// Writes every dirty page back, so the next row's syncs flush only its own files.
    static func flush() {
        sync()
    }

    /// Writes dirty pages back and asks the kernel to drop its clean page, dentry and
    /// inode caches (`3` to `/proc/sys/vm/drop_caches`, which needs root). Returns
    /// whether the kernel accepted; a sandbox may refuse.
    static func drop() -> Bool {
        sync()
        let descriptor = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(descriptor, "3\n", 2) == 2
    }
}
