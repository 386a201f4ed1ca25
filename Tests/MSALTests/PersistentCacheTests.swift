import ChildProcesses
import Foundation
import Locking
import Testing

@testable import MSAL

@Suite("Persistent cache: locking, change detection, bad files")
struct PersistentCacheTests {
    @Test("a change waits for msal-extensions' lock file and gives up with a clear error naming it")
    func lockTimeout() async throws {
        let cache = CacheFolder()
        defer { cache.remove() }
        let lockPath = cache.path + ".lockfile"
        // A live peer (this process) holds the lock the way MSAL Python does: an exclusively created file with "<pid> <argv0>".
        try "\(getpid()) python".write(toFile: lockPath, atomically: false, encoding: .utf8)
        let waits = Locked<[Duration]>([])
        let tokens = TokenCache(
            persistence: cache.persistence(lockTimeout: .seconds(1)) { pause in waits.withLock { $0.append(pause) } })
        let error = await #expect(throws: MSALError.self) {
            try await tokens.store(CacheFolder.artefacts("a"), replacingRefreshToken: nil)
        }
        #expect(error?.internalCode == .cacheLocked)
        #expect(error?.message.contains(lockPath) == true && error?.message.contains("\(getpid()) python") == true)
        #expect(waits.withLock { $0.reduce(.zero, +) } >= .seconds(1), "the wait is bounded by the timeout")
        #expect(!FileManager.default.fileExists(atPath: cache.path), "nothing was written")

        try FileManager.default.removeItem(atPath: lockPath)
        try await tokens.store(CacheFolder.artefacts("a"), replacingRefreshToken: nil)
        #expect(cache.files() == ["token_cache.json"], "the lock file is gone after the change")
    }

    @Test("a lock file left by a process that is gone is removed")
    func staleLock() async throws {
        let cache = CacheFolder()
        defer { cache.remove() }
        let finished = try ChildProcess("/bin/true")
        try await finished.exit()
        try "\(finished.processIdentifier) crashed-app".write(
            toFile: cache.path + ".lockfile", atomically: false, encoding: .utf8)
        let tokens = TokenCache(persistence: cache.persistence(lockTimeout: .milliseconds(50)))
        try await tokens.store(CacheFolder.artefacts("a"), replacingRefreshToken: nil)
        #expect(cache.files() == ["token_cache.json"])
    }

    @Test("a peer's write is seen on the next read; an unchanged file is not read again")
    func changeDetection() async throws {
        let cache = CacheFolder()
        defer { cache.remove() }
        let counting = CountingPersistence(cache.persistence())
        let mine = TokenCache(persistence: counting)
        let peer = TokenCache(persistence: cache.persistence())
        #expect(try await mine.accounts().isEmpty)
        for _ in 0..<5 { _ = try await mine.accounts() }
        #expect(counting.loads == 1, "no file yet: loaded once")

        try await peer.store(CacheFolder.artefacts("peer-1"), replacingRefreshToken: nil)
        #expect(try await mine.accounts().map(\.localAccountID) == ["peer-1"])
        for _ in 0..<5 { _ = try await mine.accounts() }
        #expect(counting.loads == 2, "reloaded once after the change, then not again")

        try await mine.store(CacheFolder.artefacts("mine-1"), replacingRefreshToken: nil)
        #expect(
            Set(try await peer.accounts().map(\.localAccountID)) == ["peer-1", "mine-1"],
            "a change starts from the latest file")
        #expect(counting.loads == 2, "my own save needs no reload")
    }

    @Test(
        "empty, truncated, non-JSON and wrong-typed files are set aside once and the cache starts empty",
        arguments: [
            "", "{\"AccessToken\": {\"x\": {\"secret\": ", "<html>Bad Gateway</html>", "[1, 2, 3]", "\"a string\"",
            "42",
        ])
    func badFiles(content: String) async throws {
        let cache = CacheFolder()
        defer { cache.remove() }
        try cache.write(content)
        let reports = Locked<[(String, String)]>([])
        let record: @Sendable (String, String) -> Void = { copy, reason in
            reports.withLock { $0.append((copy, reason)) }
        }
        let persistence = cache.persistence(onSetAside: record)
        let tokens = TokenCache(persistence: persistence)
        #expect(try await tokens.accounts().isEmpty)
        #expect(try await tokens.accounts().isEmpty)
        let report = try #require(reports.withLock { $0.count == 1 ? $0.first : nil })
        #expect(report.0.hasPrefix(cache.path + ".corrupt-"))
        #expect(try String(contentsOfFile: report.0, encoding: .utf8) == content, "the copy keeps the bytes")
        #expect(!FileManager.default.fileExists(atPath: cache.path))
        try await tokens.store(CacheFolder.artefacts("a"), replacingRefreshToken: nil)
        #expect(try await TokenCache(persistence: cache.persistence()).accounts().count == 1)
    }

    @Test("a half-written file from a peer holding the lock is read again once the peer is done")
    func tornRead() async throws {
        let cache = CacheFolder()
        defer { cache.remove() }
        let writer = TokenCache(persistence: cache.persistence())
        try await writer.store(CacheFolder.artefacts("a"), replacingRefreshToken: nil)
        let complete = try Data(contentsOf: cache.file)
        // A peer that rewrites in place (MSAL Python's FilePersistence) holds the lock and has written half.
        let lockPath = cache.path + ".lockfile"
        try "\(getpid()) python".write(toFile: lockPath, atomically: false, encoding: .utf8)
        try complete.prefix(complete.count / 2).write(to: cache.file)
        let peerFinishes: @Sendable (Duration) async throws -> Void = { _ in
            try complete.write(to: cache.file)
            unlink(lockPath)
        }
        let reports = Locked(0)
        let reader = TokenCache(
            persistence: cache.persistence(sleep: peerFinishes) { _, _ in reports.withLock { $0 += 1 } })
        #expect(try await reader.accounts().map(\.localAccountID) == ["a"])
        #expect(reports.withLock { $0 } == 0, "a torn read is not corruption")
    }

    @Test("a read-only file or folder gives an error naming the path, and the file is untouched")
    func readOnly() async throws {
        let cache = CacheFolder()
        defer { cache.remove() }
        let tokens = TokenCache(persistence: cache.persistence())
        try await tokens.store(CacheFolder.artefacts("a"), replacingRefreshToken: nil)
        let before = try Data(contentsOf: cache.file)
        chmod(cache.path, 0o400)
        let fileError = await #expect(throws: MSALError.self) {
            try await tokens.store(CacheFolder.artefacts("b"), replacingRefreshToken: nil)
        }
        #expect(fileError?.internalCode == .cacheUnavailable && fileError?.message.contains(cache.path) == true)
        #expect(try Data(contentsOf: cache.file) == before)
        #expect(try await tokens.accounts().count == 1, "reading still works")

        chmod(cache.path, 0o600)
        chmod(cache.folder.path, 0o500)
        let folderError = await #expect(throws: MSALError.self) {
            try await tokens.store(CacheFolder.artefacts("b"), replacingRefreshToken: nil)
        }
        #expect(
            folderError?.internalCode == .cacheUnavailable && folderError?.message.contains(cache.folder.path) == true)
    }

    @Test("entries other SDKs wrote that this library cannot use are written back untouched")
    func opaqueEntriesKept() async throws {
        let cache = CacheFolder()
        defer { cache.remove() }
        try cache.write(
            """
            {"AccessToken": {"appkey": {"credential_type": "AccessToken", "secret": "app-token", "environment": "login.microsoftonline.com",
              "client_id": "daemon", "realm": "t", "target": "https://graph.microsoft.com/.default", "expires_on": "1900000000"},
              "odd": "not an object"},
             "Extra": {"kept": true}}
            """)
        let tokens = TokenCache(persistence: cache.persistence())
        try await tokens.store(CacheFolder.artefacts("a"), replacingRefreshToken: nil)
        let json = try cache.json()
        let accessTokens = try #require(json["AccessToken"] as? [String: Any])
        #expect((accessTokens["appkey"] as? [String: Any])?["secret"] as? String == "app-token")
        #expect(accessTokens["odd"] as? String == "not an object")
        #expect(accessTokens.count == 3)
        #expect((json["Extra"] as? [String: Any])?["kept"] as? Bool == true)
    }
}

@Suite("Cache JSON reader and writer")
struct CacheJSONTests {
    @Test("escapes, unicode, numbers and nested values round-trip")
    func roundTrip() throws {
        let text =
            #"{"Weird": {"s": "quote \" backslash \\ tab \t nl \n ctl \u0001 é 😀 \ud83d\ude00 \/", "n": -1.5e3, "i": 1700000000, "b": [true, false, null], "o": {}}}"#
        let contents = try UnifiedCacheFormat.decode(Data(text.utf8))
        let expected: CacheValue = .object([
            "s": .string("quote \" backslash \\ tab \t nl \n ctl \u{1} é 😀 😀 /"), "n": .number(-1500),
            "i": .number(1_700_000_000),
            "b": .array([.bool(true), .bool(false), .null]), "o": .object([:]),
        ])
        #expect(contents.unknownSections["Weird"] == expected)
        let again = try UnifiedCacheFormat.decode(UnifiedCacheFormat.encode(contents))
        #expect(again.unknownSections["Weird"] == expected)
    }

    @Test(
        "entry keys are lower-cased as MSAL Python writes them, ASCII or not; secrets with specials at any offset are escaped"
    )
    func keysAndEscapes() throws {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        for target in ["User.Read Mail.Send", "api://ÄPI/Données.Read"] {
            let token = AccessTokenEntry(
                homeAccountID: "UID.TID", environment: "Login.MicrosoftOnline.com", clientID: "Client", realm: "TID",
                target: target, secret: "s", cachedAt: now, expiresOn: now, extendedExpiresOn: now)
            #expect(
                UnifiedCacheFormat.key(token)
                    == "UID.TID-Login.MicrosoftOnline.com-accesstoken-Client-TID-\(target)".lowercased())
        }
        for length in [1, 7, 8, 9, 31, 32, 33, 64, 70] {
            for position in Set([0, length / 2, length - 1]) {
                for special in ["\"", "\\", "\n", "\u{1}"] {
                    var characters = Array(repeating: "a", count: length)
                    characters[position] = special
                    let secret = characters.joined()
                    let contents = UnifiedCacheFormat.Contents(unknownSections: ["S": .string(secret)])
                    #expect(
                        try UnifiedCacheFormat.decode(UnifiedCacheFormat.encode(contents)).unknownSections["S"]
                            == .string(secret))
                }
            }
        }
    }

    @Test(
        "malformed JSON is reported as a corrupt cache, with where",
        arguments: [
            "{", #"{"a": }"#, #"{"a": 1} x"#, #"{"a": "\q"}"#, #"{"a" 1}"#, #"{"a": "open"#, #"{"a": [1, 2}"#,
            #"{"a": tru}"#,
        ])
    func malformed(text: String) {
        let error = #expect(throws: MSALError.self) { try UnifiedCacheFormat.decode(Data(text.utf8)) }
        #expect(error?.internalCode == .cacheCorrupted && error?.message.contains("at byte") == true)
    }
}

/// Counts loads, to prove an unchanged file is not re-read.
final class CountingPersistence: TokenCachePersistence {
    private let inner: FileTokenCachePersistence
    private let count = Locked(0)
    var loads: Int { count.withLock { $0 } }

    init(_ inner: FileTokenCachePersistence) { self.inner = inner }

    func load() async throws -> Data? {
        count.withLock { $0 += 1 }
        return try await inner.load()
    }

    func save(_ data: Data) async throws { try await inner.save(data) }
    func version() async throws -> StorageVersion? { try await inner.version() }
    func lock() async throws -> (any StorageLock)? { try await inner.lock() }
    func setAside(reason: String) async throws -> String? { try await inner.setAside(reason: reason) }
}
