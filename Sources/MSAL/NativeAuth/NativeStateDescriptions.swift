// The states hold continuation tokens (and, until it is used, a password given up front): printing or dumping
// one shows only its type, so no secret reaches a log through `"\(state)"`.

extension SignInCodeRequiredState: CustomStringConvertible, CustomReflectable {
    public var description: String { "SignInCodeRequiredState" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension SignInPasswordRequiredState: CustomStringConvertible, CustomReflectable {
    public var description: String { "SignInPasswordRequiredState" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension SignUpCodeRequiredState: CustomStringConvertible, CustomReflectable {
    public var description: String { "SignUpCodeRequiredState" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension SignUpPasswordRequiredState: CustomStringConvertible, CustomReflectable {
    public var description: String { "SignUpPasswordRequiredState" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension SignUpAttributesRequiredState: CustomStringConvertible, CustomReflectable {
    public var description: String { "SignUpAttributesRequiredState" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension SignInAfterSignUpState: CustomStringConvertible, CustomReflectable {
    public var description: String { "SignInAfterSignUpState" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension ResetPasswordCodeRequiredState: CustomStringConvertible, CustomReflectable {
    public var description: String { "ResetPasswordCodeRequiredState" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension ResetPasswordRequiredState: CustomStringConvertible, CustomReflectable {
    public var description: String { "ResetPasswordRequiredState" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension SignInAfterResetPasswordState: CustomStringConvertible, CustomReflectable {
    public var description: String { "SignInAfterResetPasswordState" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}
