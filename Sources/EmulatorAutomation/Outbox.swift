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

    /// Every one-time code sent so far, oldest first: where it went (an email address or a phone number) and the code.
    ///
    /// - Throws: transport errors.
    public func codes() async throws -> [(to: String, code: String)] {
        let response = try await http.execute(HTTPClientRequest(url: url), timeout: .seconds(30))
        let body = Data(try await response.body.collect(upTo: 1 << 24).readableBytesView)
        let messages =
            (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["messages"] as? [[String: Any]] ?? []
        return messages.compactMap { message in
            guard let to = message["to"] as? String, let code = message["code"] as? String else { return nil }
            return (to, code)
        }
    }

    /// The last one-time code sent to `address` (compared without regard to case).
    ///
    /// - Throws: ``AutomationError`` when no code was sent there; transport errors.
    public func lastCode(to address: String) async throws -> String {
        guard let sent = try await codes().last(where: { $0.to.caseInsensitiveCompare(address) == .orderedSame }) else {
            throw AutomationError(description: "no code was sent to \(address)")
        }
        return sent.code
    }
}
