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
        let base =
            environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingFilePath(".config")
        return base.appendingFilePath("msal/config.json")
    }

    /// The file's settings; empty when there is no file.
    ///
    /// - Throws: ``UsageError`` naming the file and the bad key when it is not a JSON object of known string keys.
    static func load(environment: [String: String]) throws -> ConfigFile {
        let url = location(environment: environment)
        guard let data = try NamedFile.contents(atPath: url.filePath, name: url.filePath) else {
            return ConfigFile(url: url, values: [:])
        }
        return try parse(data, url: url)
    }

    /// The environment variable that overrides `key` (`MSAL_CLIENT_ID` for `client_id`).
    static func environmentVariable(for key: String) -> String { "MSAL_" + key.uppercased() }

    /// The refusal of a key the file does not take, listing those it does.
    static func unknownKey(_ key: String, in url: URL) -> UsageError {
        UsageError("\(url.filePath): unknown key \"\(key)\" (known: \(keys.sorted().joined(separator: ", ")))")
    }

    static func parse(_ data: Data, url: URL) throws -> ConfigFile {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw UsageError("\(url.filePath): not a JSON object")
        }
        var values: [String: String] = [:]
        for (key, value) in object {
            guard keys.contains(key) else { throw unknownKey(key, in: url) }
            guard let string = value as? String else {
                throw UsageError("\(url.filePath): \"\(key)\" must be a string")
            }
            values[key] = string
        }
        return ConfigFile(url: url, values: values)
    }
}
