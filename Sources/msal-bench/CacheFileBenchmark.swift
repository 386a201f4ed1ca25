import Foundation
import MSAL

/// Load and save of a cache file with many accounts, as MSAL Python writes it: `deserialize` into a
/// ``TokenCache`` (parse and index) and `serialize` back to bytes, against MSAL Python's
/// `SerializableTokenCache.deserialize` and `serialize` of the same file (`bench/msal_python_cache_file.py`).
/// Each round loads into a new cache and saves it twice: a process's first save, then a later one (an app
/// saves its cache after every change). When MSAL Python runs beside it, each of its rounds follows one of
/// ours, so every ratio compares two rounds run under the same conditions (a shared VM's speed drifts).
struct CacheFileBenchmark {
    let accounts: Int
    let rounds: Int

    /// One round's times, in milliseconds.
    struct Figures {
        let load: Double
        let firstSave: Double
        let laterSave: Double
    }

    struct Round {
        let ours: Figures
        let python: Figures?
    }

    struct Result {
        let fileBytes: Int
        let rounds: [Round]
    }

    /// - Parameter python: starts MSAL Python's rounds on the file once it is written; `nil` runs ours alone.
    /// - Throws: when the file cannot be written or MSAL Python cannot be started.
    func run(file: URL, python: ((URL) throws -> PythonRounds)?) async throws -> Result {
        let data = try JSONSerialization.data(
            withJSONObject: Self.document(accounts: accounts), options: [.prettyPrinted, .sortedKeys])
        try data.write(to: file)
        let anchor = try python?(file)
        defer { anchor?.finish() }
        let clock = ContinuousClock()
        var results: [Round] = []
        for _ in 0..<rounds {
            let cache = TokenCache()
            let load = try await clock.measure { try await cache.deserialize(data) }
            let firstSave = try await clock.measure { _ = try await cache.serialize() }
            let laterSave = try await clock.measure { _ = try await cache.serialize() }
            // A failing script (MSAL Python missing from that interpreter, say) leaves the anchor out; its own
            // error shows on standard error.
            let theirs = (try? anchor?.next()).flatMap(Figures.init(python:))
            results.append(
                Round(
                    ours: Figures(
                        load: load.microseconds / 1000, firstSave: firstSave.microseconds / 1000,
                        laterSave: laterSave.microseconds / 1000),
                    python: theirs))
        }
        return Result(fileBytes: data.count, rounds: results)
    }

    /// `count` accounts signed in to one app, each with an access, refresh and ID token: what
    /// MSAL Python's `TokenCache.add()` writes for them.
    ///
    /// - Parameters:
    ///   - compact: short secrets, for files that only need the shape (the silent benchmark).
    ///   - issuedAt: when the tokens were cached (Unix seconds); they expire an hour later.
    static func document(accounts count: Int, compact: Bool = false, issuedAt: Int = 1_795_000_000) -> [String: Any] {
        document(accounts: 0..<count, compact: compact, issuedAt: issuedAt)
    }

    /// The same, for the accounts numbered `indices` (one web-app user partition is one account).
    static func document(accounts indices: Range<Int>, compact: Bool = false, issuedAt: Int = 1_795_000_000)
        -> [String: Any]
    {
        let scale = compact ? 0 : 1
        let environment = "login.microsoftonline.com"
        let client = "04b07795-8ddb-461a-bbee-02f9e1bf7b46"
        let tenant = "8b5d2f1e-4c3a-4e6f-9a1b-2c3d4e5f6a7b"
        var sections: [String: [String: Any]] = [
            "AccessToken": [:], "RefreshToken": [:], "IdToken": [:], "Account": [:], "AppMetadata": [:],
        ]
        for index in indices {
            let oid = String(format: "%08x-0000-4000-8000-%012x", index, index)
            let home = "\(oid).\(tenant)"
            let target = "User.Read email openid profile"
            sections["AccessToken"]!["\(home)-\(environment)-accesstoken-\(client)-\(tenant)-\(target)".lowercased()] =
                [
                    "credential_type": "AccessToken",
                    "secret": "eyJ0eXAiOiJKV1Qi.\(String(repeating: "a", count: 1200 * scale)).\(index)",
                    "home_account_id": home, "environment": environment, "client_id": client, "target": target,
                    "realm": tenant,
                    "token_type": "Bearer", "cached_at": "\(issuedAt)", "expires_on": "\(issuedAt + 3600)",
                    "extended_expires_on": "\(issuedAt + 3600)",
                ]
            sections["RefreshToken"]!["\(home)-\(environment)-refreshtoken-\(client)--\(target)".lowercased()] = [
                "credential_type": "RefreshToken",
                "secret": "1.AXYA\(String(repeating: "r", count: 700 * scale)).\(index)", "home_account_id": home,
                "environment": environment, "client_id": client, "target": target,
                "last_modification_time": "\(issuedAt)",
            ]
            sections["IdToken"]!["\(home)-\(environment)-idtoken-\(client)-\(tenant)-"] = [
                "credential_type": "IdToken",
                "secret": "eyJ0eXAiOiJKV1Qi.\(String(repeating: "i", count: 900 * scale)).\(index)",
                "home_account_id": home, "environment": environment, "realm": tenant, "client_id": client,
            ]
            sections["Account"]!["\(home)-\(environment)-\(tenant)"] = [
                "home_account_id": home, "environment": environment, "realm": tenant, "local_account_id": oid,
                "username": "user\(index)@contoso.onmicrosoft.com", "authority_type": "MSSTS",
                "account_source": "authorization_code",
            ]
        }
        sections["AppMetadata"]!["appmetadata-\(environment)-\(client)"] = [
            "client_id": client, "environment": environment,
        ]
        return sections
    }
}

extension CacheFileBenchmark.Figures {
    /// The figures `bench/msal_python_cache_file.py` printed for a round, or `nil` when one is missing.
    init?(python figures: [String: Double]) {
        guard let load = figures["load_ms"], let firstSave = figures["save_ms"],
            let laterSave = figures["save_again_ms"]
        else { return nil }
        self.init(load: load, firstSave: firstSave, laterSave: laterSave)
    }
}
