import Foundation

/// Everything the emulator knows about: tenants, users, applications, and the Azure hosts with their managed
/// identities.
///
/// The built-in ``Directory/demo`` is used when no configuration file is given; `--config FILE.json`
/// replaces it with a file of this shape (documented in the README).
public struct Directory: Codable, Sendable {
    public var tenants: [Tenant]
    public var users: [User]
    public var applications: [Application]
    /// Managed identities, system- and user-assigned, attached to ``hosts``.
    public var managedIdentities: [AzureManagedIdentity]
    /// Machines and services in Azure whose processes get tokens as managed identities.
    public var hosts: [AzureHost]

    public init(
        tenants: [Tenant], users: [User], applications: [Application], managedIdentities: [AzureManagedIdentity] = [],
        hosts: [AzureHost] = []
    ) {
        self.tenants = tenants
        self.users = users
        self.applications = applications
        self.managedIdentities = managedIdentities
        self.hosts = hosts
    }

    enum CodingKeys: String, CodingKey {
        case tenants, users, applications, managedIdentities, hosts
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        tenants = try c.decode([Tenant].self, forKey: .tenants)
        users = try c.decode([User].self, forKey: .users)
        applications = try c.decode([Application].self, forKey: .applications)
        managedIdentities = try c.decodeIfPresent([AzureManagedIdentity].self, forKey: .managedIdentities) ?? []
        hosts = try c.decodeIfPresent([AzureHost].self, forKey: .hosts) ?? []
    }
}

/// A Microsoft Entra tenant: a workforce directory or an External ID (CIAM) one.
public struct Tenant: Codable, Sendable {
    public enum Kind: String, Codable, Sendable {
        case workforce
        case external
        /// Azure AD B2C: consumer accounts signing in through user flows (``Tenant/userFlows``).
        case b2c
    }

    /// The tenant id, a GUID.
    public var id: String
    /// The initial domain, e.g. `contoso.onmicrosoft.com`; the tenant is also reachable by it.
    public var domain: String
    public var displayName: String
    public var kind: Kind
    /// Native authentication settings of an External ID tenant; ``NativeAuthSettings/standard`` when absent.
    public var nativeAuth: NativeAuthSettings?
    /// The Azure subscriptions the tenant holds, which the emulator's Resource Manager lists.
    public var subscriptions: [AzureSubscription]
    /// Domains whose users sign in at their organisation's identity provider; none when absent.
    public var federatedDomains: [FederatedDomain]
    /// The user flows of a B2C tenant; ``B2CUserFlow/standard`` when a B2C tenant's entry names none.
    public var userFlows: [B2CUserFlow]
    /// Custom URL domains of an External ID tenant (`login.contoso.com`): host names the emulator answers to, on
    /// its port, as Entra answers for a custom URL domain behind Azure Front Door. Endpoints follow the name a
    /// client used; the issuer stays the emulator's origin, as an External ID tenant's stays `{tenant}.ciamlogin.com`.
    public var customURLDomains: [String]

    public init(
        id: String, domain: String, displayName: String, kind: Kind, nativeAuth: NativeAuthSettings? = nil,
        subscriptions: [AzureSubscription] = [], federatedDomains: [FederatedDomain] = [],
        userFlows: [B2CUserFlow] = [], customURLDomains: [String] = []
    ) {
        self.id = id
        self.domain = domain
        self.displayName = displayName
        self.kind = kind
        self.nativeAuth = nativeAuth
        self.subscriptions = subscriptions
        self.federatedDomains = federatedDomains
        self.userFlows = kind == .b2c && userFlows.isEmpty ? B2CUserFlow.standard : userFlows
        self.customURLDomains = customURLDomains
    }

    enum CodingKeys: String, CodingKey {
        case id, domain, displayName, kind, nativeAuth, subscriptions, federatedDomains, userFlows, customURLDomains
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        domain = try c.decode(String.self, forKey: .domain)
        displayName = try c.decode(String.self, forKey: .displayName)
        kind = try c.decode(Kind.self, forKey: .kind)
        nativeAuth = try c.decodeIfPresent(NativeAuthSettings.self, forKey: .nativeAuth)
        subscriptions = try c.decodeIfPresent([AzureSubscription].self, forKey: .subscriptions) ?? []
        federatedDomains = try c.decodeIfPresent([FederatedDomain].self, forKey: .federatedDomains) ?? []
        let flows = try c.decodeIfPresent([B2CUserFlow].self, forKey: .userFlows) ?? []
        userFlows = kind == .b2c && flows.isEmpty ? B2CUserFlow.standard : flows
        customURLDomains = try c.decodeIfPresent([String].self, forKey: .customURLDomains) ?? []
    }

    /// The user flow named `policy` (without regard to case), for a B2C tenant.
    func userFlow(_ policy: String) -> B2CUserFlow? {
        userFlows.first { $0.name.lowercased() == policy.lowercased() }
    }

    /// The settings native authentication runs with; `nil` for a workforce tenant.
    var nativeAuthSettings: NativeAuthSettings? { kind == .external ? nativeAuth ?? .standard : nil }
}

/// A user with a home tenant and, optionally, guest memberships in other tenants.
public struct User: Codable, Sendable {
    /// A guest membership: the same person as a separate object in another tenant.
    public struct Guest: Codable, Sendable {
        public var tenant: String
        public var objectId: String

        public init(tenant: String, objectId: String) {
            self.tenant = tenant
            self.objectId = objectId
        }
    }

    /// The object id (`oid`) in the home tenant.
    public var id: String
    /// The home tenant id.
    public var tenant: String
    public var userPrincipalName: String
    /// The password; `nil` for users who sign in with an email code only.
    public var password: String?
    public var displayName: String
    public var givenName: String?
    public var surname: String?
    public var jobTitle: String?
    public var mail: String?
    public var mobilePhone: String?
    public var officeLocation: String?
    public var preferredLanguage: String?
    /// Two-letter country code, as collected at sign-up.
    public var country: String?
    public var city: String?
    public var businessPhones: [String]
    public var guestOf: [Guest]
    /// Native authentication: whether this customer must pass a second factor after the password or email
    /// code; `nil` follows the tenant's ``NativeAuthSettings/mfaRequired``.
    public var mfaRequired: Bool?
    /// Native authentication: the customer's registered strong-authentication methods (email or SMS codes).
    /// A customer who needs MFA but has none registers one just in time (`/register/v1.0/…`).
    public var strongAuthMethods: [StrongAuthMethod]?
    /// `false` for a disabled account (Graph's `accountEnabled`), which cannot sign in: AADSTS50057. Enabled when
    /// absent.
    public var accountEnabled: Bool?

    public init(
        id: String, tenant: String, userPrincipalName: String, password: String?, displayName: String,
        givenName: String? = nil, surname: String? = nil, jobTitle: String? = nil, mail: String? = nil,
        mobilePhone: String? = nil, officeLocation: String? = nil, preferredLanguage: String? = nil,
        country: String? = nil, city: String? = nil, businessPhones: [String] = [], guestOf: [Guest] = [],
        mfaRequired: Bool? = nil, strongAuthMethods: [StrongAuthMethod]? = nil, accountEnabled: Bool? = nil
    ) {
        self.id = id
        self.tenant = tenant
        self.userPrincipalName = userPrincipalName
        self.password = password
        self.displayName = displayName
        self.givenName = givenName
        self.surname = surname
        self.jobTitle = jobTitle
        self.mail = mail
        self.mobilePhone = mobilePhone
        self.officeLocation = officeLocation
        self.preferredLanguage = preferredLanguage
        self.country = country
        self.city = city
        self.businessPhones = businessPhones
        self.guestOf = guestOf
        self.mfaRequired = mfaRequired
        self.strongAuthMethods = strongAuthMethods
        self.accountEnabled = accountEnabled
    }

    enum CodingKeys: String, CodingKey {
        case id, tenant, userPrincipalName, password, displayName, givenName, surname, jobTitle, mail
        case mobilePhone, officeLocation, preferredLanguage, country, city, businessPhones, guestOf
        case mfaRequired, strongAuthMethods, accountEnabled
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        tenant = try c.decode(String.self, forKey: .tenant)
        userPrincipalName = try c.decode(String.self, forKey: .userPrincipalName)
        password = try c.decodeIfPresent(String.self, forKey: .password)
        displayName = try c.decode(String.self, forKey: .displayName)
        givenName = try c.decodeIfPresent(String.self, forKey: .givenName)
        surname = try c.decodeIfPresent(String.self, forKey: .surname)
        jobTitle = try c.decodeIfPresent(String.self, forKey: .jobTitle)
        mail = try c.decodeIfPresent(String.self, forKey: .mail)
        mobilePhone = try c.decodeIfPresent(String.self, forKey: .mobilePhone)
        officeLocation = try c.decodeIfPresent(String.self, forKey: .officeLocation)
        preferredLanguage = try c.decodeIfPresent(String.self, forKey: .preferredLanguage)
        country = try c.decodeIfPresent(String.self, forKey: .country)
        city = try c.decodeIfPresent(String.self, forKey: .city)
        businessPhones = try c.decodeIfPresent([String].self, forKey: .businessPhones) ?? []
        guestOf = try c.decodeIfPresent([Guest].self, forKey: .guestOf) ?? []
        mfaRequired = try c.decodeIfPresent(Bool.self, forKey: .mfaRequired)
        strongAuthMethods = try c.decodeIfPresent([StrongAuthMethod].self, forKey: .strongAuthMethods)
        accountEnabled = try c.decodeIfPresent(Bool.self, forKey: .accountEnabled)
    }
}

/// An application registration: a public or confidential client, or a protected API.
public struct Application: Codable, Sendable {
    public enum Kind: String, Codable, Sendable {
        /// A native or CLI app; no secret.
        case publicClient
        /// A web app or daemon with a secret, a certificate or a federated credential.
        case confidentialClient
        /// A resource that exposes delegated scopes (Graph, API 1, API 2). With a credential it is also a
        /// confidential client at the token endpoint (the middle tier of on-behalf-of).
        case api
    }

    /// The application (client) id, a GUID or a well-known name such as `msal-demo`.
    public var clientId: String
    public var displayName: String
    /// The tenant the app is registered in.
    public var tenant: String
    public var kind: Kind
    /// Registered redirect URIs; loopback ones match on any port (RFC 8252 §7.3).
    public var redirectUris: [String]
    /// The client secret of a confidential client (or of an API acting as one).
    public var secret: String?
    /// The FOCI family id (`"1"`) for family apps.
    public var familyId: String?
    /// For APIs: the application id URI, e.g. `api://<id>` or `https://graph.microsoft.com`.
    public var identifierUri: String?
    /// For APIs: more application id URIs the API is known by, as Azure Resource Manager is by
    /// `https://management.core.windows.net/` beside `https://management.azure.com/`.
    public var otherIdentifierUris: [String]
    /// For APIs: the version of the access tokens it accepts, Entra's `accessTokenAcceptedVersion`: `1` (v1.0
    /// tokens, `iss` `https://sts.windows.net/{tid}/`, `aud` the resource as the client named it) or `2`. When
    /// absent, `1` for Microsoft's own APIs (``FirstPartyApplications/acceptsV1Tokens(_:)``) and `2` for the others.
    public var accessTokenAcceptedVersion: Int?
    /// For APIs: the delegated scopes exposed, in canonical casing (`ToDoList.Read`).
    public var scopes: [String]
    /// For APIs: the application permissions (`roles`) a client-credentials token carries.
    public var appRoles: [String]
    /// Delegated scopes an administrator has consented to for every user (`User.Read`, or full URIs).
    public var adminConsentedScopes: [String]
    /// Certificates and public keys the app signs client assertions with (`private_key_jwt`).
    public var keyCredentials: [KeyCredential]
    /// Workload identity federation: external tokens the app may present as client assertions.
    public var federatedCredentials: [FederatedCredential]
    /// Application permissions granted to this client, each `{resource identifierUri}/{role}`
    /// (`api://<id>/ToDoList.Read.All`, `https://graph.microsoft.com/User.Read.All`): the `roles` of its
    /// client-credentials tokens for that resource.
    public var grantedAppRoles: [String]

    public init(
        clientId: String, displayName: String, tenant: String, kind: Kind, redirectUris: [String] = [],
        secret: String? = nil, familyId: String? = nil, identifierUri: String? = nil, scopes: [String] = [],
        appRoles: [String] = [], adminConsentedScopes: [String] = [], keyCredentials: [KeyCredential] = [],
        federatedCredentials: [FederatedCredential] = [], grantedAppRoles: [String] = [],
        otherIdentifierUris: [String] = [], accessTokenAcceptedVersion: Int? = nil
    ) {
        self.clientId = clientId
        self.displayName = displayName
        self.tenant = tenant
        self.kind = kind
        self.redirectUris = redirectUris
        self.secret = secret
        self.familyId = familyId
        self.identifierUri = identifierUri
        self.scopes = scopes
        self.appRoles = appRoles
        self.adminConsentedScopes = adminConsentedScopes
        self.keyCredentials = keyCredentials
        self.federatedCredentials = federatedCredentials
        self.grantedAppRoles = grantedAppRoles
        self.otherIdentifierUris = otherIdentifierUris
        self.accessTokenAcceptedVersion = accessTokenAcceptedVersion
    }

    enum CodingKeys: String, CodingKey {
        case clientId, displayName, tenant, kind, redirectUris, secret, familyId, identifierUri, scopes
        case appRoles, adminConsentedScopes, keyCredentials, federatedCredentials, grantedAppRoles
        case otherIdentifierUris, accessTokenAcceptedVersion
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        clientId = try c.decode(String.self, forKey: .clientId)
        displayName = try c.decode(String.self, forKey: .displayName)
        tenant = try c.decode(String.self, forKey: .tenant)
        kind = try c.decode(Kind.self, forKey: .kind)
        redirectUris = try c.decodeIfPresent([String].self, forKey: .redirectUris) ?? []
        secret = try c.decodeIfPresent(String.self, forKey: .secret)
        familyId = try c.decodeIfPresent(String.self, forKey: .familyId)
        identifierUri = try c.decodeIfPresent(String.self, forKey: .identifierUri)
        scopes = try c.decodeIfPresent([String].self, forKey: .scopes) ?? []
        appRoles = try c.decodeIfPresent([String].self, forKey: .appRoles) ?? []
        adminConsentedScopes = try c.decodeIfPresent([String].self, forKey: .adminConsentedScopes) ?? []
        keyCredentials = try c.decodeIfPresent([KeyCredential].self, forKey: .keyCredentials) ?? []
        federatedCredentials = try c.decodeIfPresent([FederatedCredential].self, forKey: .federatedCredentials) ?? []
        grantedAppRoles = try c.decodeIfPresent([String].self, forKey: .grantedAppRoles) ?? []
        otherIdentifierUris = try c.decodeIfPresent([String].self, forKey: .otherIdentifierUris) ?? []
        accessTokenAcceptedVersion = try c.decodeIfPresent(Int.self, forKey: .accessTokenAcceptedVersion)
    }

    /// True when the app can authenticate at the token endpoint: a confidential client, or an API with a
    /// credential (the middle tier of on-behalf-of).
    var isConfidential: Bool {
        switch kind {
        case .publicClient: false
        case .confidentialClient: true
        case .api: hasCredential
        }
    }

    /// Every application id URI of an API: ``identifierUri`` then ``otherIdentifierUris``.
    var identifierUris: [String] { (identifierUri.map { [$0] } ?? []) + otherIdentifierUris }

    /// True when the API's access tokens are v1.0 ones (``accessTokenAcceptedVersion``).
    var issuesV1Tokens: Bool {
        (accessTokenAcceptedVersion ?? (FirstPartyApplications.acceptsV1Tokens(self) ? 1 : 2)) == 1
    }

    /// True when the app has a secret, a key credential or a federated credential.
    var hasCredential: Bool {
        !(secret?.isEmpty ?? true) || !keyCredentials.isEmpty || !federatedCredentials.isEmpty
    }
}
