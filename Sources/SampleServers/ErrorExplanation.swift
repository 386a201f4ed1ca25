import Foundation
import HTTPTypes
import Logging
import NIOCore

/// Why a sample could not serve a request: the status, a short name, a message for whoever sent it (what happened
/// and what to do next) and the cause its log records.
package struct ErrorExplanation: Sendable, Equatable {
    /// How a sample words an explanation: the body of its answer and that body's content type.
    package typealias Render = @Sendable (ErrorExplanation) -> (contentType: String, body: ByteBuffer)

    /// How much of an error answer's body is read for its explanation: enough for any, and no more whatever the body
    /// is.
    package static let bodyLimit = 16 * 1024

    /// The status the request is answered with.
    package let status: HTTPResponse.Status
    /// A short name a program can match (`not_found`, `invalid_token`, `todo_api_unreachable`).
    package let error: String
    /// What happened, in the user's terms, and the next step.
    package let message: String
    /// What the log records; never a token, a code, a password or a username.
    package let cause: String

    /// A route's own account of its failure.
    package init(_ failure: SampleFailure) {
        status = failure.status
        error = failure.error
        message = failure.message
        cause = failure.cause
    }

    /// An error answer given without a ``SampleFailure`` (Hummingbird's `HTTPError` and its 404 for an unknown
    /// route, Vapor's `Abort`, a bearer challenge, a plain-text refusal): the `error` and `error_description` (or
    /// `message`) of its JSON body, Hummingbird's `{"error": {"message": …}}` included, or its text; a sentence for
    /// the status when the body says nothing.
    package init(status: HTTPResponse.Status, contentType: String?, body: ByteBuffer, method: String, path: String) {
        self.status = status
        var name: String?
        var text: String?
        if contentType?.hasPrefix("application/json") == true,
            let object = (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView))) as? [String: Any]
        {
            if let nested = object["error"] as? [String: Any] {
                name = nested["code"] as? String
                text = nested["message"] as? String
            } else {
                name = object["error"] as? String
                text = (object["error_description"] ?? object["message"]) as? String
            }
        } else if contentType?.hasPrefix("text/plain") == true {
            text = String(buffer: body).trimmingCharacters(in: .whitespacesAndNewlines)
        }
        error = name ?? Self.name(of: status)
        let message = text.flatMap { $0.isEmpty ? nil : $0 } ?? Self.sentence(for: status, method: method, path: path)
        self.message = message
        cause = message
    }

    /// An error no route turned into an answer: 500, with the error's description for the log only.
    package init(unexpected error: any Error) {
        status = .internalServerError
        self.error = Self.name(of: .internalServerError)
        message = Self.sentence(for: .internalServerError, method: "", path: "")
        cause = String(describing: error)
    }

    /// Records the failed request `method` `path` in `logger`: 4xx at `info`, 5xx at `error`, with the cause. `path`
    /// is without its query, which may carry a code.
    package func log(to logger: Logger, method: String, path: String) {
        logger.log(
            level: status.code >= 500 ? .error : .info, "request failed",
            metadata: [
                "status": "\(status.code)", "method": "\(method)", "path": "\(path)", "error": "\(error)",
                "cause": "\(cause)",
            ])
    }

    /// `not_found` for 404: the reason phrase in lower case, words joined by `_`.
    static func name(of status: HTTPResponse.Status) -> String {
        status.reasonPhrase.lowercased().split(whereSeparator: { !$0.isLetter }).joined(separator: "_")
    }

    /// What a status means to whoever sent the request, when nothing more specific was said.
    static func sentence(for status: HTTPResponse.Status, method: String, path: String) -> String {
        switch status.code {
        case 400: "The request was not understood."
        case 401: "This needs an access token: send it as `Authorization: Bearer <token>`."
        case 403: "You are not allowed to do this."
        case 404: "There is nothing at \(method) \(path)."
        case 405: "\(path) does not take \(method)."
        case 413: "The request's body is too large."
        case 500: "Something failed on the server; its log says what."
        case 502: "A service this one calls did not answer as expected; the server's log says what."
        case 503: "The service is not available right now; try again in a moment."
        default: "\(status.code) \(status.reasonPhrase)."
        }
    }
}
