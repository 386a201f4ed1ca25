import Foundation

@testable import MSAL

/// Cache files in a folder of their own, and synthetic token responses to store in them.
struct CacheFolder: Sendable {
    let folder: URL
    var file: URL { folder.appendingPathComponent("token_cache.json") }
    var path: String { file.path }

    init() {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("msal-cache-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// A persistence whose waits are instant, so lock timeouts pass without real time.
    func persistence(
        lockTimeout: Duration = .seconds(5),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { _ in await Task.yield() },
        onSetAside: (@Sendable (String, String) -> Void)? = nil
    ) -> FileTokenCachePersistence {
        FileTokenCachePersistence(url: file, lockTimeout: lockTimeout, sleep: sleep, onSetAside: onSetAside)
    }

    func write(_ text: String) throws { try Data(text.utf8).write(to: file) }

    func json() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any] ?? [:]
    }

    func files() -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()) ?? [] }

    func remove() {
        chmod(folder.path, 0o700)
        try? FileManager.default.removeItem(at: folder)
    }

    /// What one sign-in of `uid` stores.
    static func artefacts(
        _ uid: String, tenant: String = "00000000-0000-0000-0000-0000000000a1", client: String = "hammer-client"
    ) -> CacheArtefacts {
        let home = "\(uid).\(tenant)"
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        return CacheArtefacts(
            accessToken: AccessTokenEntry(
                homeAccountID: home, environment: "login.microsoftonline.com", clientID: client, realm: tenant,
                target: "User.Read", secret: "at-\(uid)", cachedAt: now, expiresOn: now + 3600,
                extendedExpiresOn: now + 3600),
            refreshToken: RefreshTokenEntry(
                homeAccountID: home, environment: "login.microsoftonline.com", clientID: client, secret: "rt-\(uid)",
                target: "User.Read", lastModification: now),
            idToken: IDTokenEntry(
                homeAccountID: home, environment: "login.microsoftonline.com", realm: tenant, clientID: client,
                secret: "id-\(uid)"),
            account: AccountEntry(
                homeAccountID: home, environment: "login.microsoftonline.com", realm: tenant, localAccountID: uid,
                username: "\(uid)@example.com", accountSource: "authorization_code"),
            appMetadata: AppMetadataEntry(clientID: client, environment: "login.microsoftonline.com"))
    }
}
