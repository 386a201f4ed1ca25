import Foundation
import Hummingbird

/// The token endpoint's native-auth grants: `password` and `oob` with a continuation token (the first factor),
/// `mfa_oob` (or `oob`) with the code of an MFA challenge (the second factor), and `continuation_token` after
/// sign-up, a password reset or a just-in-time method registration.
///
/// After a first factor, a user who must pass MFA gets `mfa_required` or `registration_required` (or a redirect)
/// instead of tokens (``NativeAuthSupport/secondFactor(for:after:resource:caller:request:)``).
struct NativeTokenGrants: Sendable {
    let support: NativeAuthSupport
    let minting: TokenMinting

    /// True when the form is a native-auth request rather than ROPC or another grant.
    static func handles(_ grantType: String, form: FormBody) -> Bool {
        switch grantType {
        case "oob", "mfa_oob", "continuation_token": true
        case "password": form.nonEmpty("continuation_token") != nil
        default: false
        }
    }

    func token(_ c: GrantContext, grantType: String) async throws(EntraError) -> Response {
        let caller = try support.caller(segment: c.segment, form: c.form)
        // Scopes first: a typo there must not spend a correct sign-in's continuation token.
        let scopes = try ScopeSet(
            parsing: c.form.nonEmpty("scope") ?? "openid offline_access profile", index: support.core.state.index)
        let kinds: Set<NativeFlow.Kind> =
            grantType == "continuation_token" ? [.signUp, .resetPassword, .signIn] : [.signIn]
        var (token, flow) = try await support.take(c.form, kinds: kinds, caller: caller)
        let index = support.core.state.index
        guard let user = index.user(named: flow.username),
            let membership = index.membership(of: user, tenantID: caller.tenant.id)
        else {
            throw .nativeUserNotFound
        }
        // False once the grant itself is the second factor.
        var firstFactor = true
        do throws(EntraError) {
            switch (grantType, flow.stage) {
            case ("password", .passwordChallenge):
                guard let password = c.form.nonEmpty("password") else { throw .missingParameter("password") }
                guard user.password != nil else { throw .userHasNoPassword }
                try support.core.state.checkPassword(password, of: user)
            case ("oob", .codeSent):
                try support.verify(code: c.form.nonEmpty("oob"), flow: &flow)
            case ("mfa_oob", .mfaCodeSent), ("oob", .mfaCodeSent):
                try support.verify(code: c.form.nonEmpty("oob"), flow: &flow)
                firstFactor = false
            case ("continuation_token", .completed(let userID)):
                guard userID.lowercased() == user.id.lowercased(),
                    c.form.nonEmpty("username").map({
                        $0.caseInsensitiveCompare(user.userPrincipalName) == .orderedSame
                    }) ?? true
                else { throw .invalidContinuationToken }
                // A sign-in flow completes only after a method registration, which verified a second factor.
                firstFactor = flow.kind != .signIn
            default:
                throw .invalidContinuationToken
            }
        } catch {
            if error.error == "invalid_grant" { await support.core.state.restoreContinuation(token, flow) }
            throw error
        }
        if firstFactor {
            let resource = scopes.primaryResource(index)?.clientId ?? caller.client.clientId
            if let redirect = try await support.secondFactor(
                for: user, after: flow, resource: resource, caller: caller, request: c.request)
            {
                return redirect
            }
        }
        return try await minting.userTokens(c, membership: membership, scopes: scopes, nonce: nil)
    }
}
