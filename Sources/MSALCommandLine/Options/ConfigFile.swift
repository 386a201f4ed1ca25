import Foundation

/// `${XDG_CONFIG_HOME:-~/.config}/msal/config.json`: a JSON object of strings, keyed like the
/// environment variables without the `MSAL_` prefix (`authority`, `client_id`, `redirect_uri`,
/// `token_cache`, `cache_backend`, `graph_endpoint`, `ca_bundle`).
struct ConfigFile: Sendable, Equatable {
    static let keys: Set<String> = [
        "authority", "client_id", "redirect_uri", "token_cache", "cache_backend", "graph_endpoint", "ca_bundle",
    ]

    let url: URL
    let values: [String: String]

    static func location(environment: [String: String]) -> URL {
        // Joined as text: `appendingPathComponent` costs more than the rest of reading a missing file.
        func joined(_ folder: String, _ name: String) -> String {
            folder.hasSuffix("/") ? folder + name : folder + "/" + name
        }
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? joined(environment["HOME"] ?? NSHomeDirectory(), ".config")
        return URL(fileURLWithPath: joined(base, "msal/config.json"), isDirectory: false)
    }

    /// The file's settings; empty when there is no file.
    ///
    /// - Throws: ``UsageError`` naming the file and the bad key when it is not a JSON object of known string keys.
    static func load(environment: [String: String]) throws -> ConfigFile {
        let url = location(environment: environment)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            return ConfigFile(url: url, values: [:])
        }
        return try parse(data, url: url)
    }

    /// The environment variable that overrides `key` (`MSAL_CLIENT_ID` for `client_id`).
    static func environmentVariable(for key: String) -> String { "MSAL_" + key.uppercased() }

    /// The refusal of a key the file does not take, listing those it does.
    static func unknownKey(_ key: String, in url: URL) -> UsageError {
        UsageError("\(url.path): unknown key \"\(key)\" (known: \(keys.sorted().joined(separator: ", ")))")
    }

    static func parse(_ data: Data, url: URL) throws -> ConfigFile {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw UsageError("\(url.path): not a JSON object")
        }
        var values: [String: String] = [:]
        for (key, value) in object {
            guard keys.contains(key) else { throw unknownKey(key, in: url) }
            guard let string = value as? String else { throw UsageError("\(url.path): \"\(key)\" must be a string") }
            values[key] = string
        }
        return ConfigFile(url: url, values: values)
    }
}
