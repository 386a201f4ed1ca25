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
}

extension ClientSettings {
    /// A public client's settings.
    init(_ configuration: PublicClientApplicationConfiguration) {
        self.init(
            clientID: configuration.clientID, authority: configuration.authority,
            knownAuthorities: configuration.knownAuthorities, clientCapabilities: configuration.clientCapabilities,
            tokenExpirationBuffer: configuration.tokenExpirationBuffer, logger: configuration.logger,
            piiLoggingEnabled: configuration.piiLoggingEnabled, transport: configuration.transport,
            authorityMetadataFile: configuration.authorityMetadataFile, clock: configuration.clock,
            random: configuration.random, sleep: configuration.sleep)
    }

    /// A confidential client's settings.
    init(_ configuration: ConfidentialClientApplicationConfiguration) {
        self.init(
            clientID: configuration.clientID, authority: configuration.authority,
            knownAuthorities: configuration.knownAuthorities, clientCapabilities: configuration.clientCapabilities,
            tokenExpirationBuffer: configuration.tokenExpirationBuffer, logger: configuration.logger,
            piiLoggingEnabled: configuration.piiLoggingEnabled, transport: configuration.transport,
            authorityMetadataFile: configuration.authorityMetadataFile, clock: configuration.clock,
            random: configuration.random, sleep: configuration.sleep)
    }
}
