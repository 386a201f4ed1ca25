import Foundation

/// Replaces a file so that readers see the old bytes or the new, never a mix: a `0600` temporary
/// file in the same folder, written and `fsync`ed, then renamed over the target.
package enum AtomicFile {
    package static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString).tmp"
        ).path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw POSIXError.current }
        var failure: (any Error)?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = POSIXError.current
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = POSIXError.current }
        close(descriptor)
        if failure == nil, rename(temporary, path) != 0 {
            failure = POSIXError.current
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
    }
}
