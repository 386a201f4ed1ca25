import Foundation
import Testing

@testable import MSAL

/// The signing keys ID tokens are checked with follow the policy a web API's keys follow: fetched again once 24 hours
/// old, and not asked for again within 5 seconds of a failed fetch. (The refetch for an unknown `kid` is in
/// ``MisbehavingServerTests``.)
@Suite("Signing key policy for ID tokens", .timeLimit(.minutes(2)))
struct SigningKeyPolicyTests {
    @Test("keys younger than 24 hours are used as they are; older ones are fetched again before a sign-in uses them")
    func maximumAge() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan, Harness.megan, Harness.megan))
            let signIn = {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"], prompt: .login))
            }
            _ = try await signIn()
            let keys = try await h.keyRequests()
            h.clock.advance(by: 23 * 3600)
            _ = try await signIn()
            #expect(try await h.keyRequests() == keys, "keys 23 hours old are used")
            h.clock.advance(by: 3600)
            _ = try await signIn()
            #expect(try await h.keyRequests() == keys + 1, "keys 24 hours old are fetched again")
        }
    }

    @Test("after the keys could not be fetched, a sign-in within 5 seconds fails at once with the same error")
    func failureBackoff() async throws {
        try await Harness.with { h in
            let app = try h.app(user: h.user(Harness.megan, Harness.megan, Harness.megan))
            let signIn = {
                try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"], prompt: .login))
            }
            // The fetch and its one retry.
            try await h.scenario("keys", "serverError", count: 2)
            let failed = try await #require(throws: MSALError.self) { _ = try await signIn() }
            let keys = try await h.keyRequests()
            #expect(keys == 2, "one retry of the 500")
            h.clock.advance(by: 4)
            let again = try await #require(throws: MSALError.self) { _ = try await signIn() }
            #expect(again.internalCode == failed.internalCode && again.message == failed.message, "\(again)")
            #expect(try await h.keyRequests() == keys, "no request within the backoff")
            h.clock.advance(by: 2)
            #expect(try await signIn().account.username == "MeganB@contoso.onmicrosoft.com")
            #expect(try await h.keyRequests() == keys + 1)
        }
    }
}
