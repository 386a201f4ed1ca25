import Foundation

/// Which proxy a request goes through, as curl, Python's `requests` and Azure CLI decide it from
/// `HTTPS_PROXY`, `HTTP_PROXY`, `ALL_PROXY` and `NO_PROXY` (each in either case, the lower-case one first),
/// or given explicitly.
///
/// A proxy is an `http://` URL (the scheme may be left out), with credentials in it when the proxy asks for
/// them (`http://user:pass@proxy:3128`, percent-encoded); `https` requests go through it with `CONNECT`, so
/// the proxy sees host names, never the requests. `NO_PROXY` is a comma- or space-separated list: `*` alone
/// (no proxy at all), host names that match themselves and their subdomains (`example.com`, `.example.com`,
/// `*.example.com`), IP addresses, CIDR blocks (`10.0.0.0/8`, `fd00::/8`), each optionally with `:port` (as
/// Python's `urllib`). Names are not resolved: `127.0.0.1` does not cover `localhost`.
///
/// In a CGI program (`REQUEST_METHOD` set) the upper-case `HTTP_PROXY` is ignored, as curl, Go and Python ignore
/// it: a web server passes a request's `Proxy:` header to CGI programs as `HTTP_PROXY` ("httpoxy"), so a caller
/// could name it. The lower-case `http_proxy` and `ALL_PROXY` still apply.
public struct ProxySettings: Sendable, Equatable {
    /// The proxy for `http` URLs.
    public var http: URL?
    /// The proxy for `https` URLs.
    public var https: URL?
    /// The hosts reached directly.
    public var noProxy: [String]

    /// Explicit settings.
    ///
    /// - Throws: ``MSALError`` `invalidParameter` when a proxy URL is not an `http` URL with a host.
    public init(http: URL? = nil, https: URL? = nil, noProxy: [String] = []) throws {
        self.http = try http.map { try Self.validated($0, from: "the http proxy") }
        self.https = try https.map { try Self.validated($0, from: "the https proxy") }
        self.noProxy = noProxy
    }

    /// The settings the environment gives, or `nil` when it names no proxy (`HTTP_PROXY` in upper case counts
    /// only outside CGI programs: without `REQUEST_METHOD`).
    ///
    /// - Throws: ``MSALError`` `invalidParameter` naming the variable whose value is not a proxy URL.
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let cgi = environment["REQUEST_METHOD"] != nil
        func value(_ name: String) -> (name: String, value: String)? {
            for candidate in [name.lowercased(), name.uppercased()] where !(cgi && candidate == "HTTP_PROXY") {
                if let value = environment[candidate]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
                    return (candidate, value)
                }
            }
            return nil
        }
        func proxy(_ name: String) throws -> URL? {
            guard let (variable, text) = value(name) ?? value("ALL_PROXY") else { return nil }
            return try Self.parse(text, from: variable)
        }
        let http = try proxy("HTTP_PROXY")
        let https = try proxy("HTTPS_PROXY")
        guard http != nil || https != nil else { return nil }
        self.http = http
        self.https = https
        noProxy = Self.list(value("NO_PROXY")?.value ?? "")
    }

    /// The proxy `url` goes through, or `nil` when it goes directly.
    public func proxy(for url: URL) -> URL? {
        let proxy =
            switch url.scheme?.lowercased() {
            case "https": https
            case "http": http
            default: URL?.none
            }
        guard let proxy, let host = url.host else { return nil }
        let port = url.port ?? (url.scheme?.lowercased() == "https" ? 443 : 80)
        return bypasses(host: host, port: port) ? nil : proxy
    }

    /// Whether `host` (a name or an address, without brackets) on `port` is reached directly.
    func bypasses(host: String, port: Int) -> Bool {
        let host = Self.withoutTrailingDot(Self.bare(host.lowercased()))
        let hostAddress = IPAddress(host)
        if noProxy == ["*"] { return true }
        return noProxy.contains { entry in
            var pattern = entry.lowercased()
            if let (name, entryPort) = Self.splitPort(pattern) {
                guard entryPort == port else { return false }
                pattern = name
            }
            pattern = Self.withoutTrailingDot(Self.bare(pattern))
            if let slash = pattern.firstIndex(of: "/") {
                guard let hostAddress, let network = IPAddress(String(pattern[..<slash])),
                    let bits = Int(pattern[pattern.index(after: slash)...])
                else { return false }
                return hostAddress.isIn(network: network, prefixLength: bits)
            }
            if let address = IPAddress(pattern) { return hostAddress == address }
            if pattern.hasPrefix("*.") { pattern.removeFirst() }
            if pattern.hasPrefix(".") { pattern.removeFirst() }
            return !pattern.isEmpty && (host == pattern || host.hasSuffix("." + pattern))
        }
    }

    static func list(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
    }

    private static func withoutTrailingDot(_ name: String) -> String {
        name.hasSuffix(".") ? String(name.dropLast()) : name
    }

    /// `[::1]` → `::1`.
    private static func bare(_ host: String) -> String {
        host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }

    /// `example.com:8443` → (`example.com`, 8443); `[::1]:80` → (`[::1]`, 80); none for `::1` or no port.
    private static func splitPort(_ entry: String) -> (String, Int)? {
        guard let colon = entry.lastIndex(of: ":"), let port = Int(entry[entry.index(after: colon)...]) else {
            return nil
        }
        let name = String(entry[..<colon])
        if name.contains(":") && !(name.hasPrefix("[") && name.hasSuffix("]")) { return nil }
        return (name, port)
    }

    private static func parse(_ text: String, from variable: String) throws -> URL {
        let withScheme = text.contains("://") ? text : "http://" + text
        guard let url = URL(string: withScheme) else {
            throw MSALError.internal(.invalidParameter, "\(variable) is not a URL.")
        }
        return try validated(url, from: variable)
    }

    private static func validated(_ url: URL, from source: String) throws -> URL {
        guard url.scheme?.lowercased() == "http", let host = url.host, !host.isEmpty else {
            throw MSALError.internal(
                .invalidParameter,
                "\(source) must be an http:// proxy URL with a host (https:// and socks proxies are not supported).")
        }
        return url
    }
}
