import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A binary's pages in the page cache, put in one state before it is timed.
enum PageCache {
    /// Drops the pages of `path` that no process maps, so that its next start loads them by faulting them in, as the
    /// first start after a reboot does, or after the kernel reclaimed them.
    ///
    /// Where the pages came from moves a start by up to a third (bench/README.md): a file read whole, one written by
    /// a copy, and one loaded page by page by its own starts map differently.
    ///
    /// - Throws: when the file cannot be opened or the kernel refuses.
    static func evict(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw BenchError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        // Dirty pages (a binary just linked) stay until written.
        guard fsync(descriptor) == 0 else { throw BenchError("cannot sync \(path)") }
        let refused = posix_fadvise(descriptor, 0, 0, Int32(POSIX_FADV_DONTNEED))
        guard refused == 0 else {
            throw BenchError("cannot drop \(path) from the page cache: \(String(cString: strerror(refused)))")
        }
    }
}
