import Foundation
import IdentityEmulator
import Locking
import Testing

@testable import MSAL

/// One token cache file, two MSALs: the `msal` binary and the real MSAL Python, against the emulator over TLS.
@Suite("Sharing the cache file with MSAL Python", .timeLimit(.minutes(5)))
struct CacheInteropTests {
    static let contoso = Directory.DemoIDs.contosoTenant

    /// Both sides use the same authority: Contoso by tenant id, or a multi-tenant one, where MSAL Python
    /// files access tokens under the word (`organizations`) rather than the tenant.
    static let authorities = [contoso, "organizations", "common"]

    /// An emulator over TLS and a sandbox whose `msal` trusts its CA and signs in through `tenant`.
    static func withTLS(
        tenant: String = contoso, _ body: @Sendable (RunningEmulator, CLISandbox, String) async throws -> Void
    ) async throws {
        let tls = FileManager.default.temporaryDirectory.appendingPathComponent("emulator-tls-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: tls) }
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0, tlsDirectory: tls)) { emulator in
            let sandbox = try CLISandbox(emulator: emulator, tenant: tenant)
            defer { sandbox.remove() }
            try await body(emulator, sandbox, try #require(emulator.caCertificateFile).path)
        }
    }

    @Test(
        "(a) msal login writes the cache; MSAL Python finds the token there, then refreshes with the refresh token",
        arguments: authorities)
    func pythonReadsOurs(tenant: String) async throws {
        try await Self.withTLS(tenant: tenant) { emulator, sandbox, ca in
            let environment = [
                "MSAL_CA_BUNDLE": ca, "BROWSER": CLISandbox.browser(CLICommandTests.megan.0, CLICommandTests.megan.1),
            ]
            let login = try await sandbox.msal(["login"], environment)
            #expect(login.status == 0, "\(login.stderr)")
            let python = try await MSALPython.run([
                "silent-from-file", sandbox.cachePath, sandbox.authority, Directory.DemoIDs.publicClient, ca,
            ])
            let accounts = python["accounts"] as? [[String: Any]] ?? []
            #expect(accounts.first?["username"] as? String == CLICommandTests.megan.0, "\(python)")
            #expect((python["cached"] as? [String: Any])?["token_source"] as? String == "cache", "\(python)")
            #expect(
                (python["refreshed"] as? [String: Any])?["token_source"] as? String == "identity_provider", "\(python)")
            #expect(
                try await CLICommandTests.grants(emulator) == ["authorization_code", "refresh_token"],
                "MSAL Python's silent call through \(tenant) was served from the cache msal wrote")
            let viaHomeTenant = try await CLICommandTests.json(
                sandbox.msal(
                    ["token", "--json"],
                    environment.merging(["MSAL_AUTHORITY": emulator.authority(Self.contoso).absoluteString]) { $1 }))
            #expect(
                viaHomeTenant["source"] as? String == "cache",
                "a token from \(tenant) serves a request naming the home tenant")

            let after = try await CLICommandTests.json(
                sandbox.msal(["token", "--json", "--force-refresh"], environment))
            #expect(
                after["source"] as? String == "identity_provider", "the refresh token Python rotated still works here")
        }
    }

    @Test(
        "(b) MSAL Python signs in and writes the file; msal token reads it without calling the token endpoint",
        arguments: authorities)
    func weReadPythons(tenant: String) async throws {
        try await Self.withTLS(tenant: tenant) { emulator, sandbox, ca in
            try await MSALPython.signInToFile(sandbox, ca: ca, as: CLICommandTests.megan)
            let token = try await CLICommandTests.json(sandbox.msal(["token", "--json"], ["MSAL_CA_BUNDLE": ca]))
            #expect(token["source"] as? String == "cache")
            #expect(token["account"] as? String == CLICommandTests.megan.0)
            #expect(token["tenant_id"] as? String == Self.contoso)
            let viaHomeTenant = try await CLICommandTests.json(
                sandbox.msal(
                    ["token", "--json"],
                    [
                        "MSAL_CA_BUNDLE": ca, "MSAL_AUTHORITY": emulator.authority(Self.contoso).absoluteString,
                    ]))
            #expect(
                viaHomeTenant["source"] as? String == "cache",
                "a token MSAL Python got through \(tenant) serves the home tenant")
            #expect(
                try await CLICommandTests.grants(emulator) == ["password"], "no request to the token endpoint from msal"
            )
            let accounts = try await sandbox.msal(["accounts"], ["MSAL_CA_BUNDLE": ca])
            #expect(accounts.stdout.contains("* ") && accounts.stdout.contains(CLICommandTests.megan.0))
        }
    }

    @Test("(c) both write the same file 100 times while the other reads: no entry lost, the file always valid")
    func concurrentWriters() async throws {
        // Our writes fsync under the lock. Right after a clean build the disk still flushes gigabytes of
        // build output and an fsync can take seconds: start from a flushed disk. (The Python side adds
        // again if msal-extensions' 5 s lock wait still runs out; `lock_timeouts` in its report counts it.)
        sync()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("msal-shared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("token_cache.json").path
        let python = try MSALPython.start(["hammer", path, "100"])
        try await python.waitForOutput { $0.contains("ready") ? true : nil }

        // Our writes replace the file atomically, so Python's reads after each of its writes must all parse;
        // Python rewrites in place, so our lock-free reads may catch its half-written file: TokenCache then
        // reads again under the lock and must never take the file for corrupt. The writers take turns at
        // the pace of the slower (msal-extensions polls its lock every 0.25 s and gives up after 5 s, so
        // a writer that never pauses would starve it).
        let setAside = Locked(0)
        let tokens = TokenCache(
            persistence: FileTokenCachePersistence(
                url: URL(fileURLWithPath: path),
                onSetAside: { _, _ in
                    setAside.withLock { $0 += 1 }
                }))
        var seenPython = 0
        for index in 0..<100 {
            try await tokens.store(Self.artefacts("swift-\(index)"), replacingRefreshToken: nil)
            seenPython = max(
                seenPython, try await tokens.accounts().filter { $0.localAccountID.hasPrefix("py-") }.count)
            try await python.waitForOutput { $0.contains("wrote \(index)\n") ? true : nil }
        }
        let result = try await python.finish()
        #expect(result.status == 0, "\(result.stderr)")
        let report =
            try JSONSerialization.jsonObject(with: Data((result.stdout.split(separator: "\n").last ?? "").utf8))
            as? [String: Any]
        #expect(report?["written"] as? Int == 100, "\(result.stdout)")
        #expect(report?["invalid_reads"] as? Int == 0, "\(result.stdout)")
        #expect(setAside.withLock { $0 } == 0, "a torn read was taken for a corrupt file")

        let document = try #require(try await Self.readUnderLock(path))
        for section in ["AccessToken", "RefreshToken", "IdToken", "Account"] {
            let entries = document[section] as? [String: [String: Any]] ?? [:]
            let swift = entries.values.filter { ($0["home_account_id"] as? String)?.hasPrefix("swift-") == true }.count
            let py = entries.values.filter { ($0["home_account_id"] as? String)?.hasPrefix("py-") == true }.count
            #expect(swift == 100 && py == 100, "\(section): \(swift) from Swift, \(py) from Python")
        }
        #expect(!FileManager.default.fileExists(atPath: path + ".lockfile"))
        #expect(
            seenPython > 0 || (report?["seen_swift_accounts"] as? Int ?? 0) > 0, "the two writers ran at the same time")
    }

    /// The file as JSON, read while holding the lock (no writer is mid-write); `nil` if it is not valid.
    /// Called once both writers are done, so the lock is free (a wait would be a failure).
    static func readUnderLock(_ path: String) async throws -> [String: Any]? {
        let lock = try await CacheFileLock.acquire(path: path + ".lockfile", timeout: .zero) { _ in await Task.yield() }
        defer { lock.release() }
        return (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))) as? [String: Any]
    }

    static func artefacts(_ uid: String) -> CacheArtefacts {
        let tenant = "00000000-0000-0000-0000-0000000000a1"
        let home = "\(uid).\(tenant)"
        let now = Date()
        let environment = "login.microsoftonline.com"
        return CacheArtefacts(
            accessToken: AccessTokenEntry(
                homeAccountID: home, environment: environment, clientID: "hammer-client", realm: tenant,
                target: "User.Read", secret: "at-\(uid)", cachedAt: now, expiresOn: now + 3600,
                extendedExpiresOn: now + 3600),
            refreshToken: RefreshTokenEntry(
                homeAccountID: home, environment: environment, clientID: "hammer-client", secret: "rt-\(uid)",
                target: "User.Read", lastModification: now),
            idToken: IDTokenEntry(
                homeAccountID: home, environment: environment, realm: tenant, clientID: "hammer-client",
                secret: "id-\(uid)"),
            account: AccountEntry(
                homeAccountID: home, environment: environment, realm: tenant, localAccountID: uid,
                username: "\(uid)@example.com", accountSource: "authorization_code"),
            appMetadata: AppMetadataEntry(clientID: "hammer-client", environment: environment))
    }
}
