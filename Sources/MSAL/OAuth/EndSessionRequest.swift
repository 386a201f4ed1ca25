import Foundation

/// The sign-out page the browser opens to end the identity platform's session (`protocol.md` §6).
struct EndSessionRequest: Sendable {
    let clientID: String

    /// The end-session endpoint with this request as its query.
    func url(endpoint: URL) -> URL {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "client_id", value: clientID)]
        return components.url!
    }
}
