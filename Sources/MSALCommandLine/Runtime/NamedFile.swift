import AtomicFiles
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file the user names (a kubeconfig, a CA bundle, the config file), read whole but never more than ``limit``:
/// `/dev/zero` or a multi-gigabyte file given by mistake ends in an error, not in a process that reads until memory
/// runs out. Pipes (`<(…)`) and devices are read like files.
enum NamedFile {
    /// Far above any kubeconfig, CA bundle or settings file.
    static let limit = 16 << 20

    /// - Returns: the file's bytes; `nil` when it does not exist.
    /// - Throws: ``UsageError`` saying why, after `name` ("The kubeconfig /path"), when it cannot be opened or read
    ///   or is larger than ``limit``.
    static func contents(atPath path: String, name: String) throws -> Data? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let failure = POSIXError.current
            if failure.code == .ENOENT { return nil }
            throw UsageError("\(name) cannot be read: \(failure.reason).")
        }
        defer { close(descriptor) }
        do {
            return try FileContents.readToEnd(descriptor, limit: limit)
        } catch .unreadable(let failure) {
            throw UsageError("\(name) cannot be read: \(failure.reason).")
        } catch .tooLarge {
            throw UsageError("\(name) is larger than 16 MiB.")
        }
    }
}
