import Foundation
import OutsideJSON

/// Instance discovery (`protocol.md` §1.2): asks Microsoft's discovery host, or a loopback authority itself,
/// whether an Entra host is an instance and which hosts are its aliases.
struct InstanceDiscoveryRequest: Sendable {
    let authority: Authority

    var url: URL {
        let origin = authority.isLoopback ? authority.origin : "https://login.microsoftonline.com"
        var components = URLComponents(string: "\(origin)/common/discovery/instance")!
        components.queryItems = [
            URLQueryItem(name: "api-version", value: "1.1"),
            URLQueryItem(
                name: "authorization_endpoint", value: "\(authority.url.absoluteString)/oauth2/v2.0/authorize"),
        ]
        return components.url!
    }
}

/// The alias groups instance discovery answers (`metadata[].aliases`), hosts lowercased.
struct InstanceDiscoveryResponse: Sendable {
    let aliasGroups: [[String]]

    /// - Throws: ``MSALError`` `failedAuthorityValidation` when the body is not a JSON object within
    ///   ``JSONLimits/message``.
    init(json data: Data, authority: Authority) throws {
        let object = try JSONLimits.message.object(data, refusedAs: .failedAuthorityValidation) {
            "\(authority) is not a known Microsoft identity platform instance (its instance discovery answer \($0))."
        }
        aliasGroups = (object["metadata"] as? [[String: Any]] ?? []).map {
            ($0["aliases"] as? [String] ?? []).map { $0.lowercased() }
        }
    }
}
