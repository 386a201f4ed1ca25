import Foundation
import Hummingbird

/// The second factor of native sign-in: whether a user must pass MFA, the methods they have, and what the
/// token endpoint answers after the first factor (`mfa_required`, `registration_required`, or a `redirect`
/// when the client did not declare the capability the next step needs).
extension NativeAuthSupport {
    /// True when the user must pass MFA: their own ``User/mfaRequired``, else the tenant's policy.
    func needsSecondFactor(_ user: User, caller: Caller) -> Bool {
        user.needsSecondFactor(tenantSettings: caller.settings)
    }

    /// The user's strong-authentication methods, the default one (used when `/challenge` names none) first.
    func strongAuthMethods(of user: User) -> [StrongAuthMethod] { user.strongAuthMethods ?? [] }

    /// Decides what follows a successful first factor.
    ///
    /// - Parameters:
    ///   - flow: the flow the first factor was given in (sign-in, or the sign-up or password reset just completed);
    ///     its capabilities decide between the native step and a redirect.
    ///   - resource: the resource named in `registration_required`'s description.
    /// - Returns: `nil` when the user needs no second factor (tokens follow); a `redirect` answer when the client
    ///   lacks `mfa_required` (the user has a method) or `registration_required` (the user has none).
    /// - Throws: `invalid_grant` `mfa_required` (AADSTS50076) or `registration_required` (AADSTS50079), carrying a
    ///   continuation token good only at the MFA or the registration endpoints.
    func secondFactor(
        for user: User, after flow: NativeFlow, resource: String, caller: Caller, request: Request
    ) async throws(EntraError) -> Response? {
        guard needsSecondFactor(user, caller: caller) else { return nil }
        if strongAuthMethods(of: user).isEmpty {
            guard flow.capabilities.contains("registration_required") else {
                return redirect("Client is missing registration_required capability", request: request)
            }
            let token = await issue(flow.signIn(at: .registrationRequired), caller: caller)
            throw .registrationRequired(continuationToken: token, resource: resource)
        }
        guard flow.capabilities.contains("mfa_required") else {
            return redirect("Client is missing mfa_required capability", request: request)
        }
        let token = await issue(flow.signIn(at: .mfaRequired), caller: caller)
        throw .mfaRequired(continuationToken: token)
    }
}

extension StrongAuthMethod {
    /// The method as `/oauth2/v2.0/introspect` lists it, its target masked.
    var introspection: JSONValue {
        .object([
            ("id", .string(id)), ("challenge_type", .string("oob")), ("challenge_channel", .string(channel)),
            ("login_hint", .string(maskedTarget)),
        ])
    }
}
