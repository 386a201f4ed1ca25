import Foundation
import IdentityEmulator
import Testing

/// An emulator left running for weeks holds only what can still be used: everything expires and is evicted
/// on the emulator's clock, and refresh-token rotation keeps a bounded number per user and client.
@Suite("Emulator memory is bounded")
struct EmulatorMemoryTests {
    private func stats(_ emulator: TestEmulator) async throws -> [String: Int] {
        let json = try await emulator.get("/_emulator/stats").json
        return json.compactMapValues { $0 as? Int }
    }

    private func refresh(_ emulator: TestEmulator, _ token: String) async throws -> HTTPResult {
        try await emulator.token(
            "organizations",
            [
                ("grant_type", "refresh_token"), ("client_id", emulator.ids.publicClient), ("refresh_token", token),
                ("scope", "User.Read openid profile offline_access"), ("client_info", "1"),
            ])
    }

    @Test("150 rotations keep the newest 100 refresh tokens: the first is forgotten (invalid_grant), the last works")
    func refreshTokensPerFamily() async throws {
        try await TestEmulator.with { emulator in
            let first = try #require(try await emulator.passwordGrant().string("refresh_token"))
            var latest = first
            for _ in 0..<150 {
                let result = try await refresh(emulator, latest)
                #expect(result.status == 200)
                latest = try #require(try result.string("refresh_token"))
            }
            #expect(try await stats(emulator)["refreshTokens"] == 100)
            let forgotten = try await refresh(emulator, first)
            #expect(forgotten.status == 400)
            #expect(try forgotten.string("error") == "invalid_grant")
            #expect(try await refresh(emulator, latest).status == 200)
        }
    }

    @Test("requests, codes, device codes, sessions and continuation tokens are evicted once expired")
    func evictionFollowsTheClock() async throws {
        try await TestEmulator.with { emulator in
            // One of each: a sign-in waiting on its page, a code never redeemed (and its SSO session), a device
            // code never approved, a native-auth continuation token never used.
            _ = try await ScriptedBrowser(emulator).page(AuthorizationRequest().path)
            let location = try await emulator.signInInteractively(
                AuthorizationRequest(), browser: ScriptedBrowser(emulator))
            #expect(redirectParameters(location)["code"] != nil)
            let device = try await emulator.post(
                "/organizations/oauth2/v2.0/devicecode",
                form: [("client_id", emulator.ids.publicClient), ("scope", "User.Read")])
            #expect(device.status == 200)
            let native = try await emulator.post(
                "/contosocustomers.onmicrosoft.com/oauth2/v2.0/initiate",
                form: [
                    ("client_id", emulator.ids.externalPublicClient), ("username", emulator.ids.mfaUser),
                    ("challenge_type", "oob password redirect"),
                ])
            #expect(native.status == 200, "\(native.body)")
            let before = try await stats(emulator)
            for kind in [
                "authorizationRequests", "authorizationCodes", "deviceCodes", "sessions", "continuationTokens",
            ] {
                #expect((before[kind] ?? 0) >= 1, "\(kind): \(before)")
            }

            // A day later every one of them has expired; the next request that stores anything sweeps them.
            try await emulator.setClockOffset(86_400)
            let grant = try await emulator.passwordGrant()
            #expect(grant.status == 200)
            let after = try await stats(emulator)
            for kind in ["authorizationRequests", "authorizationCodes", "deviceCodes", "continuationTokens"] {
                #expect(after[kind] == 0, "\(kind): \(after)")
            }
            // The SSO session lasts 90 days after its last sign-in; then it goes too.
            #expect(after["sessions"] == 1)
            try await emulator.setClockOffset(91 * 86_400)
            #expect(try await emulator.passwordGrant().status == 200)
            #expect(try await stats(emulator)["sessions"] == 0)
            #expect((try await stats(emulator)["residentBytes"] ?? 0) > 0)
        }
    }
}
