import Foundation

/// Runs native-auth calls for the delegate API: the work in a task, every callback on the main actor.
enum NativeDelegates {
    static func run(_ work: @escaping @Sendable () async -> Void) {
        Task { await work() }
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
