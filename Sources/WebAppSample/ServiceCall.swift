import Foundation
import MSAL
import SampleServers

/// A service the web app calls with the signed-in user's token (Microsoft Graph, the to-do API), its failures
/// worded for the user: one it cannot reach, and an answer other than success.
struct ServiceCall: Sendable {
    /// How the user knows the service (`The to-do API`).
    let name: String
    /// What to do when it does not answer (`Start it with …`).
    let whenUnreachable: String
    let transport: any HTTPTransport

    /// Sends `method` to `url` with `token`, and `json` as the body.
    ///
    /// - Returns: the answer's body, when its status is a success.
    /// - Throws: ``SampleFailure``: the status of a 400 or 404 (the request's own fault) with the service's words,
    ///   else 502 Bad Gateway.
    func send(_ method: HTTPRequest.Method, _ url: URL, token: AuthenticationResult, json: Data? = nil)
        async throws -> Data
    {
        var headerFields: HTTPFields = [.authorization: "Bearer \(token.accessToken)"]
        if json != nil { headerFields[.contentType] = "application/json" }
        let target = "\(method) \(url.path)"
        let response: HTTPResponse
        let body: Data
        do {
            (response, body) = try await transport.send(
                HTTPRequest(method: method, url: url, headerFields: headerFields), body: json)
        } catch {
            let address = "\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")"
            throw SampleFailure(
                .badGateway, "service_unreachable",
                message: "\(name) at \(address) did not answer. \(whenUnreachable)",
                cause: "\(name): \(target) failed: \(error)")
        }
        guard response.status.kind != .successful else { return body }
        let answer = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:]
        let error = answer["error"] as? String ?? (answer["error"] as? [String: Any])?["code"] as? String
        let description =
            answer["error_description"] as? String ?? (answer["error"] as? [String: Any])?["message"] as? String
        let code = response.status.code
        let cause = "\(name): \(target) answered HTTP \(code)\(error.map { " \($0)" } ?? "")"
        if code == 400 || code == 404 {
            throw SampleFailure(
                response.status, error ?? "refused", message: description ?? "\(name) answered HTTP \(code).",
                cause: cause)
        }
        throw SampleFailure(
            .badGateway, error ?? "service_failed",
            message: "\(name) answered HTTP \(code)\(description.map { ": \($0)" } ?? ".")", cause: cause)
    }
}
