#if os(Linux)
    import Foundation

    extension stat {
        /// The modification time in nanoseconds since 1970 (Glibc and Musl name the field `st_mtim`).
        var modificationNanoseconds: Int64 {
            Int64(st_mtim.tv_sec) * 1_000_000_000 + Int64(st_mtim.tv_nsec)
        }
    }
#endif
