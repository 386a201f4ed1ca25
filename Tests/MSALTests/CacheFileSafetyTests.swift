import Foundation
import Testing

@testable import MSAL

/// The cache file is used only in the user's own private folder, opened without following links or blocking on a
/// FIFO, and copies set aside go with a sign-out.
@Suite("Token cache file safety: folder, file type, set-aside copies")
struct CacheFileSafetyTests {
    @Test("a folder writable by others is refused when loading and saving, naming it; made private, it works")
    func folderWritableByOthers() async throws {
        let cache = CacheFolder()
        defer { cache.remove() }
        try cache.write("{}")
        chmod(cache.folder.path, 0o777)
        let tokens = TokenCache(persistence: cache.persistence())
        let loading = await #expect(throws: MSALError.self) { try await cache.persistence().load() }
        #expect(loading?.internalCode == .cacheUnavailable)
        #expect(loading?.message.contains("writable by others") == true)
        #expect(loading?.message.contains(cache.folder.path) == true)
        await #expect(throws: MSALError.self) { try await cache.persistence().save(Data("{}".utf8)) }
        chmod(cache.folder.path, 0o700)
        #expect(try await tokens.accounts().isEmpty)
    }

    @Test("a FIFO or a symbolic link in the cache file's place is refused at once, not read or followed")
    func notARegularFile() async throws {
        let cache = CacheFolder()
        defer { cache.remove() }
        #expect(mkfifo(cache.path, 0o600) == 0)
        let fifo = await #expect(throws: MSALError.self) { try await cache.persistence().load() }
        #expect(fifo?.message.contains("not a regular file") == true)
        unlink(cache.path)

        let elsewhere = cache.folder.appendingPathComponent("elsewhere.json")
        try Data("{}".utf8).write(to: elsewhere)
        #expect(symlink(elsewhere.path, cache.path) == 0)
        let link = await #expect(throws: MSALError.self) { try await cache.persistence().load() }
        #expect(link?.message.contains("symbolic link") == true)
    }

    @Test("a FIFO named like the lock file does not hang: the lock is given up after its timeout")
    func fifoLockFile() async throws {
        let cache = CacheFolder()
        defer { cache.remove() }
        #expect(mkfifo(cache.path + ".lockfile", 0o600) == 0)
        let persistence = cache.persistence(lockTimeout: .milliseconds(200))
        await #expect(throws: MSALError.self) { _ = try await persistence.lock() }
    }

    @Test("an empty lock file (its creator killed before writing its name) is stale once 10 s old, not before")
    func emptyLockFile() async throws {
        let cache = CacheFolder()
        defer { cache.remove() }
        let lockPath = cache.path + ".lockfile"
        #expect(FileManager.default.createFile(atPath: lockPath, contents: Data()))
        // Dated ahead, so that however long this test waits to run, the file is younger than 10 s.
        func date(_ offset: Int) -> Int32 {
            var times = [
                timeval(tv_sec: time(nil) + offset, tv_usec: 0), timeval(tv_sec: time(nil) + offset, tv_usec: 0),
            ]
            return utimes(lockPath, &times)
        }
        #expect(date(3600) == 0)
        let fresh = cache.persistence(lockTimeout: .milliseconds(100))
        let locked = await #expect(throws: MSALError.self) { _ = try await fresh.lock() }
        #expect(locked?.internalCode == .cacheLocked)
        #expect(date(-60) == 0)
        let lock = try await cache.persistence(lockTimeout: .milliseconds(100)).lock()
        #expect(lock != nil)
        lock?.release()
    }

    @Test("sign-out removes the copies of an unreadable cache that were set aside, and only those")
    func setAsideCopiesRemoved() async throws {
        let cache = CacheFolder()
        defer { cache.remove() }
        try cache.write("{not json")
        #expect(try await TokenCache(persistence: cache.persistence()).accounts().isEmpty)
        try Data("keep".utf8).write(to: cache.folder.appendingPathComponent("other.corrupt-1"))
        #expect(cache.files().contains { $0.hasPrefix("token_cache.json.corrupt-") })
        #expect(cache.persistence().removeSetAsideCopies() == 1)
        #expect(!cache.files().contains { $0.hasPrefix("token_cache.json.corrupt-") })
        #expect(cache.files().contains("other.corrupt-1"))
    }
}
