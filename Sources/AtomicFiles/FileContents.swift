import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why ``FileContents/readToEnd(_:limit:)`` returned nothing.
package enum FileContentsFailure: Error {
    /// `read` failed.
    case unreadable(POSIXError)
    /// There was more than the limit.
    case tooLarge
}

/// An open file read to its end, for the token cache and the files a user names alike.
package enum FileContents {
    /// Reads `descriptor` to its end, 64 KB at a time, through a buffer that is not zeroed first: its pages are
    /// touched only as far as the file fills them.
    ///
    /// - Parameter limit: the most bytes to take; a file with more is ``FileContentsFailure/tooLarge``, read no
    ///   further than that (`/dev/zero` ends).
    package static func readToEnd(_ descriptor: Int32, limit: Int = .max) throws(FileContentsFailure) -> Data {
        var data = Data()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw .unreadable(POSIXError.current)
            }
            if count == 0 { return data }
            guard data.count + count <= limit else { throw .tooLarge }
            data.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
    }
}
