import Foundation
import OutsideJSON

/// Why a directory configuration was rejected, naming the field at fault.
public struct DirectoryConfigurationError: Error, CustomStringConvertible, Sendable {
    /// The JSON path of the bad field, e.g. `users[2].tenant`; `$` for the file as a whole.
    public let field: String
    /// What is wrong with it; for the whole file, the end of a sentence about it ("is not valid JSON (line 3,
    /// column 5: invalid value)").
    public let reason: String

    /// `invalid directory configuration: users[2].tenant: …`, or for the whole file `…: the file is not valid JSON…`.
    public var description: String {
        "invalid directory configuration: " + (field == "$" ? "the file \(reason)" : "\(field): \(reason)")
    }
}

extension Directory {
    /// Loads a directory from a JSON file.
    ///
    /// - Throws: ``DirectoryConfigurationError`` naming the missing, mistyped or inconsistent field.
    public static func load(contentsOf url: URL) throws -> Directory {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw DirectoryConfigurationError(field: "$", reason: "cannot be read (\(error.localizedDescription))")
        }
        return try decode(data)
    }

    /// Decodes and validates a directory from JSON of at most 256 MiB nesting at most 64 levels (`JSONLimits.file`).
    ///
    /// - Throws: ``DirectoryConfigurationError``.
    public static func decode(_ data: Data) throws -> Directory {
        let directory: Directory
        do {
            directory = try JSONLimits.file.decode(Directory.self, from: data)
        } catch let error as DecodingError {
            if let syntax = JSONSyntaxProblem(in: data) {
                throw DirectoryConfigurationError(field: "$", reason: "is not valid JSON (\(syntax))")
            }
            throw DirectoryConfigurationError(decoding: error)
        } catch let refusal as JSONRefusal {
            throw DirectoryConfigurationError(field: "$", reason: "\(refusal)")
        } catch {
            throw DirectoryConfigurationError(field: "$", reason: "not JSON")
        }
        try directory.validate()
        return directory
    }

    /// Checks references and formats.
    ///
    /// - Throws: ``DirectoryConfigurationError``.
    public func validate() throws {
        func fail(_ field: String, _ reason: String) -> DirectoryConfigurationError {
            DirectoryConfigurationError(field: field, reason: reason)
        }
        guard !tenants.isEmpty else { throw fail("tenants", "at least one tenant is required") }
        let tenantIDs = Set(tenants.map { $0.id.lowercased() })
        guard tenantIDs.count == tenants.count else { throw fail("tenants", "duplicate tenant id") }
        for (i, tenant) in tenants.enumerated() {
            guard UUID(uuidString: tenant.id) != nil else { throw fail("tenants[\(i)].id", "must be a GUID") }
            guard tenant.domain.contains("."), !tenant.domain.contains("/") else {
                throw fail("tenants[\(i)].domain", "must be a domain name such as contoso.onmicrosoft.com")
            }
            for (j, attribute) in (tenant.nativeAuth?.signUpAttributes ?? []).enumerated() {
                let field = "tenants[\(i)].nativeAuth.signUpAttributes[\(j)]"
                guard SignUpAttribute.supportedNames.contains(attribute.name) else {
                    throw fail(
                        field + ".name",
                        "must be one of \(SignUpAttribute.supportedNames.sorted().joined(separator: ", "))")
                }
                if let regex = attribute.regex, (try? NSRegularExpression(pattern: regex)) == nil {
                    throw fail(field + ".regex", "is not a valid regular expression")
                }
            }
        }
        var upns = Set<String>()
        for (i, user) in users.enumerated() {
            guard UUID(uuidString: user.id) != nil else { throw fail("users[\(i)].id", "must be a GUID") }
            guard tenantIDs.contains(user.tenant.lowercased()) else {
                throw fail("users[\(i)].tenant", "names no tenant in 'tenants'")
            }
            guard user.userPrincipalName.contains("@") else {
                throw fail("users[\(i)].userPrincipalName", "must look like name@domain")
            }
            guard upns.insert(user.userPrincipalName.lowercased()).inserted else {
                throw fail("users[\(i)].userPrincipalName", "duplicate user")
            }
            for (j, guest) in user.guestOf.enumerated() where !tenantIDs.contains(guest.tenant.lowercased()) {
                throw fail("users[\(i)].guestOf[\(j)].tenant", "names no tenant in 'tenants'")
            }
            try Self.validateStrongAuthMethods(user.strongAuthMethods ?? [], field: "users[\(i)].strongAuthMethods")
        }
        var apis: [String: Application] = [:]
        for app in applications where app.kind == .api {
            apis[app.clientId.lowercased()] = app
            if let uri = app.identifierUri?.lowercased() { apis[uri] = app }
        }
        var clientIDs = Set<String>()
        for (i, app) in applications.enumerated() {
            guard !app.clientId.isEmpty, clientIDs.insert(app.clientId.lowercased()).inserted else {
                throw fail("applications[\(i)].clientId", "empty or duplicate")
            }
            guard tenantIDs.contains(app.tenant.lowercased()) else {
                throw fail("applications[\(i)].tenant", "names no tenant in 'tenants'")
            }
            for (j, uri) in app.redirectUris.enumerated() where URL(string: uri)?.scheme == nil {
                throw fail("applications[\(i)].redirectUris[\(j)]", "must be an absolute URI")
            }
            if app.kind == .confidentialClient, !app.hasCredential {
                throw fail(
                    "applications[\(i)].secret",
                    "a confidentialClient needs a secret, keyCredentials or federatedCredentials")
            }
            if app.kind == .api, app.identifierUri == nil {
                throw fail("applications[\(i)].identifierUri", "an api needs an identifierUri")
            }
            for (j, uri) in app.otherIdentifierUris.enumerated() where URL(string: uri)?.scheme == nil {
                throw fail("applications[\(i)].otherIdentifierUris[\(j)]", "must be an absolute URI")
            }
            if let version = app.accessTokenAcceptedVersion, version != 1, version != 2 {
                throw fail("applications[\(i)].accessTokenAcceptedVersion", "must be 1 or 2")
            }
            try app.validateCredentials(field: "applications[\(i)]", apis: apis)
        }
        try validateHosts(tenantIDs: tenantIDs, upns: upns)
        try validateSubscriptions()
    }

    /// Each method has a unique GUID id, the channel `email` or `sms`, and a target valid for its channel.
    private static func validateStrongAuthMethods(_ methods: [StrongAuthMethod], field: String) throws {
        var ids = Set<String>()
        for (j, method) in methods.enumerated() {
            let item = "\(field)[\(j)]"
            guard UUID(uuidString: method.id) != nil else {
                throw DirectoryConfigurationError(field: item + ".id", reason: "must be a GUID")
            }
            guard ids.insert(method.id.lowercased()).inserted else {
                throw DirectoryConfigurationError(field: item + ".id", reason: "duplicate method id")
            }
            guard StrongAuthMethod.channels.contains(method.channel) else {
                throw DirectoryConfigurationError(field: item + ".channel", reason: "must be email or sms")
            }
            if let problem = StrongAuthMethod.problem(channel: method.channel, target: method.target) {
                throw DirectoryConfigurationError(field: item + ".target", reason: problem)
            }
        }
    }

    /// Managed identities belong to a tenant and are unique by id; hosts have URL-safe unique names, attach only
    /// identities of the directory, and a Cloud Shell host names a user.
    private func validateHosts(tenantIDs: Set<String>, upns: Set<String>) throws {
        func fail(_ field: String, _ reason: String) -> DirectoryConfigurationError {
            DirectoryConfigurationError(field: field, reason: reason)
        }
        var identities = Set<String>()
        for (i, identity) in managedIdentities.enumerated() {
            let field = "managedIdentities[\(i)]"
            guard UUID(uuidString: identity.clientId) != nil else { throw fail(field + ".clientId", "must be a GUID") }
            guard UUID(uuidString: identity.objectId) != nil else { throw fail(field + ".objectId", "must be a GUID") }
            guard identity.resourceId.hasPrefix("/subscriptions/") else {
                throw fail(field + ".resourceId", "must be an Azure resource id (/subscriptions/…)")
            }
            guard tenantIDs.contains(identity.tenant.lowercased()) else {
                throw fail(field + ".tenant", "is not a tenant of the directory")
            }
            guard identities.insert(identity.clientId.lowercased()).inserted else {
                throw fail(field + ".clientId", "duplicate managed identity")
            }
        }
        var names = Set<String>()
        for (i, host) in hosts.enumerated() {
            let field = "hosts[\(i)]"
            guard !host.name.isEmpty, host.name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
            else { throw fail(field + ".name", "must be letters, digits and hyphens") }
            guard names.insert(host.name.lowercased()).inserted else { throw fail(field + ".name", "duplicate host") }
            for id in [host.systemAssignedIdentity].compactMap({ $0 }) + host.userAssignedIdentities
            where !identities.contains(id.lowercased()) {
                throw fail(field, "attaches \(id), which is not one of managedIdentities")
            }
            if host.kind == .cloudShell, !upns.contains(host.user?.lowercased() ?? "") {
                throw fail(field + ".user", "a cloudShell host needs the user principal name of a directory user")
            }
        }
    }
}

extension DirectoryConfigurationError {
    init(decoding error: DecodingError) {
        func path(_ context: DecodingError.Context, appending key: (any CodingKey)? = nil) -> String {
            let keys = context.codingPath + (key.map { [$0] } ?? [])
            var out = ""
            for key in keys {
                if let index = key.intValue {
                    out += "[\(index)]"
                } else {
                    out += (out.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return out.isEmpty ? "$" : out
        }
        switch error {
        case .keyNotFound(let key, let context):
            self.init(field: path(context, appending: key), reason: "is required")
        case .typeMismatch(let type, let context):
            self.init(field: path(context), reason: "expected \(type)")
        case .valueNotFound(let type, let context):
            self.init(field: path(context), reason: "expected \(type), found null")
        case .dataCorrupted(let context):
            self.init(field: path(context), reason: context.debugDescription)
        @unknown default:
            self.init(field: "$", reason: "\(error)")
        }
    }
}
