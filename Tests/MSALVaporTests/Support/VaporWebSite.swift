import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import MSAL
import MSALVapor
import NIOCore
import Testing
import VaporTesting
import WebSignInTesting

/// A Vapor web app with MSALVapor's sign-in, served on a port of its own against the emulator, and the steps of a
/// sign-in at it. Cookies are sent by hand, so that each test says which session a request carries.
struct VaporWebSite: WebSignInSite {
    typealias IDs = Directory.DemoIDs

    let url: URL
    let http: HTTPClient

    /// The emulator and the web app (`/profile` shows the signed-in user and a token's length, `/` the sign-out
    /// button), with the client's cache `cache` (its default when `nil`).
    static func with(
        responseMode: ResponseMode = .query, cache: PartitionedTokenCache? = nil,
        _ body: @Sendable (VaporWebSite) async throws -> Void
    ) async throws {
        try await IdentityEmulator.withRunning(EmulatorConfiguration(port: 0)) { emulator in
            var configuration = try ConfidentialClientApplicationConfiguration(
                clientID: IDs.webApp, credential: .secret(IDs.webAppSecret),
                authority: Authority(emulator.authority(IDs.externalTenant).absoluteString))
            if let cache { configuration.cache = cache }
            let client = try ConfidentialClientApplication(configuration: configuration)
            try await withApp { app in
                app.sessions.use(.memory)
                try app.msal.use(WebAppSignIn(app: client, scopes: ["User.Read"], responseMode: responseMode))
                let pages = app.grouped(WebAppUser.sessionAuthenticator(), WebAppUser.signInRedirectMiddleware())
                pages.get("profile") { req in
                    let user = try req.auth.require(WebAppUser.self)
                    let token = try await req.msal.userToken(scopes: ["User.Read"])
                    return "\(user.account.username) \(token.accessToken.isEmpty ? "no token" : "token")"
                }
                app.grouped(WebAppUser.sessionAuthenticator()).get { req in
                    req.msal.signOutForm() ?? "signed out"
                }
                try await app.server.start(address: .hostname("127.0.0.1", port: 0))
                let port = try #require(app.http.server.shared.localAddress?.port)
                let http = HTTPClient(
                    eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                    configuration: .init(redirectConfiguration: .disallow))
                do {
                    try await body(VaporWebSite(url: try #require(URL(string: "http://127.0.0.1:\(port)")), http: http))
                    try await http.shutdown()
                } catch {
                    try? await http.shutdown()
                    await app.server.shutdown()
                    throw error
                }
                await app.server.shutdown()
            }
        }
    }
}
