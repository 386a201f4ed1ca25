import EmulatorAutomation
import Foundation
import NIOHTTP1

/// A one-time code the emulator sent (native authentication, sign-up, MFA), as its outbox shows it.
public struct SentCode: Sendable, Equatable {
    /// Where it went: an email address or a phone number.
    public let to: String
    /// The code.
    public let code: String
}

/// A request the emulator served, as its request log shows it.
public struct ServedRequest: Sendable, Equatable {
    /// `GET`, `POST`, …
    public let method: String
    /// The path, e.g. `/organizations/oauth2/v2.0/token`.
    public let path: String
    /// The token request's `grant_type`, if any.
    public let grantType: String?
    /// The `client_id` the request named, if any.
    public let clientID: String?
    /// The HTTP status it was answered with.
    public let status: Int
}

extension IdentityEmulatorFixture {
    /// The one-time codes sent so far, oldest first (`GET /_emulator/outbox`).
    ///
    /// - Throws: transport errors.
    public func outbox() async throws -> [SentCode] {
        try await Outbox(base: baseURL, http: http).codes().map { SentCode(to: $0.to, code: $0.code) }
    }

    /// The last code sent to `address` (compared without regard to case).
    ///
    /// - Throws: `AutomationError` when none was; transport errors.
    public func lastCode(to address: String) async throws -> String {
        try await Outbox(base: baseURL, http: http).lastCode(to: address)
    }

    /// The requests served so far, oldest first (the emulator keeps the most recent ones; `GET /_emulator/requests`),
    /// those whose path ends with `pathSuffix` when given.
    ///
    /// - Throws: ``IdentityEmulatorFixtureError`` when the emulator does not answer with its log.
    public func requests(pathSuffix: String? = nil) async throws -> [ServedRequest] {
        let entries = try await object(.GET, "_emulator/requests")["requests"] as? [[String: Any]] ?? []
        return entries.compactMap { entry in
            guard let method = entry["method"] as? String, let path = entry["path"] as? String,
                let status = entry["status"] as? Int, pathSuffix.map(path.hasSuffix) ?? true
            else { return nil }
            return ServedRequest(
                method: method, path: path, grantType: entry["grant_type"] as? String,
                clientID: entry["client_id"] as? String, status: status)
        }
    }

    /// Moves the emulator's clock `seconds` forward (tokens expire, codes time out), as `POST /_emulator/clock` does.
    ///
    /// - Throws: ``IdentityEmulatorFixtureError`` when the emulator refuses.
    public func advanceClock(by seconds: Double) async throws {
        let offset = try await object(.GET, "_emulator/clock")["offsetSeconds"] as? Double ?? 0
        _ = try await object(.POST, "_emulator/clock", json: ["offsetSeconds": offset + seconds])
    }
}
