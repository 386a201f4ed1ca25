import Foundation

/// The sign-out page the browser opens to end the identity platform's session (`protocol.md` §6).
struct EndSessionRequest: Sendable {
    let clientID: String
    /// Where the identity platform sends the browser after signing out (a web app's page).
    var postLogoutRedirectURI: String? = nil

    /// The end-session endpoint with this request as its query.
    func url(endpoint: URL) -> URL {
        var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "client_id", value: clientID)]
        if let postLogoutRedirectURI {
            components.queryItems?.append(URLQueryItem(name: "post_logout_redirect_uri", value: postLogoutRedirectURI))
        }
        return components.url!
    }
}
