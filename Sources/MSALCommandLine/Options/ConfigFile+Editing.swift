import AtomicFiles
import Foundation
import MSAL

/// `msal config set` and `msal config unset`: the file changed one key at a time, checked as it is read, and
/// written whole, atomically and readable by its owner only (`0600`, in a `0700` folder when msal makes it).
extension ConfigFile {
    /// The file with `key` set to `value`.
    ///
    /// - Throws: ``UsageError`` for an unknown key, an empty value, a value holding a password (the file keeps no
    ///   secrets), or a value the setting can never take.
    func setting(_ key: String, to value: String) throws -> ConfigFile {
        guard Self.keys.contains(key) else { throw Self.unknownKey(key, in: url) }
        guard !value.isEmpty else {
            throw UsageError("Give \(key) a value, or remove it with `msal config unset \(key)`.")
        }
        guard CommandContext.withoutPassword(value) == value else {
            throw UsageError(
                "The config file keeps no secrets, and this \(key) holds a password: "
                    + "give it in the environment instead (\(Self.environmentVariable(for: key))).")
        }
        if key == "cache_backend", !["file", "keyring", "auto"].contains(value) {
            throw UsageError("cache_backend must be file, keyring or auto, not \"\(value)\".")
        }
        if key == "authority", (try? Authority(value)) == nil {
            throw UsageError("\(value) is not an authority URL, e.g. https://login.microsoftonline.com/common.")
        }
        return ConfigFile(url: url, values: values.merging([key: value]) { $1 })
    }

    /// The file without `key`.
    ///
    /// - Throws: ``UsageError`` for an unknown key.
    func removing(_ key: String) throws -> ConfigFile {
        guard Self.keys.contains(key) else { throw Self.unknownKey(key, in: url) }
        return ConfigFile(url: url, values: values.filter { $0.key != key })
    }

    /// Writes the file: a JSON object with its keys sorted.
    ///
    /// - Throws: ``UsageError`` naming the file when it cannot be written.
    func save() throws {
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
            try AtomicFile.write(Data((try JSONOutput.text(values) + "\n").utf8), to: url.filePath)
        } catch {
            throw UsageError("\(url.filePath) cannot be written: \(error.localizedDescription)")
        }
    }
}
