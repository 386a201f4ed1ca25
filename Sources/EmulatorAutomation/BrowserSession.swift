import AsyncHTTPClient
import Foundation
import Locking
import NIOCore

/// What a browser without JavaScript keeps between pages: one cookie jar (for every loopback site), requests that
/// do not follow redirects, forms posted URL-encoded. ``AutomatedUser`` and tests' browsers for other identity
/// providers' pages share it.
public final class BrowserSession: Sendable {
    /// One answer: where a redirect (3xx) points, and the body.
    public struct Page: Sendable {
        /// The `Location` of a redirect; `nil` for other statuses.
        public let location: String?
        /// The body as text.
        public let body: String
    }

    private let http: HTTPClient
    private let cookies = Locked<[String: String]>([:])

    /// - Parameter http: a client that does not follow redirects.
    public init(http: HTTPClient) { self.http = http }

    /// Puts a cookie in the jar, as if a site had set it.
    public func setCookie(_ name: String, _ value: String) { cookies.withLock { $0[name] = value } }

    /// A cookie in the jar, as the last response that set it left it.
    public func cookie(_ name: String) -> String? { cookies.withLock { $0[name] } }

    /// Gets `url`, or posts `form` to it, with the jar's cookies; keeps the cookies the answer sets (an empty value
    /// or `Max-Age=0` removes one).
    ///
    /// - Throws: the HTTP client's errors; the body is read up to 1 MiB.
    public func request(_ url: String, form: [(String, String)]?) async throws -> Page {
        var request = HTTPClientRequest(url: url)
        if let form {
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            let allowed = CharacterSet(
                charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
            request.body = .bytes(
                ByteBuffer(
                    string: form.map {
                        "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.1)"
                    }.joined(separator: "&")))
        }
        let jar = cookies.withLock { $0 }
        if !jar.isEmpty {
            request.headers.add(name: "Cookie", value: jar.map { "\($0.key)=\($0.value)" }.joined(separator: "; "))
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        for header in response.headers["Set-Cookie"] {
            let pair = header.split(separator: ";")[0].split(
                separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2 else { continue }
            let name = String(pair[0]).trimmingCharacters(in: .whitespaces)
            let expired = header.contains("Max-Age=0") || pair[1].isEmpty
            cookies.withLock { $0[name] = expired ? nil : String(pair[1]) }
        }
        let body = String(buffer: try await response.body.collect(upTo: 1 << 20))
        let redirect = (300..<400).contains(Int(response.status.code))
        return Page(location: redirect ? response.headers.first(name: "Location") : nil, body: body)
    }
}

/// Reading plain HTML pages with regular expressions, as the automated browsers do.
public enum HTMLScraping {
    /// Each match's capture groups (`""` for a group that did not take part).
    public static func matches(_ pattern: String, _ text: String) -> [[String]] {
        guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else {
            return []
        }
        let ns = text as NSString
        return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
            (1..<match.numberOfRanges).map {
                match.range(at: $0).location == NSNotFound ? "" : ns.substring(with: match.range(at: $0))
            }
        }
    }

    /// Text with HTML's character references for `"`, `'`, `<`, `>` and `&` replaced.
    public static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#x27;", with: "'")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
