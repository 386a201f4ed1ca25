import ChildProcesses

#if os(Linux)
    import Foundation
    import TestServers
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

        @Test(
            "a cache far over secret-tool's 8 KB is kept whole in parts; a new save replaces the generation; a part edited by hand reads as no cache"
        )
        func largeCache() async throws {
            try await PrivateKeyring.with { keyring in
                let folder = CacheFolder()
                defer { folder.remove() }
                let persistence = SecretServiceTokenCachePersistence(
                    signalURL: folder.folder.appendingPathComponent("token_cache.signal"),
                    environment: keyring.environment)
                let large = Data((0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) })
                try await persistence.save(large)
                #expect(try await persistence.load() == large)
                #expect(try Self.items(keyring) == 11, "10 parts of 8,000 base64 characters and the manifest")
                let small = Data("{\"AccessToken\": {}}".utf8)
                try await persistence.save(small)
                #expect(try await persistence.load() == small)
                #expect(try Self.items(keyring) == 2, "the old generation's parts are gone")

                let part = try Self.secretTool(
                    keyring,
                    [
                        "store", "--label=edited", "application", "swift-msal", "cache", persistence.signalURL.path,
                        "kind",
                        "part", "generation", "b", "part", "0",
                    ], input: Data("e30K".utf8))
                #expect(part == "")
                #expect(try await persistence.load() == nil, "the parts no longer match the manifest's digest")

                #expect(
                    await SecretServiceTokenCachePersistence.unavailability(
                        environment: keyring.environment, cache: persistence.signalURL) == nil)
                try await persistence.remove()
                #expect(try Self.items(keyring) == 0)
                #expect(
                    await SecretServiceTokenCachePersistence.unavailability(environment: keyring.environment) == nil)
            }
        }

        @Test("without a session bus, or with a dead one, the Secret Service is unavailable, and why")
        func unavailable() async throws {
            let folder = CacheFolder()
            defer { folder.remove() }
            let noBus = await SecretServiceTokenCachePersistence.unavailability(environment: [
                "PATH": "/usr/bin:/bin", "HOME": folder.folder.path,
            ])
            #expect(noBus?.contains("no D-Bus session bus") == true, "\(String(describing: noBus))")
            let deadBus = await SecretServiceTokenCachePersistence.unavailability(environment: [
                "PATH": "/usr/bin:/bin", "HOME": folder.folder.path,
                "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(folder.folder.path)/no-bus",
            ])
            #expect(deadBus?.contains("Secret Service") == true, "\(String(describing: deadBus))")
        }

        /// How many secrets swift-msal keeps in the keyring.
        private static func items(_ keyring: PrivateKeyring) throws -> Int {
            let listing = try secretTool(keyring, ["search", "--all", "application", "swift-msal"], input: nil)
            return listing.split(separator: "\n").filter { $0.hasPrefix("[/") }.count
        }

        /// Runs secret-tool against the keyring; its standard output and error, joined.
        private static func secretTool(_ keyring: PrivateKeyring, _ arguments: [String], input: Data?) throws -> String
        {
            try ChildProcess.runToEnd(
                "/usr/bin/secret-tool", arguments, environment: keyring.environment, input: input,
                error: .standardOutput
            ).text
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
