import Foundation

extension MSALError {
    /// The Azure AD B2C error code the server's description starts with (`AADB2C90118`, `AADB2C90091`), or `nil`.
    ///
    /// B2C ends an interactive request with `access_denied` (``Code/userCanceled``, as MSAL reports it) both when
    /// the user cancels and when they choose "Forgot your password?"; the code tells them apart.
    public var b2cErrorCode: String? {
        guard let start = message.range(of: "AADB2C") else { return nil }
        let digits = message[start.upperBound...].prefix { $0.isNumber }
        return digits.isEmpty ? nil : "AADB2C" + digits
    }

    /// The user chose "Forgot your password?" on a B2C sign-up or sign-in user flow (`AADB2C90118`): the app
    /// should start its password reset policy, an interactive sign-in with that policy's authority.
    public var isB2CPasswordResetRequested: Bool { b2cErrorCode == "AADB2C90118" }
}
