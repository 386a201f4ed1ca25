import AtomicFiles
import Foundation
import OutsideJSON

/// Keeps what discovery learned about authorities (the OpenID configuration document and the
/// instance-discovery aliases) in a file, so a short-lived process such as a CLI does not discover
/// the authority again on every run; MSAL Python's `http_cache` does the same for Azure CLI.
///
/// Entries older than `maximumAge` are discovered again. The file is written atomically and
/// `0600`; a missing, unreadable or foreign file counts as empty and is replaced on the next write.
/// It holds no secrets, only public metadata, keyed by authority URL.
public struct AuthorityMetadataFile: Sendable {
    /// The file.
    public let url: URL
    /// How long an entry is used before discovery runs again.
    public var maximumAge: TimeInterval

    /// Keeps authority metadata in the file at `url`.
    ///
    /// - Parameters:
    ///   - url: the file; its folder is created (`0700`) on the first write.
    ///   - maximumAge: how long an entry is used before discovery runs again (one day by default).
    public init(url: URL, maximumAge: TimeInterval = 24 * 3600) {
        self.url = url
        self.maximumAge = maximumAge
    }

    /// What was saved for `authority` when it is younger than `maximumAge` at `now`.
    func entry(for authority: URL, now: Date) -> (document: Data, aliases: Set<String>)? {
        guard let entry = entries()[authority.absoluteString] as? [String: Any],
            let fetched = entry["fetched_at"] as? Double,
            now.timeIntervalSince1970 - fetched < maximumAge, now.timeIntervalSince1970 >= fetched,
            let document = entry["openid_configuration"] as? String,
            let aliases = entry["aliases"] as? [String]
        else { return nil }
        return (Data(document.utf8), Set(aliases))
    }

    /// Saves what discovery found for `authority`, keeping the other authorities' entries.
    ///
    /// - Throws: the file system's error when the file cannot be written.
    func save(_ document: Data, aliases: Set<String>, for authority: URL, now: Date) throws {
        var all = entries()
        all[authority.absoluteString] =
            [
                "fetched_at": now.timeIntervalSince1970.rounded(.down),
                "openid_configuration": String(decoding: document, as: UTF8.self),
                "aliases": aliases.sorted(),
            ] as [String: Any]
        let data = try JSONSerialization.data(
            withJSONObject: ["version": 1, "authorities": all], options: [.sortedKeys])
        let folder = url.deletingLastPathComponent().path
        if !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        try AtomicFile.write(data, to: url.path)
    }

    private func entries() -> [String: Any] {
        guard let data = FileManager.default.contents(atPath: url.path),
            let object = try? JSONLimits.file.object(data),
            object["version"] as? Int == 1
        else { return [:] }
        return object["authorities"] as? [String: Any] ?? [:]
    }
}
