import Foundation
import MSAL

/// Walks a native-auth flow with the person at the terminal: asks for what each step needs, says what
/// went wrong in words, and gives up after a few wrong answers.
struct NativeConversation: Sendable {
    /// Wrong answers (codes, passwords, attributes) allowed before giving up.
    static let attempts = 5

    let context: CommandContext
    let prompter: Prompter

    init(_ context: CommandContext) {
        self.context = context
        prompter = Prompter(console: context.console)
    }

    private var console: Console { context.console }

    /// Asks for a code and submits it; `resend` asks for a new one instead.
    private func code<Result>(
        _ delivery: CodeDelivery?, submit: (String) async throws -> Result,
        resend: () async throws -> Result
    ) async throws -> Result {
        if let delivery {
            console.err("A one-time code (\(delivery.codeLength) digits) was sent to \(delivery.sentTo).")
        }
        let answer = try await prompter.line("Code (or 'resend'): ")
        return answer.lowercased() == "resend" ? try await resend() : try await submit(answer)
    }

    func signIn(_ first: SignInResult, username: String) async throws -> NativeAuthUserAccount {
        var result = first
        var wrongAnswers = 0
        while true {
            switch result {
            case .completed(let user):
                return user
            case .codeRequired(let state, let delivery):
                result = try await code(delivery, submit: state.submitCode, resend: state.resendCode)
            case .invalidCode(let state):
                try Self.countWrongAnswer(&wrongAnswers)
                console.err("That code is wrong or has expired.")
                result = try await code(nil, submit: state.submitCode, resend: state.resendCode)
            case .passwordRequired(let state):
                result = try await state.submitPassword(prompter.secret("Password: "))
            case .invalidPassword(let state):
                try Self.countWrongAnswer(&wrongAnswers)
                console.err("Wrong password.")
                result = try await state.submitPassword(prompter.secret("Password: "))
            case .userNotFound:
                throw CommandFailure(
                    "No account for \(username) here; sign up with `msal native signup --email \(username)`.")
            case .browserRequired(let reason):
                throw Self.browserRequired(reason)
            }
        }
    }

    func signUp(_ first: SignUpResult, username: String, retry: (String) async throws -> SignUpResult) async throws
        -> SignInAfterSignUpState
    {
        var result = first
        var wrongAnswers = 0
        while true {
            switch result {
            case .completed(let state):
                return state
            case .codeRequired(let state, let delivery):
                result = try await code(delivery, submit: state.submitCode, resend: state.resendCode)
            case .invalidCode(let state):
                try Self.countWrongAnswer(&wrongAnswers)
                console.err("That code is wrong or has expired.")
                result = try await code(nil, submit: state.submitCode, resend: state.resendCode)
            case .passwordRequired(let state):
                result = try await state.submitPassword(prompter.secret("Choose a password: "))
            case .invalidPassword(let problem, let state):
                try Self.countWrongAnswer(&wrongAnswers)
                console.err(Self.explain(problem))
                let password = try await prompter.secret("Choose a password: ")
                if let state {
                    result = try await state.submitPassword(password)
                } else {
                    result = try await retry(password)
                }
            case .attributesRequired(let state, let attributes):
                result = try await state.submitAttributes(ask(attributes.filter(\.required).map(\.name)))
            case .attributesInvalid(let names, let state):
                try Self.countWrongAnswer(&wrongAnswers)
                guard let state else {
                    throw UsageError(
                        "The tenant does not accept the attribute(s) \(names.joined(separator: ", ")); check --attribute."
                    )
                }
                console.err("Not accepted: \(names.joined(separator: ", ")).")
                result = try await state.submitAttributes(ask(names))
            case .userAlreadyExists:
                throw CommandFailure(
                    "\(username) already has an account; sign in with `msal native signin --email \(username)`.")
            case .browserRequired(let reason):
                throw Self.browserRequired(reason)
            }
        }
    }

    func resetPassword(_ first: ResetPasswordResult, username: String, newPassword: String?) async throws
        -> SignInAfterResetPasswordState
    {
        var result = first
        var given = newPassword
        var wrongAnswers = 0
        while true {
            switch result {
            case .completed(let state):
                return state
            case .codeRequired(let state, let delivery):
                result = try await code(delivery, submit: state.submitCode, resend: state.resendCode)
            case .invalidCode(let state):
                try Self.countWrongAnswer(&wrongAnswers)
                console.err("That code is wrong or has expired.")
                result = try await code(nil, submit: state.submitCode, resend: state.resendCode)
            case .newPasswordRequired(let state):
                var password = given ?? ""
                if given == nil { password = try await prompter.secret("New password: ") }
                given = nil
                console.err("Changing the password…")
                result = try await state.submitPassword(password)
            case .invalidPassword(let problem, let state):
                try Self.countWrongAnswer(&wrongAnswers)
                console.err(Self.explain(problem))
                result = try await state.submitPassword(prompter.secret("New password: "))
            case .userNotFound:
                throw CommandFailure("No account for \(username) here.")
            case .userHasNoPassword:
                throw CommandFailure("\(username) signs in with email codes and has no password to reset.")
            case .browserRequired(let reason):
                throw Self.browserRequired(reason)
            }
        }
    }

    /// Counts a wrong answer; the fifth ends the conversation.
    private static func countWrongAnswer(_ count: inout Int) throws {
        count += 1
        if count >= attempts { throw CommandFailure("Too many wrong answers; start again.") }
    }

    private func ask(_ names: [String]) async throws -> [String: String] {
        var values: [String: String] = [:]
        for name in names { values[name] = try await prompter.line("\(name): ") }
        return values
    }

    static func explain(_ problem: PasswordProblem) -> String {
        switch problem {
        case .tooWeak: "That password is too weak: use at least three of lower case, upper case, digits and symbols."
        case .tooShort: "That password is too short."
        case .tooLong: "That password is too long."
        case .recentlyUsed: "That password was used recently; choose another."
        case .banned: "That password is too common; choose another."
        case .invalid: "That password contains something not allowed (for example your name)."
        }
    }

    static func browserRequired(_ reason: String) -> CommandFailure {
        CommandFailure(
            "This needs the browser (\(reason)); use `msal login` instead.", exitCode: ExitCodes.interactionRequired)
    }
}
