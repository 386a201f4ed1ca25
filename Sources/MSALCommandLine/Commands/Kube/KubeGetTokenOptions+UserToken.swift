import MSAL

/// The signed-in user's token for `msal kube get-token` (device code, interactive and ropc).
extension KubeGetTokenOptions {
    /// The signed-in user's token, silently when the cache allows, else by signing in when the user can answer.
    ///
    /// - Throws: ``CommandFailure`` (exit code 3) with the command that signs in, when a sign-in is needed and
    ///   kubectl has no terminal to offer.
    static func userToken(_ context: CommandContext, scopes: [String], deviceCode: Bool, interactive: Bool)
        async throws -> AuthenticationResult
    {
        if let account = try await context.account(username: nil) {
            do {
                return try await context.app.acquireTokenSilently(SilentParameters(scopes: scopes, account: account))
            } catch let error as MSALError where error.code == .interactionRequired && interactive {
                // Signed out of this app, or the refresh token expired: sign in below.
            } catch let error as MSALError where error.code == .interactionRequired {
                throw signInFirst(context, scopes: scopes, deviceCode: deviceCode)
            }
        }
        guard interactive else { throw signInFirst(context, scopes: scopes, deviceCode: deviceCode) }
        if !deviceCode { return try await context.signIn(InteractiveParameters(scopes: scopes)) }
        let result = try await context.app.acquireTokenByDeviceCode(DeviceCodeParameters(scopes: scopes)) { info in
            context.console.err(info.message)
            context.status.show("Waiting for you to enter the code \(info.userCode)…")
        }
        context.status.clear()
        return result
    }

    /// `ropc`: the user's cached token while it can be had silently, else a sign-in with the password.
    static func passwordToken(
        _ context: CommandContext, scopes: [String], credential: (username: String, password: String)
    ) async throws -> AuthenticationResult {
        if try await context.app.hasCachedAccount(username: credential.username),
            let account = try await context.app.account(username: credential.username)
        {
            do {
                return try await context.app.acquireTokenSilently(SilentParameters(scopes: scopes, account: account))
            } catch let error as MSALError where error.code == .interactionRequired {
                // The refresh token is gone or expired: sign in with the password again below.
            }
        }
        return try await context.app.acquireTokenByUsernamePassword(
            UsernamePasswordParameters(scopes: scopes, username: credential.username, password: credential.password))
    }

    /// Nobody is signed in for the cluster and kubectl cannot prompt: the `msal login` that signs in (exit code 3).
    static func signInFirst(_ context: CommandContext, scopes: [String], deviceCode: Bool) -> CommandFailure {
        let settings = context.settings
        let login =
            ["msal login"] + (deviceCode ? ["--device-code"] : [])
            + ["--authority", settings.authority.value, "--client-id", settings.clientID.value, "--scopes"] + scopes
            + (settings.cachePath.origin == .flag ? ["--cache", settings.cachePath.value] : [])
        return CommandFailure(
            "Nobody is signed in for this cluster, and kubectl runs msal without a terminal to sign in with; "
                + "sign in first: \(login.joined(separator: " "))",
            exitCode: ExitCodes.interactionRequired)
    }
}
