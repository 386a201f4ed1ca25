import Foundation

/// One native-auth step on the wire (External ID's sign-in, sign-up and password-reset endpoints): the path
/// it posts to, relative to the authority, and its form. Every form starts with `client_id`; steps that let
/// the server choose a challenge declare the app's `challenge_type`.
struct NativeAuthRequest: Sendable {
    /// What the step sends.
    enum Step: Sendable {
        case signInInitiate(username: String)
        case signInChallenge(continuationToken: String)
        case signInToken(SignInGrant, scopes: [String])
        case signUpStart(username: String, password: String?, attributes: [String: String])
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
        case password(continuationToken: String, username: String, password: String)
        /// After a finished sign-up or password reset.
        case continuationToken(String, username: String)

        var grantType: String {
            switch self {
            case .oob: "oob"
            case .password: "password"
            case .continuationToken: "continuation_token"
            }
        }
    }

    /// What sign-up's continue step proves.
    enum SignUpProof: Sendable {
        case oob(code: String)
        case password(String)
        case attributes([String: String])
    }

    let clientID: String
    /// The wire value of `challenge_type`, e.g. `oob password redirect`.
    let challengeTypes: String
    let step: Step

    var path: String {
        switch step {
        case .signInInitiate: "oauth2/v2.0/initiate"
        case .signInChallenge: "oauth2/v2.0/challenge"
        case .signInToken: "oauth2/v2.0/token"
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
            return [("username", username), ("challenge_type", challengeTypes)]
        case .signInChallenge(let token), .signUpChallenge(let token), .resetChallenge(let token):
            return [("continuation_token", token), ("challenge_type", challengeTypes)]
        case .signInToken(let grant, let scopes):
            return [("grant_type", grant.grantType)] + grantFields(grant) + [
                ("scope", Scopes.parameter(scopes)), ("client_info", "true"),
            ]
        case .signUpStart(let username, let password, let attributes):
            var fields = [("username", username), ("challenge_type", challengeTypes)]
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
        case .oob(let token, let code):
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

    /// A JSON object of strings, as the `attributes` parameter carries it.
    static func json(_ attributes: [String: String]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: attributes, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
