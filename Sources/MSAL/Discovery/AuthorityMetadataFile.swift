import AtomicFiles
import Foundation

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
        guard case .object(let entry)? = entries()[authority.absoluteString],
            case .number(let fetched)? = entry["fetched_at"],
            now.timeIntervalSince1970 - fetched < maximumAge, now.timeIntervalSince1970 >= fetched,
            case .string(let document)? = entry["openid_configuration"],
            case .array(let aliases)? = entry["aliases"]
        else { return nil }
        // Through a buffer: `Data(document.utf8)` casts the view to `ContiguousBytes`, a conformance search
        // (see "Start-up" in the library's README).
        var text = document
        return (
            text.withUTF8 { Data(buffer: $0) },
            Set(aliases.compactMap { if case .string(let alias) = $0 { alias } else { nil } })
        )
    }

    /// Saves what discovery found for `authority`, keeping the other authorities' entries.
    ///
    /// - Throws: the file system's error when the file cannot be written.
    func save(_ document: Data, aliases: Set<String>, for authority: URL, now: Date) throws {
        var all = entries()
        all[authority.absoluteString] = .object([
            "fetched_at": .number(now.timeIntervalSince1970.rounded(.down)),
            "openid_configuration": .string(String(decoding: document, as: UTF8.self)),
            "aliases": .array(aliases.sorted().map(CacheValue.string)),
        ])
        let data = CacheValue.object(["version": .number(1), "authorities": .object(all)]).json
        let folder = url.deletingLastPathComponent().filePath
        if !FileManager.default.fileExists(atPath: folder) {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        try AtomicFile.write(data, to: url.filePath)
    }

    /// The file's entries by authority URL, read with the token cache's JSON reader (this runs on every start of
    /// a command-line tool, where Foundation's `JSONSerialization` costs more than the rest of the read).
    private func entries() -> [String: CacheValue] {
        guard let data = FileManager.default.contents(atPath: url.filePath),
            case .object(let object)? = try? CacheValue(json: data),
            object["version"] == .number(1),
            case .object(let authorities)? = object["authorities"]
        else { return [:] }
        return authorities
    }
}
