import EmulatorAutomation
import Foundation
import Locking
import Logging
import MSAL
import Testing

/// Native-auth helpers: an app on the External ID tenant, the codes in the emulator's outbox, and
/// unwrapping the result a step is expected to give.
extension Harness {
    static let jane = (username: "jane@example.com", password: "Jane-Demo-Pass4")
    static let sam = "sam@example.com"
    /// A customer with MFA and two registered methods (an email and a phone).
    static let lee = (username: "lee@example.com", password: "Lee-Demo-Pass7")
    /// A customer with MFA and no method registered yet.
    static let noah = (username: "noah@example.com", password: "Noah-Demo-Pass8")

    var api1Scopes: [String] { ["api://\(ids.api1)/ToDoList.Read", "api://\(ids.api1)/ToDoList.ReadWrite"] }
    var api2Scopes: [String] { ["api://\(ids.api2)/ToDoList.Read", "api://\(ids.api2)/ToDoList.ReadWrite"] }

    func nativeApp(
        _ challengeTypes: NativeAuthChallengeTypes = [.oob, .password], capabilities: NativeAuthCapabilities = [],
        cache: TokenCache = TokenCache(), logger: Logger? = nil, sleeps: SleepLog? = nil
    ) throws -> NativeAuthApplication {
        var configuration = try PublicClientApplicationConfiguration(
            clientID: ids.externalPublicClient, authority: authority("contosocustomers.onmicrosoft.com"))
        configuration.clock = clock
        configuration.cache = cache
        configuration.sleep = { duration in
            sleeps?.record(duration)
            await Task.yield()
        }
        if let logger { configuration.logger = logger }
        return try NativeAuthApplication(
            configuration: configuration, challengeTypes: challengeTypes, capabilities: capabilities)
    }

    /// The last one-time code the emulator "emailed" to `address`.
    func lastCode(to address: String) async throws -> String {
        try await Outbox(base: emulator.baseURL, http: http).lastCode(to: address)
    }
}

/// Records the waits the library asked for, instead of waiting.
final class SleepLog: Sendable {
    private let durations = Locked<[Duration]>([])
    func record(_ duration: Duration) { durations.withLock { $0.append(duration) } }
    var all: [Duration] { durations.withLock { $0 } }
}

/// Unwraps the case a step must produce, failing the test with what came instead.
enum Expect {
    static func completed(_ result: SignInResult, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> NativeAuthUserAccount
    {
        guard case .completed(let account) = result else { throw Unexpected(result, sourceLocation) }
        return account
    }

    static func code(_ result: SignInResult, sourceLocation: SourceLocation = #_sourceLocation) throws -> (
        SignInCodeRequiredState, CodeDelivery
    ) {
        guard case .codeRequired(let state, let delivery) = result else { throw Unexpected(result, sourceLocation) }
        return (state, delivery)
    }

    static func password(_ result: SignInResult, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> SignInPasswordRequiredState
    {
        guard case .passwordRequired(let state) = result else { throw Unexpected(result, sourceLocation) }
        return state
    }

    static func code(_ result: SignUpResult, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> SignUpCodeRequiredState
    {
        guard case .codeRequired(let state, _) = result else { throw Unexpected(result, sourceLocation) }
        return state
    }

    static func completed(_ result: SignUpResult, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> SignInAfterSignUpState
    {
        guard case .completed(let state) = result else { throw Unexpected(result, sourceLocation) }
        return state
    }

    static func code(_ result: ResetPasswordResult, sourceLocation: SourceLocation = #_sourceLocation) throws
        -> ResetPasswordCodeRequiredState
    {
        guard case .codeRequired(let state, _) = result else { throw Unexpected(result, sourceLocation) }
        return state
    }

    struct Unexpected: Error, CustomStringConvertible {
        let description: String
        init(_ value: Any, _ location: SourceLocation) { description = "unexpected result \(value) at \(location)" }
    }
}
