import Foundation
import HTTPTypes
import OutsideJSON

/// A native-auth answer: the success fields, or the error body an SDK acts on.
struct NativeAuthAnswer: Sendable {
    /// A 4xx error body with native auth's extra members.
    struct Failure: Sendable {
        let oauth: OAuthErrorResponse
        /// The answer's status, a 4xx.
        let httpStatus: Int
        let continuationToken: String?
        let requiredAttributes: [RequiredAttribute]
        let invalidAttributes: [String]

        var error: String { oauth.error }
        var subError: String? { oauth.subError }
        var firstCode: Int? { oauth.errorCodes.first }

        /// `invalid_grant` with `invalid_oob_value`: the one-time code was wrong or has expired.
        var isInvalidCode: Bool { error == "invalid_grant" && subError == "invalid_oob_value" }

        /// The password rule an `invalid_grant` names (`password_too_weak`…), or `nil`.
        var passwordProblem: PasswordProblem? {
            error == "invalid_grant" ? subError.flatMap(PasswordProblem.init(rawValue:)) : nil
        }
    }

    let continuationToken: String?
    let challengeType: String?
    let redirectReason: String?
    let challengeTargetLabel: String?
    /// The contact being registered, as the registration challenge echoes it.
    let challengeTarget: String?
    let challengeChannel: String?
    /// The strong authentication methods an `introspect` lists.
    let methods: [AuthMethod]
    let codeLength: Int?
    let pollInterval: Int?
    let status: String?
    let failure: Failure?
    /// The raw body, for the token endpoint's success.
    let body: Data

    /// The answer `response` brought in `body`.
    ///
    /// - Throws: ``MSALError`` `invalidResponse` when the body is not a JSON object within ``JSONLimits/message``.
    init(_ response: HTTPResponse, body: Data) throws {
        self.body = body
        let object = try JSONLimits.message.object(body) { "The native-auth endpoint's answer \($0)." }
        func int(_ key: String) -> Int? { ServerSeconds.of(object[key]) }
        continuationToken = object["continuation_token"] as? String
        challengeType = object["challenge_type"] as? String
        redirectReason = object["redirect_reason"] as? String
        challengeTargetLabel = object["challenge_target_label"] as? String
        challengeTarget = object["challenge_target"] as? String
        methods = (object["methods"] as? [[String: Any]] ?? []).compactMap(AuthMethod.init(json:))
        challengeChannel = object["challenge_channel"] as? String
        codeLength = int("code_length")
        pollInterval = int("poll_interval")
        status = object["status"] as? String
        if response.status != .ok, let oauth = OAuthErrorResponse(json: body) {
            failure = Failure(
                oauth: oauth, httpStatus: response.status.code, continuationToken: continuationToken,
                requiredAttributes: (object["required_attributes"] as? [[String: Any]] ?? []).compactMap(
                    RequiredAttribute.init(json:)),
                invalidAttributes: (object["invalid_attributes"] as? [[String: Any]] ?? []).compactMap {
                    $0["name"] as? String
                })
        } else {
            failure = nil
        }
    }

    var isRedirect: Bool { challengeType?.lowercased() == "redirect" }

    /// Why the browser is needed, for ``SignInResult/browserRequired(reason:)`` and its kin.
    var redirectMessage: String { redirectReason ?? "The identity platform asks for the browser." }

    /// Where a code went, from a challenge answer.
    var delivery: CodeDelivery {
        CodeDelivery(
            sentTo: challengeTargetLabel ?? challengeTarget ?? "", channel: challengeChannel ?? "email",
            codeLength: codeLength ?? 8)
    }

    /// The continuation token, which a success answer must carry.
    func requireContinuationToken() throws -> String {
        guard let continuationToken, !continuationToken.isEmpty else {
            throw MSALError.internal(.invalidResponse, "The native-auth answer has no continuation_token.")
        }
        return continuationToken
    }
}
