import MSAL

/// The sentence a failure's line ends with: the `msal` command or option that fixes it, for the failures the
/// library reports (the command's own failures say theirs).
enum NextStep {
    /// What to do after `error`, or `nil` when the message says all there is.
    ///
    /// - Parameter native: the command is a `msal native` one, whose users sign in with `msal native signin`.
    static func after(_ error: MSALError, native: Bool) -> String? {
        if let failure = error.transportFailure { return after(failure) }
        if error.oauthError == "invalid_tenant" {
            return "Set the authority with --authority URL or MSAL_AUTHORITY."
        }
        guard error.code == .interactionRequired else { return nil }
        if native { return "Sign in again: `msal native signin --email …`." }
        let consent =
            error.stsErrorCodes.contains(65001) || error.oauthSubError == "consent_required"
            || error.oauthError == "consent_required"
        if consent {
            return "Consent in the browser: run the command again with --interactive, or `msal login --scopes SCOPE…`."
        }
        return "Sign in again: `msal login`."
    }

    private static func after(_ failure: MSALError.TransportFailure) -> String {
        switch failure.reason {
        case .untrustedCertificate:
            "To trust its CA: --ca-bundle FILE (or MSAL_CA_BUNDLE), or SSL_CERT_FILE; "
                + "`identity-emulator --tls` prints its CA's file."
        case .connectionRefused, .hostNotFound, .handshakeFailed, .connectionClosed:
            "To use another authority: --authority URL or MSAL_AUTHORITY."
        }
    }
}
