#if os(Linux)
    import Foundation
    import Testing

    @testable import MSAL

    @Suite("Secret Service persistence")
    struct SecretServiceTests {
        @Test("the cache lives encrypted in the keyring; the signal file holds no tokens; peers see changes")
        func keyring() async throws {
            try await PrivateKeyring.with { keyring in
                let folder = CacheFolder()
                defer { folder.remove() }
                let signal = folder.folder.appendingPathComponent("token_cache.signal")
                let persistence = SecretServiceTokenCachePersistence(
                    signalURL: signal, environment: keyring.environment)
                let mine = TokenCache(persistence: persistence)
                let peer = TokenCache(
                    persistence: SecretServiceTokenCachePersistence(signalURL: signal, environment: keyring.environment)
                )
                #expect(try await mine.accounts().isEmpty, "nothing stored yet")

                try await mine.store(CacheFolder.artefacts("alice"), replacingRefreshToken: nil)
                #expect(try await peer.accounts().map(\.localAccountID) == ["alice"])
                try await peer.store(CacheFolder.artefacts("bob"), replacingRefreshToken: nil)
                #expect(Set(try await mine.accounts().map(\.localAccountID)) == ["alice", "bob"])

                let onDisk = try folder.files().map {
                    try String(contentsOf: folder.folder.appendingPathComponent($0), encoding: .utf8)
                }.joined()
                #expect(!onDisk.contains("rt-alice") && !onDisk.contains("at-bob"), "no token on disk")
                let stored = try #require(try await persistence.load())
                #expect(String(decoding: stored, as: UTF8.self).contains("rt-alice"))
            }
        }

        @Test("without a Secret Service the error says so")
        func noService() async throws {
            let folder = CacheFolder()
            defer { folder.remove() }
            let persistence = SecretServiceTokenCachePersistence(
                signalURL: folder.folder.appendingPathComponent("token_cache.signal"),
                environment: [
                    "PATH": "/usr/bin:/bin", "HOME": folder.folder.path,
                    "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(folder.folder.path)/no-bus",
                ])
            let error = await #expect(throws: MSALError.self) {
                try await TokenCache(persistence: persistence).store(
                    CacheFolder.artefacts("a"), replacingRefreshToken: nil)
            }
            #expect(
                error?.internalCode == .cacheUnavailable && error?.message.contains("Secret Service") == true,
                "\(String(describing: error))")
        }
    }
#endif
