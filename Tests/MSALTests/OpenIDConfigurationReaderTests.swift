import Foundation
import Testing

@testable import MSAL

/// An OpenID configuration's `issuer` and `jwks_uri` are read in one place (``IssuerMetadata``): a web API's
/// authority needs nothing else, an app's authority needs its endpoints as well.
@Suite("OpenID configuration: one reader of issuer and jwks_uri")
struct OpenIDConfigurationReaderTests {
    let authority: Authority
    init() throws { authority = try Authority("https://login.example.test/contoso.onmicrosoft.com") }

    static let keysOnly =
        #"{"issuer":"https://login.example.test/{tenantid}/v2.0","jwks_uri":"https://login.example.test/keys"}"#

    @Test("issuer and jwks_uri alone serve a web API; an app's authority also needs authorize and token endpoints")
    func keysOnly() throws {
        let metadata = try IssuerMetadata(document: Data(Self.keysOnly.utf8), authority: authority)
        #expect(metadata.issuer == "https://login.example.test/{tenantid}/v2.0")
        #expect(metadata.jwksURI.absoluteString == "https://login.example.test/keys")
        let refused = try #require(throws: MSALError.self) {
            try AuthorityEndpoints(authority: authority, document: Data(Self.keysOnly.utf8), aliases: [])
        }
        #expect(refused.internalCode == .invalidResponse)
        #expect(refused.message.contains("lacks authorization_endpoint"), "\(refused.message)")
    }

    @Test("an app's authority reads the same issuer and jwks_uri as a web API's")
    func sameReading() throws {
        let document = Data(
            #"{"issuer":"https://login.example.test/{tenantid}/v2.0","jwks_uri":"https://login.example.test/keys","authorization_endpoint":"https://login.example.test/authorize","token_endpoint":"https://login.example.test/token"}"#
                .utf8)
        let endpoints = try AuthorityEndpoints(authority: authority, document: document, aliases: [])
        let metadata = try IssuerMetadata(document: document, authority: authority)
        #expect(endpoints.issuer == metadata.issuer)
        #expect(endpoints.jwks == metadata.jwksURI)
        let noKeys = try #require(throws: MSALError.self) {
            try IssuerMetadata(
                document: Data(#"{"issuer":"https://login.example.test/x/v2.0"}"#.utf8), authority: authority)
        }
        #expect(noKeys.message.contains("has no issuer or jwks_uri"), "\(noKeys.message)")
    }
}
