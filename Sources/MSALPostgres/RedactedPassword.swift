/// A password that prints as `***` however it is printed (`description`, `debugDescription`, `dump`, a mirror), so
/// no log line or error message built from a URL or a store can carry it.
struct RedactedPassword: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The password, for the connection's authentication only.
    let value: String

    var description: String { "***" }
    var debugDescription: String { "***" }
    var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
