import Foundation

extension Application {
    /// Entra's limits on federated identity credentials.
    static let maximumFederatedCredentials = 20
    static let maximumIssuerOrSubjectLength = 600

    /// Checks `keyCredentials`, `federatedCredentials` and `grantedAppRoles`.
    ///
    /// - Parameters:
    ///   - field: the JSON path of this application, e.g. `applications[3]`.
    ///   - apis: the directory's APIs by lower-cased identifier URI and client id.
    /// - Throws: ``DirectoryConfigurationError``.
    func validateCredentials(field: String, apis: [String: Application]) throws {
        func fail(_ path: String, _ reason: String) -> DirectoryConfigurationError {
            DirectoryConfigurationError(field: "\(field).\(path)", reason: reason)
        }
        var keyIDs = Set<String>()
        for (j, credential) in keyCredentials.enumerated() {
            do {
                _ = try RegisteredKey(credential)
            } catch {
                throw fail("keyCredentials[\(j)]", error.description)
            }
            if let keyID = credential.keyId, !keyIDs.insert(keyID).inserted {
                throw fail("keyCredentials[\(j)].keyId", "duplicate keyId")
            }
        }
        guard federatedCredentials.count <= Self.maximumFederatedCredentials else {
            throw fail("federatedCredentials", "at most \(Self.maximumFederatedCredentials) per application")
        }
        var names = Set<String>()
        for (j, credential) in federatedCredentials.enumerated() {
            let path = "federatedCredentials[\(j)]"
            guard (3...120).contains(credential.name.count), credential.name.allSatisfy(Self.isURLSafe) else {
                throw fail(path + ".name", "must be 3–120 characters from A–Z, a–z, 0–9, '-', '_', '.', '~'")
            }
            guard names.insert(credential.name.lowercased()).inserted else {
                throw fail(path + ".name", "duplicate name")
            }
            for (member, value) in [("issuer", credential.issuer), ("subject", credential.subject)] {
                guard !value.isEmpty, value.count <= Self.maximumIssuerOrSubjectLength else {
                    throw fail(path + "." + member, "must be 1–\(Self.maximumIssuerOrSubjectLength) characters")
                }
                guard value.trimmingCharacters(in: .whitespacesAndNewlines) == value else {
                    throw fail(path + "." + member, "must not begin or end with whitespace")
                }
            }
            guard credential.audiences.count == 1, let audience = credential.audiences.first, !audience.isEmpty,
                audience.count <= Self.maximumIssuerOrSubjectLength
            else {
                throw fail(path + ".audiences", "must hold exactly one audience, e.g. api://AzureADTokenExchange")
            }
        }
        for (j, granted) in grantedAppRoles.enumerated() {
            let path = "grantedAppRoles[\(j)]"
            guard let (resource, role) = Self.splitAppRole(granted, apis: apis) else {
                throw fail(path, "must be '{identifierUri of an api}/{role}', e.g. api://<id>/ToDoList.Read.All")
            }
            guard resource.appRoles.contains(where: { $0.lowercased() == role.lowercased() }) else {
                throw fail(path, "'\(role)' is not one of the appRoles of '\(resource.displayName)'")
            }
        }
    }

    /// Splits `{identifier}/{role}` at the last `/` and finds the API it names.
    static func splitAppRole(_ granted: String, apis: [String: Application]) -> (Application, String)? {
        guard let slash = granted.lastIndex(of: "/") else { return nil }
        let role = String(granted[granted.index(after: slash)...])
        guard !role.isEmpty, let api = apis[String(granted[..<slash]).lowercased()] else { return nil }
        return (api, role)
    }

    private static func isURLSafe(_ c: Character) -> Bool {
        c.isASCII && (c.isLetter || c.isNumber || "-_.~".contains(c))
    }
}
