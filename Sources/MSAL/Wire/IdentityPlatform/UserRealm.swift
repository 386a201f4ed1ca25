import Foundation
import OutsideJSON

/// The user realm of a username (`protocol.md` §1.5): whether Entra checks the user's password itself (`Managed`)
/// or sends the user to their organisation's own identity provider (`Federated`), asked before a username and
/// password sign-in as MSAL Python, Go and .NET do.
struct UserRealm: Sendable, Equatable {
    /// `Managed`, `Federated`, or `Unknown` for a username in no tenant.
    let accountType: String
    /// The domain of the username, as Entra knows it.
    let domainName: String?
    /// The federated identity provider's WS-Trust endpoint, for a federated user.
    let federationActiveAuthURL: String?

    /// Whether the user's password is checked by their organisation's identity provider (WS-Trust), not Entra.
    var isFederated: Bool { accountType.caseInsensitiveCompare("Federated") == .orderedSame }

    /// `nil` when the body is not a JSON object with an `account_type`.
    init?(json data: Data) {
        guard let object = try? JSONLimits.message.object(data), let type = object["account_type"] as? String else {
            return nil
        }
        accountType = type
        domainName = object["domain_name"] as? String
        federationActiveAuthURL = object["federation_active_auth_url"] as? String
    }

    /// `{scheme}://{host}/common/userrealm/{username}?api-version=1.0` on the authority's host.
    static func url(authority: Authority, username: String) -> URL {
        var components = URLComponents(url: authority.url, resolvingAgainstBaseURL: false)!
        components.percentEncodedPath =
            "/common/userrealm/" + FormEncoding.escape(username).replacingOccurrences(of: "%40", with: "@")
        components.percentEncodedQuery = "api-version=1.0"
        return components.url!
    }

    /// `path` as logs show it: a user realm request's username replaced by `{username}`, other paths unchanged.
    static func loggedPath(_ path: String) -> String {
        guard let range = path.range(of: "/userrealm/", options: .caseInsensitive) else { return path }
        return path[..<range.upperBound] + "{username}"
    }
}

extension IdentityPlatformClient {
    /// The user realm of `username` at the authority's host; `nil` when the host does not answer one (a 404, as
    /// MSAL Python treats it, or any other failure status): the sign-in then goes on as for a managed user.
    ///
    /// - Throws: ``MSALError`` for transport failures.
    func userRealm(username: String, authority: Authority, correlationID: UUID) async throws -> UserRealm? {
        let (response, body) = try await get(
            UserRealm.url(authority: authority, username: username), correlationID: correlationID)
        guard response.status == .ok else { return nil }
        return UserRealm(json: body)
    }
}
