/// A message of git's credential-helper protocol (git-credential(1)): `key=value` lines, ended by a blank line
/// or the end of the input. A key given twice keeps its first value (git repeats only `wwwauth[]` and
/// `capability[]`, which a helper may ignore); a line without `=` is skipped, as git skips what it does not know.
struct GitCredentialMessage: Sendable, Equatable {
    private(set) var fields: [String: String] = [:]

    /// Reads lines from `nextLine` (without their line ends) until a blank line or `nil`.
    init(reading nextLine: () -> String?) {
        while let line = nextLine(), !line.isEmpty {
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = String(line[..<equals])
            if fields[key] == nil { fields[key] = String(line[line.index(after: equals)...]) }
        }
    }

    subscript(key: String) -> String? { fields[key] }
}
