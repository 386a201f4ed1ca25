/// Scopes as typed: `--scopes "User.Read Mail.Read"`, `--scopes User.Read,Mail.Read` or repeated.
enum ScopeList {
    static func split(_ arguments: [String]) -> [String] {
        arguments.flatMap { $0.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init) }
    }
}
