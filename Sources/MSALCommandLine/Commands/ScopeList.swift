import ArgumentParser

/// Scopes as typed: `--scopes "User.Read Mail.Read"`, `--scopes User.Read,Mail.Read` or repeated.
enum ScopeList {
    static func split(_ arguments: [String]) -> [String] {
        arguments.flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) }
    }

    /// The scopes a token is asked for: at least one, since a token for no scope would be whatever the cache holds.
    ///
    /// - Throws: `ValidationError` (a usage error) when the arguments name none, e.g. `--scopes ''`.
    static func required(_ arguments: [String]) throws -> [String] {
        let scopes = split(arguments)
        guard !scopes.isEmpty else { throw ValidationError("Name the scope with --scopes.") }
        return scopes
    }
}
