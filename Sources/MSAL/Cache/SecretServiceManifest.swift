import Crypto
import Foundation

/// What the Secret Service keeps beside a token cache's parts: which generation is current, how many parts
/// it has and the SHA-256 of the whole, as one line (`swift-msal-cache 1 a 3 <hex>`).
struct SecretServiceManifest: Equatable {
    let generation: String
    let parts: Int
    let digest: String

    init(generation: String, parts: Int, digest: String) {
        self.generation = generation
        self.parts = parts
        self.digest = digest
    }

    /// Parses a manifest; `nil` for anything else.
    init?(_ data: Data) {
        let fields = String(decoding: data, as: UTF8.self).split(separator: " ")
        guard fields.count == 5, fields[0] == "swift-msal-cache", fields[1] == "1", ["a", "b"].contains(fields[2]),
            let parts = Int(fields[3]), (1...10_000).contains(parts), fields[4].count == 64
        else { return nil }
        self.init(generation: String(fields[2]), parts: parts, digest: String(fields[4]))
    }

    var text: String { "swift-msal-cache 1 \(generation) \(parts) \(digest)" }

    static func digest(_ data: Data) -> String {
        SHA256.hex(of: data)
    }
}
