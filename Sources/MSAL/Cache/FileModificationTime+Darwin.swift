#if canImport(Darwin)
    import Foundation

    extension stat {
        /// The modification time in nanoseconds since 1970 (Darwin names the field `st_mtimespec`).
        var modificationNanoseconds: Int64 {
            Int64(st_mtimespec.tv_sec) * 1_000_000_000 + Int64(st_mtimespec.tv_nsec)
        }
    }
#endif
