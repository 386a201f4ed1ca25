import AsyncHTTPClient
import Foundation
import Locking
import MSAL
import NIOCore

/// A browser without JavaScript for an identity provider's plain HTML pages (an outside provider's, not the
/// emulator's, which ``AutomatedUser`` knows): it keeps cookies, follows redirects, signs in on a page with a
/// password field, presses the `allow` button of a consent or sign-out page, and follows the last redirect to the
/// app's loopback listener.
final class FormFillingBrowser: BrowserLauncher, Sendable {
    private let http: HTTPClient
    private let username: String
    private let password: String
    private let cookies = Locked<[String: String]>([:])
    private let visited = Locked<[String]>([])

    /// - Parameter http: a client that does not follow redirects.
    init(http: HTTPClient, username: String, password: String) {
        self.http = http
        self.username = username
        self.password = password
    }

    /// The pages seen, in order: `signin`, `consent`, `signout`, `page` (one with no form, where it stopped).
    var pagesSeen: [String] { visited.withLock { $0 } }

    func open(_ url: URL) async throws {
        var current = url
        var response = try await request(current, form: nil)
        for _ in 0..<12 {
            if let location = response.location {
                let target = URL(string: location, relativeTo: current)!.absoluteURL
                response = try await request(target, form: nil)
                if target.port != url.port { return }
                current = target
                continue
            }
            guard let form = Self.forms(response.body).first else {
                visited.withLock { $0.append("page") }
                return
            }
            var fields = form.inputs.filter { $0.type == "hidden" }.map { ($0.name, $0.value) }
            if form.inputs.contains(where: { $0.type == "password" }) {
                visited.withLock { $0.append("signin") }
                fields += [("username", username), ("password", password)]
            } else if let allow = form.inputs.first(where: { $0.name == "allow" }) {
                visited.withLock { $0.append(allow.value.lowercased().contains("logout") ? "signout" : "consent") }
                fields.append((allow.name, allow.value))
            } else {
                throw BrowserError("unexpected page at \(current):\n\(response.body)")
            }
            let action = form.action.isEmpty ? current : URL(string: form.action, relativeTo: current)!.absoluteURL
            response = try await request(action, form: fields)
            current = action
        }
        throw BrowserError("too many pages after \(url)")
    }

    private struct Response {
        let location: String?
        let body: String
    }

    private func request(_ url: URL, form: [(String, String)]?) async throws -> Response {
        var request = HTTPClientRequest(url: url.absoluteString)
        if let form {
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            let allowed = CharacterSet(
                charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
            request.body = .bytes(
                ByteBuffer(
                    string: form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)" }
                        .joined(separator: "&")))
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
        return Response(location: redirect ? response.headers.first(name: "Location") : nil, body: body)
    }

    private struct Form {
        struct Input {
            let type: String
            let name: String
            let value: String
        }
        let action: String
        let inputs: [Input]
    }

    private static func forms(_ html: String) -> [Form] {
        matches(#"<form([^>]*)>(.*?)</form>"#, html).map { groups in
            let inputs = matches(#"<input([^>]*)>"#, groups[1]).compactMap { tag -> Form.Input? in
                let attributes = self.attributes(tag[0])
                guard let name = attributes["name"] else { return nil }
                return Form.Input(
                    type: attributes["type"]?.lowercased() ?? "text", name: name, value: attributes["value"] ?? "")
            }
            return Form(action: attributes(groups[0])["action"] ?? "", inputs: inputs)
        }
    }

    private static func attributes(_ tag: String) -> [String: String] {
        var out: [String: String] = [:]
        for groups in matches(#"([a-zA-Z_-]+)="([^"]*)""#, tag) { out[groups[0].lowercased()] = unescape(groups[1]) }
        return out
    }

    private static func unescape(_ s: String) -> String {
        s.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#x27;", with: "'")
            .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }

    private static func matches(_ pattern: String, _ text: String) -> [[String]] {
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
}

/// The browser met a page it does not know what to do with.
struct BrowserError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
