import Foundation
import Logging

/// What the core of every app runs on, whatever kind of app it is: taken from the public configuration it was made
/// with, so no core setting can come from another kind of app's defaults.
struct ClientSettings: Sendable {
    let clientID: String
    let authority: Authority
    let knownAuthorities: [Authority]
    let clientCapabilities: [String]
    /// Cached access tokens with less than this left are not used (seconds).
    let tokenExpirationBuffer: TimeInterval
    let logger: Logger
    let piiLoggingEnabled: Bool
    let transport: any HTTPTransport
    let authorityMetadataFile: AuthorityMetadataFile?
    let clock: any TimeSource
    let random: any RandomSource
    let sleep: @Sendable (Duration) async throws -> Void

    /// The settings of a public or confidential client's configuration.
    init(_ configuration: some ClientConfiguration) {
        clientID = configuration.clientID
        authority = configuration.authority.declared(by: configuration.knownAuthorities)
        knownAuthorities = configuration.knownAuthorities
        clientCapabilities = configuration.clientCapabilities
        tokenExpirationBuffer = configuration.tokenExpirationBuffer
        logger = configuration.logger
        piiLoggingEnabled = configuration.piiLoggingEnabled
        transport = configuration.transport
        authorityMetadataFile = configuration.authorityMetadataFile
        clock = configuration.clock
        random = configuration.random
        sleep = configuration.sleep
    }

    /// The authority a request names, else the app's, as the known authorities declare it
    /// (``Authority/declared(by:)``).
    func authority(_ requested: Authority?) -> Authority {
        requested.map { $0.declared(by: knownAuthorities) } ?? authority
    }
}

/// The settings public and confidential clients' configurations both have.
protocol ClientConfiguration {
    var clientID: String { get }
    var authority: Authority { get }
    var knownAuthorities: [Authority] { get }
    var clientCapabilities: [String] { get }
    var tokenExpirationBuffer: TimeInterval { get }
    var logger: Logger { get }
    var piiLoggingEnabled: Bool { get }
    var transport: any HTTPTransport { get }
    var authorityMetadataFile: AuthorityMetadataFile? { get }
    var clock: any TimeSource { get }
    var random: any RandomSource { get }
    var sleep: @Sendable (Duration) async throws -> Void { get }
}

extension PublicClientApplicationConfiguration: ClientConfiguration {}
extension ConfidentialClientApplicationConfiguration: ClientConfiguration {}
