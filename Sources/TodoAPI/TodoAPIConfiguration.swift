import Foundation
import MSAL
import SampleServers

/// How the sample to-do service is set up: the tutorials' API 1 and API 2 as one process, each with its own app
/// registration, its tokens checked against one authority.
public struct TodoAPIConfiguration: Sendable {
    /// One of the two APIs: its path prefix and its registration.
    public struct API: Sendable {
        /// The path prefix, `api1` or `api2`.
        public let name: String
        /// The API's client id; tokens must name it or `api://{clientID}` as their audience.
        public let clientID: String

        /// An API served under `/name`.
        public init(name: String, clientID: String) {
            self.name = name
            self.clientID = clientID
        }
    }

    /// The authority whose tokens are accepted (`…/organizations` with ``allowedTenants`` for several tenants).
    public var authority: Authority
    /// The tenants accepted under a multi-tenant authority; `nil` accepts any.
    public var allowedTenants: Set<String>?
    /// The two APIs.
    public var apis: [API]
    /// API 1's credential, for its on-behalf-of calls to Microsoft Graph; `nil` turns `/api1/me` off.
    public var api1Credential: ClientCredential?
    /// The tenant API 1's on-behalf-of requests go to (a caller's tenant must be this one for `/api1/me`).
    public var api1Tenant: String
    /// Microsoft Graph's base, for `/api1/me` (`https://graph.microsoft.com/v1.0/`, or the emulator's).
    public var graphBaseURL: URL
    /// The web framework that serves the APIs: Hummingbird unless told.
    public var framework = SampleFramework.hummingbird
    /// Where to listen: `127.0.0.1` unless told.
    public var host = "127.0.0.1"
    /// The port; `0` picks a free one.
    public var port = 0
    /// How the service reaches the identity platform and Graph.
    public var transport: any HTTPTransport
    /// The time tokens' `exp` and `nbf` are checked against.
    public var clock: any TimeSource = SystemTimeSource()

    /// A configuration; `transport` is a ``DefaultHTTPTransport`` unless given.
    ///
    /// - Throws: ``MSALError`` when the default transport cannot be made.
    public init(
        authority: Authority, allowedTenants: Set<String>?, apis: [API], api1Credential: ClientCredential?,
        api1Tenant: String, graphBaseURL: URL, transport: (any HTTPTransport)? = nil
    ) throws {
        self.authority = authority
        self.allowedTenants = allowedTenants
        self.apis = apis
        self.api1Credential = api1Credential
        self.api1Tenant = api1Tenant
        self.graphBaseURL = graphBaseURL
        self.transport = try transport ?? DefaultHTTPTransport()
    }
}
