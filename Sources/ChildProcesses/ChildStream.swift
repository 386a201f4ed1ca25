import Foundation

/// Where one of a child's standard streams goes.
package enum ChildStream: Sendable {
    /// `/dev/null`.
    case null
    /// This process's own stream.
    case inherit
    /// A pipe; this process holds the other end (``ChildProcess/standardInput`` and its siblings).
    case pipe
    /// A file, opened for reading (standard input) or created or truncated for writing (0600).
    case file(String)
    /// An open descriptor of this process, such as a `FileHandle`'s.
    case descriptor(Int32)
    /// Standard error only: wherever standard output goes.
    case standardOutput
}
