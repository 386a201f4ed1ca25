import Foundation

/// File URLs read and joined without `path` and `appendingPathComponent`: each makes a `Set<UInt8>`, and the first
/// asks the Swift runtime for `UInt8`'s `Hashable`, a search of every conformance in the binary, on every start of
/// `msal`.
extension URL {
    /// A file URL's path as `path` gives it (percent-decoded, absolute, without a trailing slash but the root's).
    package var filePath: String {
        let path = path(percentEncoded: false)
        return path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
    }

    /// The file `name` (a relative path) inside this folder, as `appendingPathComponent(name)` gives it.
    package func appendingFilePath(_ name: String) -> URL {
        let folder = filePath
        return URL(fileURLWithPath: folder.hasSuffix("/") ? folder + name : folder + "/" + name, isDirectory: false)
    }
}
