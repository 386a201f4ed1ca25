import AsyncHTTPClient
import Foundation
import NIOCore

/// The `/devicelogin` page, driven like a person on another device.
public struct DeviceLogin: Sendable {
    private let base: String
    private let http: HTTPClient

    /// - Parameters:
    ///   - base: the emulator's base URL.
    ///   - http: a client that does not follow redirects.
    public init(base: URL, http: HTTPClient) {
        self.base = base.absoluteString
        self.http = http
    }

    /// Enters `code` and signs in.
    public func signIn(code: String, username: String, password: String) async throws {
        let (page, cookies) = try await post("/devicelogin", "otc=\(code)")
        let flow = try flowID(page)
        let (done, _) = try await post(
            try action(page), "flow=\(flow)&action=signin&username=\(escape(username))&password=\(escape(password))",
            cookies: cookies)
        guard done.contains("You have signed in") else {
            throw AutomationError(description: "device sign-in failed:\n\(done)")
        }
    }

    /// Enters `code` and declines.
    public func decline(code: String) async throws {
        let (page, cookies) = try await post("/devicelogin", "otc=\(code)")
        _ = try await post(try action(page), "flow=\(try flowID(page))&action=cancel", cookies: cookies)
    }

    /// Where the sign-in form posts (`/{tenant}/login`).
    private func action(_ page: String) throws -> String {
        guard let range = page.range(of: #"<form method="post" action="([^"]*)""#, options: .regularExpression) else {
            throw AutomationError(description: "no sign-in form:\n\(page)")
        }
        return String(page[range].dropFirst(#"<form method="post" action=""#.count).dropLast())
    }

    private func flowID(_ page: String) throws -> String {
        guard let range = page.range(of: #"name="flow" value="([^"]*)""#, options: .regularExpression) else {
            throw AutomationError(description: "no sign-in form:\n\(page)")
        }
        return String(page[range].dropFirst(#"name="flow" value=""#.count).dropLast())
    }

    private func escape(_ s: String) -> String {
        s.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? s
    }

    /// Posts a form with `cookies` and returns the page and the cookies it set (the flow is bound to the
    /// browser's `buid` cookie).
    private func post(_ path: String, _ body: String, cookies: [String] = []) async throws -> (String, [String]) {
        var request = HTTPClientRequest(url: "\(base)\(path)")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        if !cookies.isEmpty { request.headers.add(name: "Cookie", value: cookies.joined(separator: "; ")) }
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await http.execute(request, timeout: .seconds(10))
        let set = response.headers["Set-Cookie"].map { String($0.prefix { $0 != ";" }) }
        return (String(buffer: try await response.body.collect(upTo: 1 << 20)), set)
    }
}
