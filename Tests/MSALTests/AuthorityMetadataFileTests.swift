import Foundation
import MSAL
import Testing

@Suite("Authority metadata persisted between processes")
struct AuthorityMetadataFileTests {
    /// A fresh folder for one test's files, removed afterwards.
    private static func withFolder(_ body: (URL) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("msal-metadata-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await body(folder)
    }

    /// Megan signs in with an app that keeps its cache in `cacheFile` and discovery in `metadata`, then
    /// gets a token silently, which goes to her own tenant: a second authority to discover.
    private static func signInAndDiscover(_ h: Harness, metadata: AuthorityMetadataFile, cacheFile: URL) async throws
        -> Account
    {
        let app = try h.app(
            user: h.user(Harness.megan), cache: TokenCache(persistence: FileTokenCachePersistence(url: cacheFile)),
            metadataFile: metadata)
        let signedIn = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
        _ = try await app.acquireTokenSilently(SilentParameters(scopes: ["User.Read"], account: signedIn.account))
        return signedIn.account
    }

    @Test(
        "a second app (a new process) uses what the first discovered (escaped slashes too): no discovery, a cached token",
        arguments: [false, true])
    func reusedByTheNextApp(escapedSlashes: Bool) async throws {
        try await Self.withFolder { folder in
            let metadata = AuthorityMetadataFile(url: folder.appendingPathComponent("msal_authority_metadata.json"))
            let cacheFile = folder.appendingPathComponent("token_cache.json")
            try await Harness.with { h in
                let account = try await Self.signInAndDiscover(h, metadata: metadata, cacheFile: cacheFile)
                let discovered = try await h.discoveryRequests()
                #expect(discovered == 2)
                let attributes = try FileManager.default.attributesOfItem(atPath: metadata.url.path)
                #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
                if escapedSlashes {
                    let text = try String(contentsOf: metadata.url, encoding: .utf8)
                    #expect(text.contains("http://"))
                    try Data(text.replacingOccurrences(of: "/", with: "\\/").utf8).write(to: metadata.url)
                }

                let next = try h.app(
                    cache: TokenCache(persistence: FileTokenCachePersistence(url: cacheFile)), metadataFile: metadata)
                let silent = try await next.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: account))
                #expect(silent.source == .cache)
                #expect(try await h.discoveryRequests() == discovered)
            }
        }
    }

    @Test("a flow that goes online discovers again first, so a stale file costs one request instead of failing")
    func staleFileBeforeARefresh() async throws {
        try await Self.withFolder { folder in
            let metadata = AuthorityMetadataFile(url: folder.appendingPathComponent("metadata.json"))
            let cacheFile = folder.appendingPathComponent("token_cache.json")
            try await Harness.with { h in
                let account = try await Self.signInAndDiscover(h, metadata: metadata, cacheFile: cacheFile)
                let discovered = try await h.discoveryRequests()

                // As if the identity provider had moved its token endpoint since the file was written.
                let text = try String(contentsOf: metadata.url, encoding: .utf8)
                let stale = text.replacingOccurrences(of: "oauth2/v2.0/token", with: "gone/v2.0/token")
                #expect(stale != text)
                try Data(stale.utf8).write(to: metadata.url)

                let next = try h.app(
                    cache: TokenCache(persistence: FileTokenCachePersistence(url: cacheFile)), metadataFile: metadata)
                let cached = try await next.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: account))
                #expect(cached.source == .cache)
                #expect(try await h.discoveryRequests() == discovered)
                let refreshed = try await next.acquireTokenSilently(
                    SilentParameters(scopes: ["User.Read"], account: account, forceRefresh: true))
                #expect(refreshed.source == .identityProvider)
                #expect(try await h.discoveryRequests() == discovered + 1)
                #expect(try await h.tokenRequests().filter { $0 == "refresh_token" }.count == 1)
            }
        }
    }

    @Test("an entry older than its maximum age is discovered again and rewritten")
    func expiredEntry() async throws {
        try await Self.withFolder { folder in
            let metadata = AuthorityMetadataFile(url: folder.appendingPathComponent("metadata.json"), maximumAge: 3600)
            try await Harness.with { h in
                _ = try await h.app(metadataFile: metadata).accounts()
                _ = try await h.app(metadataFile: metadata).accounts()
                #expect(try await h.discoveryRequests() == 1)
                h.clock.advance(by: 3601)
                _ = try await h.app(metadataFile: metadata).accounts()
                #expect(try await h.discoveryRequests() == 2)
                _ = try await h.app(metadataFile: metadata).accounts()
                #expect(try await h.discoveryRequests() == 2)
            }
        }
    }

    @Test("a corrupted file is ignored and replaced; a tampered document that fails validation is not used")
    func badFiles() async throws {
        try await Self.withFolder { folder in
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let metadata = AuthorityMetadataFile(url: folder.appendingPathComponent("metadata.json"))
            try Data("{\"version\": 1, \"authorities\": [tru".utf8).write(to: metadata.url)
            try await Harness.with { h in
                _ = try await h.app(metadataFile: metadata).accounts()
                #expect(try await h.discoveryRequests() == 1)
                _ = try await h.app(metadataFile: metadata).accounts()
                #expect(try await h.discoveryRequests() == 1)

                // Move the issuer to another host: validation refuses the entry, so discovery runs again.
                let text = try String(contentsOf: metadata.url, encoding: .utf8)
                let tampered = text.replacingOccurrences(
                    of: "\\\"issuer\\\":\\\"http://127.0.0.1",
                    with: "\\\"issuer\\\":\\\"http://attacker.example")
                #expect(tampered != text)
                try Data(tampered.utf8).write(to: metadata.url)
                _ = try await h.app(metadataFile: metadata).accounts()
                #expect(try await h.discoveryRequests() == 2)
            }
        }
    }
}
