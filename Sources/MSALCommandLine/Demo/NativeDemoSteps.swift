import AsyncHTTPClient
import EmulatorAutomation
import Foundation
import IdentityEmulator
import MSAL

/// The native-authentication part of the demo (tutorial seed 001): a customer signs up with the app's
/// own prompts, signs in with email and password, gets tokens for two APIs from the one sign-in, and
/// resets a forgotten password. Codes are read from the emulator's outbox, as a customer reads email.
struct NativeDemoSteps {
    let emulator: RunningEmulator
    let http: HTTPClient
    let clock: DemoClock
    let narrator: Narrator
    /// todo-api (the tutorials' API 1 and API 2), running in this process beside the emulator.
    let todoAPI: URL

    private let ids = Directory.DemoIDs.self
    static let stepCount = 4

    func run(from first: Int) async throws {
        let app = try makeApp()
        let outbox = Outbox(base: emulator.baseURL, http: http)
        let email = "new.customer@example.com"
        try await narrator.step(first, "Native auth: sign up a new customer (email code, password, attributes)") {
            guard
                case .codeRequired(let state, let delivery) = try await app.signUp(
                    username: email, password: "Demo-Customer-Pass5", attributes: ["displayName": "New Customer"])
            else {
                throw DemoError("sign-up did not ask for the email code")
            }
            narrator.detail(
                "a one-time code (\(delivery.codeLength) digits) was emailed to \(delivery.sentTo); the customer types it in"
            )
            guard
                case .attributesRequired(let attributes, let required) = try await state.submitCode(
                    try await outbox.lastCode(to: email))
            else {
                throw DemoError("sign-up did not ask for the missing attributes")
            }
            narrator.detail("the tenant also needs: \(required.map(\.name).joined(separator: ", "))")
            guard case .completed(let after) = try await attributes.submitAttributes(["country": "NZ"]),
                case .completed(let user) = try await after.signIn()
            else {
                throw DemoError("sign-up did not finish")
            }
            narrator.detail(
                "\(user.accountClaims["name"] ?? "?") signed up and is signed in, without typing the password again")
        }
        try await narrator.step(
            first + 1, "Native auth: sign in with email and password, tokens for API 1 and API 2, calls to both"
        ) {
            guard
                case .completed(let user) = try await app.signIn(
                    username: "jane@example.com", password: "Jane-Demo-Pass4")
            else {
                throw DemoError("Jane could not sign in")
            }
            narrator.detail("\(user.account.username) signed in (the app keeps one customer signed in)")
            for (name, path, api) in [("API 1", "api1/todolist", ids.api1), ("API 2", "api2/todolist", ids.api2)] {
                let scopes = ["api://\(api)/ToDoList.Read", "api://\(api)/ToDoList.ReadWrite"]
                let token = try await user.getAccessToken(scopes: scopes)
                let again = try await user.getAccessToken(scopes: scopes)
                let (response, _) = try await app.application.send(
                    HTTPRequest(method: .get, url: todoAPI.appendingPathComponent(path)),
                    scopes: scopes, account: user.account)
                guard response.status == .ok else {
                    throw DemoError("\(name) answered HTTP \(response.status.code)")
                }
                narrator.detail(
                    "\(name): token from the \(token.source == .cache ? "cache" : "refresh token"), then from the \(again.source == .cache ? "cache" : "network"); HTTP 200"
                )
            }
            try await user.signOut()
            narrator.detail("signed out (no network call)")
        }
        try await narrator.step(first + 2, "Native auth: a forgotten password reset by email code, then signed in") {
            guard case .codeRequired(let state, _) = try await app.resetPassword(username: "jane@example.com"),
                case .newPasswordRequired(let password) = try await state.submitCode(
                    try await outbox.lastCode(to: "jane@example.com"))
            else {
                throw DemoError("the reset did not accept the emailed code")
            }
            guard case .invalidPassword(let problem, let retry) = try await password.submitPassword("password") else {
                throw DemoError("a weak password was accepted")
            }
            narrator.detail("\"password\" refused (\(problem.rawValue)); a stronger one is accepted")
            guard case .completed(let after) = try await retry.submitPassword("Renewed-Pass-66"),
                case .completed(let user) = try await after.signIn()
            else {
                throw DemoError("the reset did not finish")
            }
            narrator.detail("\(user.account.username) signed in with the new password")
        }
        try await narrator.step(
            first + 3, "Native auth: MFA with an emailed code, and a customer registering their first strong method"
        ) {
            try await mfaSignIn(outbox: outbox)
            try await firstStrongMethod(outbox: outbox)
        }
    }

    /// Lee has MFA: the password, then a code sent to the backup address registered for Lee.
    private func mfaSignIn(outbox: Outbox) async throws {
        let app = try makeApp(capabilities: [.mfaRequired, .registrationRequired])
        guard
            case .mfaRequired(let awaiting, let methods) = try await app.signIn(
                username: "lee@example.com", password: "Lee-Demo-Pass7")
        else {
            throw DemoError("Lee's sign-in did not ask for a second factor")
        }
        narrator.detail(
            "the password is right; a second step is needed (methods: "
                + methods.map { "\($0.channel) \($0.loginHint ?? "")" }.joined(separator: ", ") + ")")
        guard let email = methods.first(where: { $0.channel == "email" }),
            case .verificationRequired(let state, let delivery) = try await awaiting.requestChallenge(authMethod: email),
            case .completed(let user) = try await state.submitChallenge(
                try await outbox.lastCode(to: "lee.backup@example.com"))
        else {
            throw DemoError("Lee's emailed code did not complete the sign-in")
        }
        narrator.detail("a code went to \(delivery.sentTo); with it \(user.account.username) is signed in")
    }

    /// Noah has MFA but no method: Noah registers an email address, proves it with its code, and is signed in.
    private func firstStrongMethod(outbox: Outbox) async throws {
        let app = try makeApp(capabilities: [.mfaRequired, .registrationRequired])
        let address = "noah.backup@example.com"
        guard
            case .registrationRequired(let register, let methods) = try await app.signIn(
                username: "noah@example.com", password: "Noah-Demo-Pass8"),
            let email = methods.first(where: { $0.channel == "email" }),
            case .verificationRequired(let verifying, _) = try await register.challengeAuthMethod(
                email, verificationContact: address),
            case .completed(let user) = try await verifying.submitChallenge(try await outbox.lastCode(to: address))
        else {
            throw DemoError("Noah could not register a strong method")
        }
        narrator.detail("\(user.account.username) had no second method; registered \(address) and is signed in")
    }

    /// The External ID demo app on the emulator, with the demo's clock (the server steps sign a customer in too).
    func makeApp(capabilities: NativeAuthCapabilities = []) throws -> NativeAuthApplication {
        var configuration = try PublicClientApplicationConfiguration(
            clientID: ids.externalPublicClient,
            authority: Authority(emulator.authority("contosocustomers.onmicrosoft.com").absoluteString))
        configuration.clock = clock
        configuration.sleep = { [clock] duration in await clock.sleep(duration) }
        return try NativeAuthApplication(configuration: configuration, capabilities: capabilities)
    }
}
