import AsyncHTTPClient
import Foundation
import NIOCore

/// The emulator's outbox (`GET /_emulator/outbox`), read like a person reads their email.
public struct Outbox: Sendable {
    private let url: String
    private let http: HTTPClient

    /// - Parameters:
    ///   - base: the emulator's base URL.
    ///   - http: any client that reaches it.
    public init(base: URL, http: HTTPClient) {
        url = base.appendingPathComponent("_emulator/outbox").absoluteString
        self.http = http
    }

    /// The last one-time code sent to `address` (compared without regard to case).
    ///
    /// - Throws: ``AutomationError`` when no code was sent there; transport errors.
    public func lastCode(to address: String) async throws -> String {
        let response = try await http.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        let body = Data(try await response.body.collect(upTo: 1 << 24).readableBytesView)
        let messages =
            (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["messages"] as? [[String: Any]] ?? []
        let mine = messages.filter { ($0["to"] as? String)?.caseInsensitiveCompare(address) == .orderedSame }
        guard let code = mine.last?["code"] as? String else {
            throw AutomationError(description: "no code was sent to \(address)")
        }
        return code
    }
}
