import ArgumentParser
import MSAL

/// The documented exit codes, and the one line a failure prints.
enum ExitCodes {
    static let usage: Int32 = 2
    static let interactionRequired: Int32 = 3
    static let identityPlatform: Int32 = 4
    static let network: Int32 = 5
    static let cancelled: Int32 = 130

    static func code(for error: any Error) -> ExitCode {
        if error is CancellationError { return ExitCode(cancelled) }
        if error is UsageError { return ExitCode(usage) }
        if let failure = error as? CommandFailure { return ExitCode(failure.exitCode) }
        guard let error = error as? MSALError else { return .failure }
        if error.code == .interactionRequired { return ExitCode(interactionRequired) }
        if error.code == .userCanceled || error.internalCode == .sessionCanceled { return ExitCode(cancelled) }
        if error.internalCode == .transportFailed || error.internalCode == .timedOut { return ExitCode(network) }
        if error.oauthError != nil || error.httpStatus != nil || error.code == .serverError {
            return ExitCode(identityPlatform)
        }
        return .failure
    }

    /// One line for the user: what happened (the server's `AADSTS` code and text when it answered), the next
    /// step (``NextStep``) and the correlation id; never a token.
    ///
    /// - Parameter native: the command is a `msal native` one.
    static func line(for error: any Error, native: Bool = false) -> String {
        if error is CancellationError { return "Cancelled." }
        guard let error = error as? MSALError else { return "\(error)" }
        var text = error.message
        if let next = NextStep.after(error, native: native) { text += (text.hasSuffix(".") ? " " : ". ") + next }
        if let id = error.correlationID { text += " [correlation id \(id.uuidString.lowercased())]" }
        return text
    }

    /// What `--verbose` adds under the line: the error's codes, never its secrets.
    static func details(for error: any Error) -> [String] {
        guard let error = error as? MSALError else { return ["error type: \(type(of: error))"] }
        var lines = ["MSAL error \(error.errorCode) (\(error.code.category))"]
        if let internalCode = error.internalCode {
            lines.append("internal error \(internalCode.rawValue) (\(internalCode))")
        }
        if let oauth = error.oauthError {
            lines.append("OAuth error: \(oauth)" + (error.oauthSubError.map { "/\($0)" } ?? ""))
        }
        if let status = error.httpStatus { lines.append("HTTP status \(status)") }
        if !error.stsErrorCodes.isEmpty {
            lines.append("AADSTS codes: \(error.stsErrorCodes.map(String.init).joined(separator: ", "))")
        }
        if let declined = error.declinedScopes { lines.append("declined scopes: \(declined.joined(separator: " "))") }
        if let retryAfter = error.retryAfter { lines.append("retry after \(Int(retryAfter)) s") }
        if error.claimsChallenge != nil { lines.append("the resource asked for more claims (a claims challenge)") }
        return lines
    }
}

/// A wrong setting or argument the parser could not catch (exit code 2).
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A failure of the command itself, with its exit code (e.g. an API answering 404).
struct CommandFailure: Error, CustomStringConvertible {
    let description: String
    let exitCode: Int32
    init(_ description: String, exitCode: Int32 = 1) {
        self.description = description
        self.exitCode = exitCode
    }
}
