import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import MSAL

/// The story the tutorials tell, step by step, against a running emulator.
struct DemoStory {
    let emulator: RunningEmulator
    let http: HTTPClient
    let clock: DemoClock
    let narrator: Narrator
    /// todo-api (the tutorials' API 1 and API 2), running in this process beside the emulator.
    let todoAPI: URL
    /// The same todo-api served by Vapor through MSALVapor.
    let todoAPIOnVapor: URL

    private let ids = Directory.DemoIDs.self

    /// - Returns: how many steps passed.
    func run() async throws -> Int {
        let base = emulator.baseURL
        narrator.say("identity-emulator is running at \(base.absoluteString) (in this process).")
        let user = AutomatedUser(
            http: http,
            choices: [
                .signIn(username: "MeganB@contoso.onmicrosoft.com", password: "Megan-Demo-Pass1")
            ])
        let app = try makeApp(clientID: ids.publicClient, tenant: "organizations", user: user)

        let signedIn = try await narrator.step(1, "Sign in interactively (system browser → loopback redirect, PKCE)") {
            let result = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["User.Read"]))
            narrator.detail("\(result.account.accountClaims["name"] ?? "?") signed in as \(result.account.username)")
            narrator.detail("tenant \(result.tenantProfile.tenantID), scopes: \(result.scopes.joined(separator: " "))")
            return result
        }
        try await narrator.step(2, "Call Microsoft Graph /me with the token") {
            let (response, body) = try await app.send(
                HTTPRequest(method: .get, url: base.appendingPathComponent("v1.0/me")),
                scopes: ["User.Read"], account: signedIn.account)
            guard response.status == .ok,
                let profile = try JSONSerialization.jsonObject(with: body) as? [String: Any]
            else {
                throw DemoError("Graph answered HTTP \(response.status.code)")
            }
            for key in ["displayName", "jobTitle", "mail", "officeLocation", "id"] {
                narrator.detail("\(key): \(profile[key].map { "\($0)" } ?? "null")")
            }
        }
        try await narrator.step(3, "Get the token again, silently") {
            let result = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: signedIn.account))
            narrator.detail(
                "from the \(result.source == .cache ? "cache" : "identity platform"), valid until \(result.expiresOn.formatted(date: .omitted, time: .standard))"
            )
        }
        try await narrator.step(4, "Two hours later the token has expired: silent refresh with the refresh token") {
            clock.advance(by: 2 * 3600)
            let result = try await app.acquireTokenSilently(
                SilentParameters(scopes: ["User.Read"], account: signedIn.account))
            guard result.source == .identityProvider else { throw DemoError("expected a refreshed token") }
            narrator.detail(
                "new access token from the identity platform, valid until \(result.expiresOn.formatted(date: .omitted, time: .standard))"
            )
        }
        try await narrator.step(5, "Get device information") {
            narrator.detail("device mode: \(app.deviceInformation().deviceMode.rawValue)")
        }
        try await narrator.step(6, "Sign in on a device without a browser (device code flow)") {
            let result = try await app.acquireTokenByDeviceCode(DeviceCodeParameters(scopes: ["User.Read"])) { info in
                narrator.detail(info.message)
                narrator.detail(
                    "(the automated user opens \(info.verificationURI.absoluteString) on another device and signs in)")
                try await DeviceLogin(base: base, http: http).signIn(
                    code: info.userCode, username: "AdeleV@contoso.onmicrosoft.com", password: "Adele-Demo-Pass2")
            }
            narrator.detail(
                "\(result.account.username) signed in; \(try await app.accounts().count) accounts in the cache")
        }
        try await narrator.step(7, "External ID: one sign-in, tokens for API 1 and API 2, and calls to both") {
            let customer = AutomatedUser(
                http: http, choices: [.signIn(username: "jane@example.com", password: "Jane-Demo-Pass4")])
            let external = try makeApp(
                clientID: ids.externalPublicClient, tenant: "contosocustomers.onmicrosoft.com", user: customer)
            let api1 = "api://\(ids.api1)/ToDoList.Read"
            let api2 = "api://\(ids.api2)/ToDoList.Read"
            let first = try await external.acquireTokenInteractively(InteractiveParameters(scopes: [api1]))
            narrator.detail("\(first.account.username) signed in to \(first.tenantProfile.tenantID)")
            for (name, scope, path) in [("API 1", api1, "api1/todolist"), ("API 2", api2, "api2/todolist")] {
                let (response, data) = try await external.send(
                    HTTPRequest(method: .get, url: todoAPI.appendingPathComponent(path)),
                    scopes: [scope], account: first.account)
                guard response.status == .ok,
                    let body = try JSONSerialization.jsonObject(with: data) as? [String: Any]
                else {
                    throw DemoError("\(name) answered HTTP \(response.status.code)")
                }
                narrator.detail("\(name): HTTP 200, \((body["todos"] as? [Any])?.count ?? 0) to-do items")
            }
            narrator.detail("network sign-ins: 1 (the second API's token came from the refresh token)")
        }
        try await narrator.step(8, "Sign out") {
            try await app.signOut(signedIn.account)
            let left = try await app.accounts().map(\.username)
            narrator.detail(
                "\(signedIn.account.username) signed out; still signed in: \(left.isEmpty ? "nobody" : left.joined(separator: ", "))"
            )
        }
        try await NativeDemoSteps(emulator: emulator, http: http, clock: clock, narrator: narrator, todoAPI: todoAPI)
            .run(from: 9)
        let server = 9 + NativeDemoSteps.stepCount
        try await ServerDemoSteps(
            emulator: emulator, http: http, clock: clock, narrator: narrator, todoAPI: todoAPI,
            todoAPIOnVapor: todoAPIOnVapor
        ).run(from: server)
        return server - 1 + ServerDemoSteps.stepCount
    }

    private func makeApp(clientID: String, tenant: String, user: AutomatedUser) throws -> PublicClientApplication {
        var configuration = try PublicClientApplicationConfiguration(
            clientID: clientID, authority: Authority(emulator.authority(tenant).absoluteString))
        configuration.browser = user
        configuration.clock = clock
        configuration.sleep = { [clock] duration in await clock.sleep(duration) }
        return try PublicClientApplication(configuration: configuration)
    }
}

struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
