import Foundation

/// Redirect URI registration matching, as Entra does it.
enum RedirectURI {
    private static let loopbackHosts: Set<String> = ["localhost", "127.0.0.1", "[::1]", "::1"]

    /// True when `requested` matches one of `registered`: exactly, or for `http` loopback URIs on any
    /// port with the same host and path (RFC 8252 §7.3); a missing path equals `/`.
    static func isRegistered(_ requested: String, in registered: [String]) -> Bool {
        guard let request = URLComponents(string: requested), request.scheme != nil, request.fragment == nil else {
            return false
        }
        return registered.contains { candidate in
            if candidate == requested { return true }
            guard let entry = URLComponents(string: candidate) else { return false }
            guard request.scheme?.lowercased() == entry.scheme?.lowercased(),
                request.host?.lowercased() == entry.host?.lowercased(),
                normalizedPath(request) == normalizedPath(entry),
                request.query == entry.query
            else { return false }
            let isLoopback =
                request.scheme?.lowercased() == "http" && loopbackHosts.contains(request.host?.lowercased() ?? "")
            return isLoopback || request.port == entry.port
        }
    }

    /// The URI a response is sent to: a path-less URI gets its trailing `/`, as ESTS returns it.
    static func withPath(_ uri: String) -> String {
        guard let components = URLComponents(string: uri), components.path.isEmpty else { return uri }
        var copy = components
        copy.path = "/"
        return copy.string ?? uri
    }

    private static func normalizedPath(_ components: URLComponents) -> String {
        components.path.isEmpty ? "/" : components.path
    }

    /// `uri` with `fields` appended to its query (`query`) or fragment (`fragment`).
    static func appending(_ fields: [(String, String)], to uri: String, inFragment: Bool) -> String {
        let base = withPath(uri)
        let encoded = FormBody.encode(fields)
        if inFragment { return base + "#" + encoded }
        return base + (base.contains("?") ? "&" : "?") + encoded
    }
}
