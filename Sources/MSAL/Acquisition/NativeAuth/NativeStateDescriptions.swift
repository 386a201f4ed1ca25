// The states hold continuation tokens (and, until it is used, a password given up front): printing or dumping
// one shows only its type, so no secret reaches a log through `"\(state)"`.

extension SignInCodeRequiredState: CustomStringConvertible, CustomReflectable {
    /// The type\'s name only: the state holds secrets.
    public var description: String { "SignInCodeRequiredState" }
    /// No children, so a dump shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension SignInPasswordRequiredState: CustomStringConvertible, CustomReflectable {
    /// The type\'s name only: the state holds secrets.
    public var description: String { "SignInPasswordRequiredState" }
    /// No children, so a dump shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension SignUpCodeRequiredState: CustomStringConvertible, CustomReflectable {
    /// The type\'s name only: the state holds secrets.
    public var description: String { "SignUpCodeRequiredState" }
    /// No children, so a dump shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension SignUpPasswordRequiredState: CustomStringConvertible, CustomReflectable {
    /// The type\'s name only: the state holds secrets.
    public var description: String { "SignUpPasswordRequiredState" }
    /// No children, so a dump shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension SignUpAttributesRequiredState: CustomStringConvertible, CustomReflectable {
    /// The type\'s name only: the state holds secrets.
    public var description: String { "SignUpAttributesRequiredState" }
    /// No children, so a dump shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension SignInAfterSignUpState: CustomStringConvertible, CustomReflectable {
    /// The type\'s name only: the state holds secrets.
    public var description: String { "SignInAfterSignUpState" }
    /// No children, so a dump shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension ResetPasswordCodeRequiredState: CustomStringConvertible, CustomReflectable {
    /// The type\'s name only: the state holds secrets.
    public var description: String { "ResetPasswordCodeRequiredState" }
    /// No children, so a dump shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension ResetPasswordRequiredState: CustomStringConvertible, CustomReflectable {
    /// The type\'s name only: the state holds secrets.
    public var description: String { "ResetPasswordRequiredState" }
    /// No children, so a dump shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension SignInAfterResetPasswordState: CustomStringConvertible, CustomReflectable {
    /// The type\'s name only: the state holds secrets.
    public var description: String { "SignInAfterResetPasswordState" }
    /// No children, so a dump shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension AwaitingMFAState: CustomStringConvertible, CustomReflectable {
    /// The type\'s name only: the state holds secrets.
    public var description: String { "AwaitingMFAState" }
    /// No children, so a dump shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension MFARequiredState: CustomStringConvertible, CustomReflectable {
    /// The type\'s name only: the state holds secrets.
    public var description: String { "MFARequiredState" }
    /// No children, so a dump shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension RegisterStrongAuthState: CustomStringConvertible, CustomReflectable {
    /// The type\'s name only: the state holds secrets.
    public var description: String { "RegisterStrongAuthState" }
    /// No children, so a dump shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension RegisterStrongAuthVerificationRequiredState: CustomStringConvertible, CustomReflectable {
    /// The type\'s name only: the state holds secrets.
    public var description: String { "RegisterStrongAuthVerificationRequiredState" }
    /// No children, so a dump shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
