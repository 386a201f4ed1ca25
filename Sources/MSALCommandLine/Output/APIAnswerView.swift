import Foundation
import MSAL

/// What `msal call` and `msal native call` print: the API's answer as it came, or with `--json` the answer (JSON, or
/// `null` for an empty one) in the shape of every `--json` output (``JSONOutput``).
enum APIAnswerView {
    /// Prints the answer, then fails when the API answered with an error status, or with `json` when the answer is
    /// not JSON.
    ///
    /// - Throws: ``CommandFailure`` naming the URL.
    static func report(_ body: Data, status: HTTPResponse.Status, from url: URL, json: Bool, context: CommandContext)
        throws
    {
        var answer: Any?
        if json {
            answer = body.isEmpty ? NSNull() : try? JSONSerialization.jsonObject(with: body, options: .fragmentsAllowed)
            if let answer { try context.printJSON(answer) }
        } else {
            context.console.out(String(decoding: body, as: UTF8.self))
        }
        guard status.kind == .successful else {
            throw CommandFailure("\(url.absoluteString) answered HTTP \(status.code).")
        }
        if json && answer == nil {
            throw CommandFailure("\(url.absoluteString) did not answer with JSON; drop --json to see its answer.")
        }
    }
}
