import Foundation

/// Runs native-auth calls for the delegate API: the work in a task, every callback on the main actor.
///
/// Every method of a delegate protocol other than its error method is optional, as in MSAL for iOS: its default
/// reports through the error method that the app lacks it. Which error method is the call's to say (an object may
/// adopt several delegate protocols, as the samples' view controllers do), so each call sets its own for its task.
enum NativeDelegates {
    /// The running call's error method, taking a message: set by ``run(failingWith:_:)`` for the call's task.
    @TaskLocal static var failure: Failure?

    /// Reports a message as a general error through one delegate's error method.
    typealias Failure = @MainActor @Sendable (String) -> Void

    /// Runs `work` in a task in which a delegate's missing method, or a result it has no method for, is reported
    /// through `fail`: the error method of the delegate the call was given.
    static func run(
        failingWith fail: @escaping Failure,
        _ work: @escaping @Sendable () async -> Void
    ) {
        Task { await $failure.withValue(fail) { await work() } }
    }

    /// Reports `message` as a general error through the running call's error method.
    @MainActor static func fail(_ message: String) {
        failure?(message)
    }

    /// Reports through the running call's error method that the delegate does not implement `method`.
    @MainActor static func lacks(_ method: String) {
        fail(notImplemented(method))
    }

    /// Runs a request for a new code and reports where the code went through `sent`; no new code, an error, or a
    /// delegate method the app lacks goes to `failed` (the delegate's error method) as a ``ResendCodeError``.
    static func resendCode<State: Sendable>(
        _ resend: @escaping @Sendable () async throws -> (State, CodeDelivery)?,
        failed: @escaping @MainActor @Sendable (ResendCodeError) -> Void,
        sent: @escaping @MainActor @Sendable (State, String, MSALNativeAuthChannelType, Int) -> Void
    ) {
        let fail: Failure = { failed(ResendCodeError(message: $0)) }
        run(failingWith: fail) {
            do {
                guard let (state, delivery) = try await resend() else { return await failed(ResendCodeError()) }
                await sent(state, delivery.sentTo, MSALNativeAuthChannelType(delivery.channel), delivery.codeLength)
            } catch {
                await failed(ResendCodeError(error))
            }
        }
    }

    /// True for the error a start gives for a username the server calls invalid.
    static func isInvalidUsername(_ error: any Error) -> Bool {
        (error as? MSALError)?.internalCode == .invalidParameter
    }

    /// The message MSAL gives when a result needs a delegate method the app did not implement.
    static func notImplemented(_ method: String) -> String {
        "MSALNativeAuth has called the delegate method \(method) that has not been implemented"
    }
}

/// Where a one-time code went (MSAL's `MSALNativeAuthChannelType`).
public final class MSALNativeAuthChannelType: Sendable {
    /// `email` or `sms`.
    public let value: String
    init(_ value: String) { self.value = value }
    /// Whether the code went to an email address.
    public var isEmailType: Bool { value == "email" }
    /// Whether the code went to a phone by text message.
    public var isSMSType: Bool { value == "sms" }
}

/// A user attribute sign-up needs (MSAL's `MSALNativeAuthRequiredAttribute`).
public typealias MSALNativeAuthRequiredAttribute = RequiredAttribute
