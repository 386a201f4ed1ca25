import Foundation
import NIOSSL
import Testing

@testable import MSAL

/// ``MSALError``: one code a caller can `switch` on, MSAL's bridged `NSError` values for every code, and the error
/// the library wrapped kept as `underlyingError` and under `NSUnderlyingErrorKey`.
@Suite("MSALError: codes, bridging and the underlying error", .timeLimit(.minutes(1)))
struct MSALErrorTests {
    /// What an app does with each failure, decided by one `switch`.
    private static func reaction(to error: MSALError) -> String {
        switch error.code {
        case .invalidState: "drop the forged redirect"
        case .timedOut: "ask the user to try again"
        case .interactionRequired: "sign in"
        default: "report \(error.code)"
        }
    }

    @Test("switch error.code tells a redirect with another state (invalidState) from one that never came (timedOut)")
    func switchOnCode() async throws {
        let forged = try await #require(throws: MSALError.self) {
            try await Harness.with { h in
                let app = try h.app(
                    redirectReceiver: RedirectReceiverTests.CannedReceiver(parameters: ["code": "0.AX", "state": "x"]))
                _ = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            }
        }
        let late = try await #require(throws: MSALError.self) {
            try await LoopbackRedirectReceiver().receiveResponse(at: "http://localhost", timeout: .milliseconds(10)) {
                _ in
            }
        }
        #expect(Self.reaction(to: forged) == "drop the forged redirect", "\(forged)")
        #expect(Self.reaction(to: late) == "ask the user to try again", "\(late)")
        // MSAL's bridged values are as they were: both are MSAL's `internal` category, told apart by the internal code.
        #expect((forged as NSError).code == -50000 && (late as NSError).code == -50000)
        #expect((forged as NSError).userInfo[MSALInternalErrorCodeKey] as? Int == -42501)
        #expect((late as NSError).userInfo[MSALInternalErrorCodeKey] as? Int == -42604)
    }

    @Test("the description names an AADSTS code once: not again before a message that starts with it, as Entra's do")
    func descriptionNamesTheCodeOnce() {
        let entra = MSALError(
            .serverError, "AADSTS50020: User account from identity provider does not exist in tenant.",
            oauthError: "invalid_grant", stsErrorCodes: [50020])
        #expect(
            entra.description
                == "MSALError serverError (-50006) invalid_grant: AADSTS50020: User account from identity provider does not exist in tenant."
        )
        let other = MSALError(.serverError, "The tenant refused.", oauthError: "invalid_grant", stsErrorCodes: [50020])
        #expect(other.description == "MSALError serverError (-50006) invalid_grant AADSTS50020: The tenant refused.")
    }

    @Test(
        "every code bridges to MSAL's code and MSALInternalErrorCodeKey: a reason is internal (-50000) with its value")
    func bridgedValues() {
        for reason in MSALError.InternalCode.allCases {
            let error = MSALError.internal(reason, "m")
            #expect(error.code == MSALError.Code(reason) && error.code.internalCode == reason)
            #expect(error.errorCode == -50000 && error.internalCode == reason)
            #expect((error as NSError).userInfo[MSALInternalErrorCodeKey] as? Int == reason.rawValue)
        }
        let categories = MSALError.Code.allCases.filter { $0.internalCode == nil }
        #expect(Set(categories.map(\.category)) == Set(MSALError.Category.allCases).subtracting([.internal]))
        #expect(categories.count + MSALError.InternalCode.allCases.count == MSALError.Code.allCases.count)
        #expect(MSALError.Code.allCases.filter { $0.internalCode != nil }.allSatisfy { $0.category == .internal })

        let throttled = MSALError(.serverError, internalCode: .throttled, "m") as NSError
        #expect(throttled.code == -50006 && throttled.userInfo[MSALInternalErrorCodeKey] as? Int == -42606)
        let refused = MSALError(.interactionRequired, internalCode: .invalidGrant, "m") as NSError
        #expect(refused.code == -50002 && refused.userInfo[MSALInternalErrorCodeKey] as? Int == -42004)
        #expect((MSALError(.userCanceled, "m") as NSError).userInfo[MSALInternalErrorCodeKey] == nil)
    }

    @Test("a new internal reason replaces a code that is one and details a public category, as MSAL reports it")
    func withInternalCode() {
        let refused = MSALError(.invalidGrant, "m", oauthError: "invalid_grant", httpStatus: 400)
        let locally = refused.with(internalCode: .throttled, retryAfter: 10)
        #expect(locally.code == .throttled && locally.internalCode == .throttled)
        #expect(locally.oauthError == "invalid_grant" && locally.httpStatus == 400 && locally.retryAfter == 10)
        let asked = MSALError(.interactionRequired, internalCode: .invalidGrant, "m").with(internalCode: .throttled)
        #expect(asked.code == .interactionRequired && asked.internalCode == .throttled)
        #expect(MSALError(.serverError, "m").with(claimsChallenge: "{}").internalCode == nil)
    }

    @Test(
        "a TLS server whose certificate is not trusted: transportFailed with NIOSSL's error, in NSError's userInfo too")
    func tlsFailureKeepsTheUnderlyingError() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("error-ca-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await Harness.with(tlsDirectory: folder) { h in
            let transport = try DefaultHTTPTransport(proxy: .direct)
            let url = h.emulator.baseURL.appendingPathComponent("organizations/v2.0/.well-known/openid-configuration")
            let error = try await #require(throws: MSALError.self) {
                _ = try await transport.send(HTTPRequest(method: .get, url: url), body: nil)
            }
            #expect(error.code == .transportFailed, "\(error)")
            #expect(error.underlyingError as? NIOSSLError != nil, "\(String(reflecting: error.underlyingError))")
            let bridged = error as NSError
            #expect(bridged.userInfo[NSUnderlyingErrorKey] as? NIOSSLError != nil)
            #expect(bridged.domain == MSALErrorDomain && bridged.code == -50000)
        }
    }

    @Test("a cache folder that cannot be examined keeps the POSIX error")
    func fileCacheKeepsThePOSIXError() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-cache-\(UUID().uuidString)")
        let error = try #require(throws: MSALError.self) { try CacheFolderCheck.verify(missing.path) }
        #expect(error.code == .cacheUnavailable && error.message.contains("No such file or directory"))
        #expect((error.underlyingError as? POSIXError)?.code == .ENOENT)
    }
}
