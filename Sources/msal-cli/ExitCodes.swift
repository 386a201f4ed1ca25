import ArgumentParser
import MSAL

/// The documented exit codes, from the error that ended a command.
enum ExitCodes {
    static let interactionRequired: Int32 = 3
    static let identityPlatform: Int32 = 4
    static let network: Int32 = 5
    static let cancelled: Int32 = 130

    static func code(for error: any Error) -> ExitCode {
        if error is CancellationError { return ExitCode(cancelled) }
        guard let error = error as? MSALError else { return .failure }
        if error.code == .interactionRequired { return ExitCode(interactionRequired) }
        if error.code == .userCanceled { return ExitCode(cancelled) }
        if error.internalCode == .transportFailed || error.internalCode == .timedOut { return ExitCode(network) }
        if error.oauthError != nil || error.httpStatus != nil || error.code == .serverError { return ExitCode(identityPlatform) }
        return .failure
    }

    /// One line for the user: the message and the correlation id; never a token.
    static func line(for error: any Error) -> String {
        guard let error = error as? MSALError else { return "\(error)" }
        var text = error.message
        if let oauth = error.oauthError { text += " (\(oauth)" + (error.oauthSubError.map { "/\($0)" } ?? "") + ")" }
        if let id = error.correlationID { text += " [correlation id \(id.uuidString.lowercased())]" }
        return text
    }
}
