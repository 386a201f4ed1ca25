import ChildProcesses
import Foundation
import IdentityEmulator
import Testing

@Suite("TLS, and the real MSAL Python against the emulator")
struct TLSAndMSALPythonTests {
    private static func withTLSEmulator(_ body: @Sendable (TestEmulator) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await TestEmulator.with(
            {
                $0.tlsDirectory = folder
                $0.clock = EmulatorClock()
            }, body)
    }

    @Test("--tls serves HTTPS with a local CA whose PEM is written out; issuers use https")
    func servesHTTPS() async throws {
        try await Self.withTLSEmulator { emulator in
            #expect(emulator.base.hasPrefix("https://127.0.0.1:"))
            let file = try #require(emulator.running.caCertificateFile)
            let pem = try String(contentsOf: file, encoding: .utf8)
            #expect(pem.hasPrefix("-----BEGIN CERTIFICATE-----"))
            let result = try await emulator.get("/contoso.onmicrosoft.com/v2.0/.well-known/openid-configuration")
            #expect(result.status == 200)
            #expect(try result.string("issuer") == "\(emulator.base)/\(emulator.ids.contosoTenant)/v2.0")
            #expect(result.header("Strict-Transport-Security") == nil)
            #expect(try await emulator.passwordGrant().header("Strict-Transport-Security") != nil)
        }
    }

    @Test("MSAL Python: username/password sign-in, a silent cache hit, then a refresh with the refresh token")
    func msalPythonROPCAndRefresh() async throws {
        try await Self.withTLSEmulator { emulator in
            let output = try await MSALPython.run(
                "ropc-refresh", emulator: emulator, authority: "\(emulator.base)/organizations",
                user: "MeganB@contoso.onmicrosoft.com", password: "Megan-Demo-Pass1")
            let first = try #require(output["first"] as? [String: any Sendable])
            #expect(first["error"] as? String == nil, "\(first)")
            #expect(first["has_access_token"] as? Bool == true)
            #expect(first["preferred_username"] as? String == "MeganB@contoso.onmicrosoft.com")
            let accounts = try #require(output["accounts"] as? [any Sendable])
            let account = try #require(accounts.first as? [String: any Sendable])
            #expect(
                account["home_account_id"] as? String
                    == "55868a98-9f9a-4f0e-bed9-4405c0a6eb1f.\(emulator.ids.contosoTenant)")
            #expect((output["cached"] as? [String: any Sendable])?["token_source"] as? String == "cache")
            let refreshed = try #require(output["refreshed"] as? [String: any Sendable])
            #expect(refreshed["token_source"] as? String == "identity_provider", "\(refreshed)")
            let log = try await emulator.get("/_emulator/requests?path=/oauth2/v2.0/token").json
            let grants = try #require(log["requests"] as? [any Sendable]).compactMap {
                ($0 as? [String: any Sendable])?["grant_type"] as? String
            }
            #expect(grants == ["password", "refresh_token"])
        }
    }

    @Test("MSAL Python: username/password for a user who must pass MFA is AADSTS50076 basic_action; a wrong one 50126")
    func msalPythonROPCRefused() async throws {
        try await Self.withTLSEmulator { emulator in
            let output = try await MSALPython.run(
                "ropc-refused", emulator: emulator, authority: "\(emulator.base)/contosocustomers.onmicrosoft.com",
                client: emulator.ids.externalPublicClient, user: emulator.ids.mfaUser,
                password: emulator.ids.mfaUserPassword)
            let mfa = try #require(output["mfa"] as? [String: any Sendable])
            #expect(mfa["error"] as? String == "invalid_grant", "\(mfa)")
            #expect(mfa["suberror"] as? String == "basic_action")
            #expect(mfa["error_codes"] as? [Int] == [50076])
            #expect(mfa["has_access_token"] as? Bool == false)
            let wrong = try #require(output["wrong_password"] as? [String: any Sendable])
            #expect(wrong["error_codes"] as? [Int] == [50126], "\(wrong)")
            #expect(output["accounts"] as? Int == 0)
        }
    }

    @Test("MSAL Python: device code flow, with the user signing in at /devicelogin")
    func msalPythonDeviceCode() async throws {
        try await Self.withTLSEmulator { emulator in
            let output = try await MSALPython.run(
                "device-code", emulator: emulator, authority: "\(emulator.base)/contoso.onmicrosoft.com",
                user: "AdeleV@contoso.onmicrosoft.com", password: "Adele-Demo-Pass2")
            #expect(output["signed_in"] as? Bool == true, "\(output)")
            let result = try #require(output["result"] as? [String: any Sendable])
            #expect(result["error"] as? String == nil, "\(result)")
            #expect(result["has_access_token"] as? Bool == true)
            #expect(result["has_refresh_token"] as? Bool == true)
            #expect(result["preferred_username"] as? String == "AdeleV@contoso.onmicrosoft.com")
        }
    }
}

/// Runs `Tests/Interop/msal_python_against_emulator.py` with the Python that has `msal` installed:
/// `$MSAL_PYTHON`, else `.build-python/bin/python` (both set up by `scripts/test`).
enum MSALPython {
    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static func interpreter() throws -> String {
        if let configured = ProcessInfo.processInfo.environment["MSAL_PYTHON"] { return configured }
        let local = repository.appendingPathComponent(".build-python/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: local) else {
            throw TestFailure(
                "MSAL Python is not installed: run scripts/test once, or `python3 -m venv .build-python && .build-python/bin/pip install -r Tests/Interop/requirements.txt`"
            )
        }
        return local
    }

    /// Runs the script on its own thread: blocking a thread of Swift's small cooperative pool while
    /// Python waits for the in-process emulator would starve the emulator on a 2-core machine.
    static func run(
        _ scenario: String, emulator: TestEmulator, authority: String, client: String = Directory.DemoIDs.publicClient,
        user: String, password: String
    ) async throws -> [String: any Sendable] {
        let ca = try #require(emulator.running.caCertificateFile).path
        let python = try interpreter()
        return try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(
                    with: Result {
                        try runBlocking(
                            python: python, scenario, ca: ca, authority: authority, client: client, user: user,
                            password: password)
                    })
            }.start()
        }
    }

    private static func runBlocking(
        python: String, _ scenario: String, ca: String, authority: String, client: String, user: String,
        password: String
    ) throws -> [String: any Sendable] {
        // requests lets these variables override a session's `verify` (psf/requests#3829), which would
        // hide the emulator's CA from MSAL Python.
        let environment = ProcessInfo.processInfo.environment.filter {
            $0.key != "REQUESTS_CA_BUNDLE" && $0.key != "CURL_CA_BUNDLE"
        }
        let result = try ChildProcess.runToEnd(
            python,
            [
                repository.appendingPathComponent("Tests/Interop/msal_python_against_emulator.py").path,
                scenario, authority, client, ca, user, password,
            ], environment: environment, error: .pipe)
        guard result.termination.succeeded,
            let json = try JSONSerialization.jsonObject(with: result.standardOutput) as? [String: Any]
        else {
            throw TestFailure("MSAL Python \(result.termination):\n\(result.errorText)\n\(result.text)")
        }
        return json.mapValues { SendableJSON.wrap($0) }
    }
}
