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
            case .mfaRequired(let state, let methods):
                return try await secondFactor(state, methods: methods)
            case .registrationRequired(let state, let methods):
                return try await registerMethod(state, methods: methods)
            case .browserRequired(let reason):
                throw Self.browserRequired(reason)
            }
        }
    }

    /// MFA: the person chooses one of their methods (when there are several), then enters the code sent there.
    private func secondFactor(_ awaiting: AwaitingMFAState, methods: [AuthMethod]) async throws
        -> NativeAuthUserAccount
    {
        console.err("A second step is needed to sign in.")
        let method = try await choose(methods, what: "Send a code to")
        var requested = try await context.status.during("Sending a code…") {
            try await awaiting.requestChallenge(authMethod: method)
        }
        var wrongAnswers = 0
        while true {
            switch requested {
            case .verificationRequired(var state, let delivery):
                console.err("A one-time code (\(delivery.codeLength) digits) was sent to \(delivery.sentTo).")
                codes: while true {
                    let answer = try await prompter.line("Code (or 'resend'): ")
                    if answer.lowercased() == "resend" {
                        requested = try await state.requestChallenge(authMethod: method)
                        break codes
                    }
                    switch try await state.submitChallenge(answer) {
                    case .completed(let user): return user
                    case .browserRequired(let reason): throw Self.browserRequired(reason)
                    case .invalidCode(let retry):
                        try Self.countWrongAnswer(&wrongAnswers)
                        console.err("That code is wrong or has expired.")
                        state = retry
                    }
                }
            case .selectionRequired(let state, let methods):
                requested = try await state.requestChallenge(authMethod: choose(methods, what: "Send a code to"))
            case .browserRequired(let reason):
                throw Self.browserRequired(reason)
            }
        }
    }

    /// Registration: the person gives an email address or a phone number for the kind they choose, then the code
    /// sent there.
    private func registerMethod(_ register: RegisterStrongAuthState, methods: [AuthMethod]) async throws
        -> NativeAuthUserAccount
    {
        console.err("Your account needs a second way to prove it is you; register one now.")
        var state = register
        var wrongAnswers = 0
        while true {
            guard let method = try await choose(methods, what: "Register") else {
                throw CommandFailure("The identity platform offered no kind of method to register.")
            }
            let contact = try await prompter.line(method.channel == "sms" ? "Phone number (+…): " : "Email address: ")
            switch try await state.challengeAuthMethod(method, verificationContact: contact) {
            case .completed(let user):
                return user
            case .invalidContact(let retry):
                try Self.countWrongAnswer(&wrongAnswers)
                console.err("That is not a valid \(method.channel == "sms" ? "phone number" : "email address").")
                state = retry
            case .verificationRequired(var verifying, let delivery):
                console.err("A one-time code (\(delivery.codeLength) digits) was sent to \(delivery.sentTo).")
                while true {
                    let answer = try await prompter.line("Code (or 'resend'): ")
                    if answer.lowercased() == "resend" {
                        guard
                            case .verificationRequired(let again, _) = try await verifying.challengeAuthMethod(
                                method, verificationContact: contact)
                        else { throw CommandFailure("No new code could be sent; start again.") }
                        verifying = again
                        continue
                    }
                    switch try await verifying.submitChallenge(answer) {
                    case .completed(let user): return user
                    case .browserRequired(let reason): throw Self.browserRequired(reason)
                    case .invalidCode(let retry):
                        try Self.countWrongAnswer(&wrongAnswers)
                        console.err("That code is wrong or has expired.")
                        verifying = retry
                    }
                }
            case .browserRequired(let reason):
                throw Self.browserRequired(reason)
            }
        }
    }

    /// The only method, or the one the person picks by number.
    private func choose(_ methods: [AuthMethod], what: String) async throws -> AuthMethod? {
        guard methods.count > 1 else { return methods.first }
        for (number, method) in methods.enumerated() {
            console.err("  \(number + 1). \(method.channel)\(method.loginHint.map { " \($0)" } ?? "")")
        }
        while true {
            let answer = try await prompter.line("\(what) (1-\(methods.count)): ")
            if let number = Int(answer), methods.indices.contains(number - 1) { return methods[number - 1] }
            console.err("Answer with a number from 1 to \(methods.count).")
        }
    }

    func signUp(_ first: SignUpResult, username: String, retry: (String) async throws -> SignUpResult) async throws
        -> SignInAfterSignUpState
    {
        var result = first
        var wrongAnswers = 0
        // The attributes the tenant asked for, with their formats, to say them again when a value is refused.
        var asked: [String: RequiredAttribute] = [:]
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
                for attribute in attributes { asked[attribute.name] = attribute }
                result = try await state.submitAttributes(ask(attributes.filter(\.required)))
            case .attributesInvalid(let names, let state):
                try Self.countWrongAnswer(&wrongAnswers)
                guard let state else {
                    throw UsageError(
                        "The tenant does not accept the attribute(s) \(names.joined(separator: ", ")); check --attribute."
                    )
                }
                let refused = names.map { asked[$0] ?? RequiredAttribute(name: $0) }
                console.err("Not accepted: \(refused.map(Self.refusal).joined(separator: "; ")).")
                result = try await state.submitAttributes(ask(refused))
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

    /// Asks for each attribute, again until the answer reads as the attribute's type (a number, yes or no).
    private func ask(_ attributes: [RequiredAttribute]) async throws -> [String: AttributeValue] {
        var values: [String: AttributeValue] = [:]
        for attribute in attributes {
            while values[attribute.name] == nil {
                let hint =
                    attribute.type == "boolean"
                    ? " (yes/no)"
                    : attribute.type == "number" ? " (a number)" : attribute.regex.map { " (matching \($0))" } ?? ""
                values[attribute.name] = AttributeValue(
                    try await prompter.line("\(attribute.name)\(hint): "), type: attribute.type)
                if values[attribute.name] == nil { console.err("That is not \(hint.dropFirst(2).dropLast()).") }
            }
        }
        return values
    }

    /// Why the tenant refused an attribute's value: the format it asked for, when it gave one.
    static func refusal(_ attribute: RequiredAttribute) -> String {
        attribute.regex.map { "\(attribute.name) (the value must match \($0))" }
            ?? "\(attribute.name) (the tenant refused the value; check its format)"
    }

    static func explain(_ problem: PasswordProblem) -> String {
        switch problem {
        case .tooWeak: "That password is too weak: use at least three of lower case, upper case, digits and symbols."
        case .tooShort: "That password is too short: use at least 8 characters (Entra's rule for customers)."
        case .tooLong: "That password is too long: use at most 256 characters (Entra's rule for customers)."
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
