/// A native-auth state: it holds continuation tokens (and, until it is used, a password given up front), so printing
/// or dumping one shows only its type and no secret reaches a log through `"\(state)"`.
protocol NativeAuthSecretState: CustomStringConvertible, CustomReflectable {}

extension NativeAuthSecretState {
    /// The type's name only: the state holds secrets.
    public var description: String { String(describing: Self.self) }
    /// No children, so a dump shows no secret.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension SignInCodeRequiredState: NativeAuthSecretState {}
extension SignInPasswordRequiredState: NativeAuthSecretState {}
extension SignUpCodeRequiredState: NativeAuthSecretState {}
extension SignUpPasswordRequiredState: NativeAuthSecretState {}
extension SignUpAttributesRequiredState: NativeAuthSecretState {}
extension SignInAfterSignUpState: NativeAuthSecretState {}
extension ResetPasswordCodeRequiredState: NativeAuthSecretState {}
extension ResetPasswordRequiredState: NativeAuthSecretState {}
extension SignInAfterResetPasswordState: NativeAuthSecretState {}
extension AwaitingMFAState: NativeAuthSecretState {}
extension MFARequiredState: NativeAuthSecretState {}
extension RegisterStrongAuthState: NativeAuthSecretState {}
extension RegisterStrongAuthVerificationRequiredState: NativeAuthSecretState {}
