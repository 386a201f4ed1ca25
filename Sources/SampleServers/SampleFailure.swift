import HTTPTypes

/// A request a sample could not serve, as its user reads it and as its log records it: a route throws this to say
/// what happened and what to do next (``message``), and why (``cause``, for the log only).
package struct SampleFailure: Error, Sendable {
    /// The status the request is answered with.
    package let status: HTTPResponse.Status
    /// A short name a program can match (`todo_api_unreachable`).
    package let error: String
    /// What happened, in the user's terms, and the next step.
    package let message: String
    /// What the log records: the underlying error or the other service's answer, never a token, a code, a password
    /// or a username.
    package let cause: String

    /// A failure answered with `status`.
    package init(_ status: HTTPResponse.Status, _ error: String, message: String, cause: String) {
        self.status = status
        self.error = error
        self.message = message
        self.cause = cause
    }
}
