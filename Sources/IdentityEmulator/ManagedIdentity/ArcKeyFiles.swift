import Foundation
import Locking

/// The Azure Arc agent's challenge keys: for each unauthenticated request a random key is written to a new
/// `.key` file in the agent's folder (mode 0600), the client proves it can read there by sending the key back, and
/// a key is good once, for a minute.
final class ArcKeyFiles: Sendable {
    /// Keys not yet used, by key: the host they were issued for, the file, and until when they are good.
    private let pending = Locked<[String: (host: String, file: URL, until: Date)]>([:])
    /// The folder the agent writes its keys to (`/var/opt/azcmagent/tokens` on a real Linux machine).
    let folder: URL
    static let validity: TimeInterval = 60
    /// At most this many keys are outstanding; the oldest go first.
    static let capacity = 256

    init(folder: URL) {
        self.folder = folder
    }

    /// Writes a new key for `host` and returns its file.
    ///
    /// - Throws: when the folder cannot be created or written.
    func challenge(for host: String, key: String, now: Date) throws -> URL {
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = folder.appendingPathComponent("\(UUID().uuidString.lowercased()).key")
        guard
            FileManager.default.createFile(
                atPath: file.path, contents: Data(key.utf8), attributes: [.posixPermissions: 0o600])
        else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path]) }
        let evicted: [URL] = pending.withLock { pending in
            var gone = pending.filter { $0.value.until < now }.map(\.key)
            if pending.count - gone.count >= Self.capacity,
                let oldest = pending.min(by: { $0.value.until < $1.value.until })
            {
                gone.append(oldest.key)
            }
            let files = gone.compactMap { pending.removeValue(forKey: $0)?.file }
            pending[key] = (host, file, now.addingTimeInterval(Self.validity))
            return files
        }
        for file in evicted { try? FileManager.default.removeItem(at: file) }
        return file
    }

    /// Whether `key` was issued for `host` and is still good; a good key is used up and its file removed.
    func redeem(_ key: String, host: String, now: Date) -> Bool {
        guard let issued = pending.withLock({ $0.removeValue(forKey: key) }) else { return false }
        try? FileManager.default.removeItem(at: issued.file)
        return issued.host == host && now <= issued.until
    }
}
