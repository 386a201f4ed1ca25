/// Whether `host`, a URL's host in lowercase, names this machine: `localhost`, `::1` (bracketed or not) or an IPv4
/// address in 127.0.0.0/8 (four numeric parts: `127.evil.example` is a name).
package func isLoopbackHost(_ host: String) -> Bool {
    if host == "localhost" || host == "::1" || host == "[::1]" { return true }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count == 4 && parts[0] == "127"
        && parts.allSatisfy {
            !$0.isEmpty && $0.count <= 3 && $0.allSatisfy { $0.isASCII && $0.isNumber } && Int($0)! <= 255
        }
}
