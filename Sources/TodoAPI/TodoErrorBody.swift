import Foundation
import NIOCore
import SampleServers

/// How the API answers a request it cannot serve: JSON with `error` and `error_description`, the shape of its
/// bearer challenges' bodies, so that every error of the API reads the same.
enum TodoErrorBody {
    /// `{"error": "…", "error_description": "…"}` with a trailing newline.
    @Sendable static func render(_ explanation: ErrorExplanation) -> (contentType: String, body: ByteBuffer) {
        let object = ["error": explanation.error, "error_description": explanation.message]
        let json = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return ("application/json", ByteBuffer(bytes: json + Data("\n".utf8)))
    }
}
