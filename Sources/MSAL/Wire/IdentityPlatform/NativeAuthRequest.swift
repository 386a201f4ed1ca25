import Foundation

/// One native-auth step on the wire (External ID's sign-in, sign-up and password-reset endpoints): the path
/// it posts to, relative to the authority, and its form. Every form starts with `client_id`; steps that let
/// the server choose a challenge declare the app's `challenge_type`.
struct NativeAuthRequest: Sendable {
    /// What the step sends.
    enum Step: Sendable {
        case signInInitiate(username: String)
        /// Also asks for an MFA code, for the method `methodID` names (the default one without it).
        case signInChallenge(continuationToken: String, methodID: String? = nil)
        case signInToken(SignInGrant, scopes: [String], claims: String? = nil)
        /// The user's strong authentication methods, after `mfa_required`.
        case signInIntrospect(continuationToken: String)
        /// The methods a user without one may register, after `registration_required`.
        case registerIntrospect(continuationToken: String)
        /// Sends a code to the contact being registered.
        case registerChallenge(continuationToken: String, channel: String, target: String)
        /// Proves the contact with its code, or with none after `preverified`.
        case registerContinue(continuationToken: String, code: String?)
        case signUpStart(username: String, password: String?, attributes: [String: AttributeValue])
        case signUpChallenge(continuationToken: String)
        case signUpContinue(continuationToken: String, SignUpProof)
        case resetStart(username: String)
        case resetChallenge(continuationToken: String)
        case resetContinue(continuationToken: String, code: String)
        case resetSubmit(continuationToken: String, newPassword: String)
        case resetPoll(continuationToken: String)
    }

    /// How a native sign-in redeems its continuation token at the token endpoint.
    enum SignInGrant: Sendable {
        case oob(continuationToken: String, code: String)
        /// The second factor's code (MSAL for iOS 2.x's `mfa_oob`).
        case mfaOOB(continuationToken: String, code: String)
        case password(continuationToken: String, username: String, password: String)
        /// After a finished sign-up or password reset.
        case continuationToken(String, username: String)

        var grantType: String {
            switch self {
            case .oob: "oob"
            case .mfaOOB: "mfa_oob"
            case .password: "password"
            case .continuationToken: "continuation_token"
            }
        }
    }

    /// What sign-up's continue step proves.
    enum SignUpProof: Sendable {
        case oob(code: String)
        case password(String)
        case attributes([String: AttributeValue])
    }

    let clientID: String
    /// The wire value of `challenge_type`, e.g. `oob password redirect`.
    let challengeTypes: String
    /// The wire value of `capabilities` (`mfa_required registration_required`), sent when a flow starts; `nil` when
    /// the app declares none.
    let capabilities: String?
    let step: Step

    var path: String {
        switch step {
        case .signInInitiate: "oauth2/v2.0/initiate"
        case .signInChallenge: "oauth2/v2.0/challenge"
        case .signInToken: "oauth2/v2.0/token"
        case .signInIntrospect: "oauth2/v2.0/introspect"
        case .registerIntrospect: "register/v1.0/introspect"
        case .registerChallenge: "register/v1.0/challenge"
        case .registerContinue: "register/v1.0/continue"
        case .signUpStart: "signup/v1.0/start"
        case .signUpChallenge: "signup/v1.0/challenge"
        case .signUpContinue: "signup/v1.0/continue"
        case .resetStart: "resetpassword/v1.0/start"
        case .resetChallenge: "resetpassword/v1.0/challenge"
        case .resetContinue: "resetpassword/v1.0/continue"
        case .resetSubmit: "resetpassword/v1.0/submit"
        case .resetPoll: "resetpassword/v1.0/poll_completion"
        }
    }

    var form: [(String, String)] { [("client_id", clientID)] + fields }

    private var fields: [(String, String)] {
        switch step {
        case .signInInitiate(let username), .resetStart(let username):
            return [("username", username), ("challenge_type", challengeTypes)] + capabilityFields
        case .signInChallenge(let token, let methodID):
            return [("continuation_token", token), ("challenge_type", challengeTypes)]
                + (methodID.map { [("id", $0)] } ?? [])
        case .signUpChallenge(let token), .resetChallenge(let token):
            return [("continuation_token", token), ("challenge_type", challengeTypes)]
        case .signInToken(let grant, let scopes, let claims):
            return [("grant_type", grant.grantType)] + grantFields(grant) + [
                ("scope", Scopes.parameter(scopes)), ("client_info", "true"),
            ] + (claims.map { [("claims", $0)] } ?? [])
        case .signInIntrospect(let token), .registerIntrospect(let token):
            return [("continuation_token", token)]
        case .registerChallenge(let token, let channel, let target):
            return [
                ("continuation_token", token), ("challenge_type", "oob"), ("challenge_target", target),
                ("challenge_channel", channel),
            ]
        case .registerContinue(let token, let code?):
            return [("continuation_token", token), ("grant_type", "oob"), ("oob", code)]
        case .registerContinue(let token, nil):
            return [("continuation_token", token), ("grant_type", "continuation_token")]
        case .signUpStart(let username, let password, let attributes):
            var fields = [("username", username), ("challenge_type", challengeTypes)] + capabilityFields
            if let password { fields.append(("password", password)) }
            if !attributes.isEmpty { fields.append(("attributes", Self.json(attributes))) }
            return fields
        case .signUpContinue(let token, .oob(let code)):
            return [("continuation_token", token), ("grant_type", "oob"), ("oob", code)]
        case .signUpContinue(let token, .password(let password)):
            return [("continuation_token", token), ("grant_type", "password"), ("password", password)]
        case .signUpContinue(let token, .attributes(let attributes)):
            return [("continuation_token", token), ("grant_type", "attributes"), ("attributes", Self.json(attributes))]
        case .resetContinue(let token, let code):
            return [("continuation_token", token), ("grant_type", "oob"), ("oob", code)]
        case .resetSubmit(let token, let newPassword):
            return [("continuation_token", token), ("new_password", newPassword)]
        case .resetPoll(let token):
            return [("continuation_token", token)]
        }
    }

    private func grantFields(_ grant: SignInGrant) -> [(String, String)] {
        switch grant {
        case .oob(let token, let code), .mfaOOB(let token, let code):
            [("continuation_token", token), ("oob", code)]
        case .password(let token, let username, let password):
            [
                ("continuation_token", token), ("username", username), ("password", password),
                ("challenge_type", challengeTypes),
            ]
        case .continuationToken(let token, let username):
            [("continuation_token", token), ("username", username), ("challenge_type", challengeTypes)]
        }
    }

    private var capabilityFields: [(String, String)] { capabilities.map { [("capabilities", $0)] } ?? [] }

    /// A JSON object, each value as its own JSON type, as the `attributes` parameter carries it.
    static func json(_ attributes: [String: AttributeValue]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(attributes)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
