import Foundation

extension POSIXError {
    /// The error `errno` names now (`EIO` for a number Foundation does not know).
    package static var current: POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }

    /// The C library's words for the error (`strerror`), e.g. "Permission denied".
    package var reason: String { String(cString: strerror(code.rawValue)) }
}
