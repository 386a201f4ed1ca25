import Crypto
import Foundation
import HTTPTypes

/// A token request in the shape its source expects: api-version, resource and identity parameters, and the
/// header that proves the caller runs on the host.
struct ManagedIdentityRequest: Sendable {
    let endpoint: ManagedIdentityEndpoint
    let identity: ManagedIdentity
    /// The resource, e.g. `https://management.azure.com/` (no `/.default`).
    let resource: String
    /// Client capabilities (`xms_cc`); Service Fabric is the one source that takes them.
    let capabilities: [String]
    /// The cached token a claims challenge revoked (Service Fabric sends its hash).
    let revokedToken: String?
    let correlationID: UUID

    /// The request for `endpoint.source`, with its body (Cloud Shell's form; none for the others).
    ///
    /// - Throws: ``MSALError`` `invalidParameter` when the source has no way to name a user-assigned identity.
    func httpRequest() throws -> (request: HTTPRequest, body: Data?) {
        var headers: HTTPFields = [
            .accept: "application/json", .managedIdentityRequestID: correlationID.uuidString.lowercased(),
            .clientSKU: LibraryIdentity.sku, .clientVersion: LibraryIdentity.version,
        ]
        let resourceItem = URLQueryItem(name: "resource", value: resource)
        switch endpoint.source {
        case .imds:
            headers.append(HTTPField(name: .metadata, value: "true"))
            return get("2018-02-01", resourceItem, selector("client_id", "msi_res_id", "object_id"), headers)
        case .appService:
            headers.append(HTTPField(name: .identityHeader, value: endpoint.secret ?? ""))
            return get("2019-08-01", resourceItem, selector("client_id", "mi_res_id", "object_id"), headers)
        case .serviceFabric:
            try refuseUserAssigned("the cluster assigns the application's identity")
            headers.append(HTTPField(name: .serviceFabricSecret, value: endpoint.secret ?? ""))
            var extra: [URLQueryItem] = []
            if !capabilities.isEmpty {
                extra.append(URLQueryItem(name: "xms_cc", value: capabilities.joined(separator: ",")))
            }
            if let revokedToken {
                extra.append(
                    URLQueryItem(name: "token_sha256_to_refresh", value: SHA256.hex(of: Data(revokedToken.utf8))))
            }
            return get("2019-07-01-preview", resourceItem, extra, headers)
        case .machineLearning:
            let clientID: String?
            switch identity {
            case .systemAssigned: clientID = endpoint.defaultClientID
            case .userAssignedClientID(let id): clientID = id
            default: throw unsupported("names a user-assigned identity by its client id only")
            }
            headers.append(HTTPField(name: .machineLearningSecret, value: endpoint.secret ?? ""))
            let selector = clientID.map { [URLQueryItem(name: "clientid", value: $0)] } ?? []
            return get("2017-09-01", resourceItem, selector, headers)
        case .cloudShell:
            try refuseUserAssigned("its token is the signed-in user's")
            headers.append(HTTPField(name: .metadata, value: "true"))
            headers.append(HTTPField(name: .contentType, value: "application/x-www-form-urlencoded"))
            return (
                HTTPRequest(method: .post, url: endpoint.url, headerFields: headers),
                Data(FormEncoding.encode([("resource", resource)]).utf8)
            )
        case .azureArc:
            try refuseUserAssigned("the Arc agent serves the machine's own identity")
            headers.append(HTTPField(name: .metadata, value: "true"))
            return get("2020-06-01", resourceItem, [], headers)
        }
    }

    private func get(
        _ apiVersion: String, _ resource: URLQueryItem, _ extra: [URLQueryItem], _ headers: HTTPFields
    ) -> (request: HTTPRequest, body: Data?) {
        var components = URLComponents(url: endpoint.url, resolvingAgainstBaseURL: false)!
        var items = components.queryItems ?? []
        items.append(URLQueryItem(name: "api-version", value: apiVersion))
        items.append(resource)
        items += extra
        components.percentEncodedQuery = items.map {
            "\(FormEncoding.escape($0.name))=\(FormEncoding.escape($0.value ?? ""))"
        }.joined(separator: "&")
        return (HTTPRequest(method: .get, url: components.url!, headerFields: headers), nil)
    }

    /// The query parameter naming a user-assigned identity, by the names this source uses.
    private func selector(_ clientID: String, _ resourceID: String, _ objectID: String) -> [URLQueryItem] {
        switch identity {
        case .systemAssigned: []
        case .userAssignedClientID(let id): [URLQueryItem(name: clientID, value: id)]
        case .userAssignedResourceID(let id): [URLQueryItem(name: resourceID, value: id)]
        case .userAssignedObjectID(let id): [URLQueryItem(name: objectID, value: id)]
        }
    }

    private func refuseUserAssigned(_ reason: String) throws {
        if identity != .systemAssigned { throw unsupported("has no user-assigned identities: \(reason)") }
    }

    private func unsupported(_ what: String) -> MSALError {
        MSALError.internal(.invalidParameter, "\(endpoint.source) \(what); \(identity) cannot be used there.")
    }
}
