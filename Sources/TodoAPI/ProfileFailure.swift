import Foundation
import MSAL
import SampleServers

/// Why `GET /api1/me` could not return the caller's Microsoft Graph profile, in the caller's terms.
enum ProfileFailure {
    /// The on-behalf-of token or the request to Graph failed (a consent or claims challenge is not this: it goes
    /// back to the caller as a ``BearerChallenge``).
    static func onBehalfOf(_ error: MSALError, graph: DownstreamAPI) -> SampleFailure {
        let tenant = graph.app.configuration.authority.tenant
        let cause = "on-behalf-of Graph request for /me failed: \(error)"
        if error.stsErrorCodes.contains(50020) {
            return SampleFailure(
                .forbidden, "user_not_in_tenant",
                message:
                    "Your account is not a member of tenant \(tenant), through which API 1 asks Microsoft Graph for "
                    + "your profile (AADSTS50020). Sign in with an account of that tenant.",
                cause: cause)
        }
        if error.code == .transportFailed || error.code == .timedOut {
            return SampleFailure(
                .badGateway, "upstream_unreachable",
                message:
                    "API 1 could not reach the identity provider or Microsoft Graph to fetch your profile; check that "
                    + "they are running (the API's log names the address).",
                cause: cause)
        }
        let codes = error.stsErrorCodes.map { "AADSTS\($0)" }.joined(separator: ", ")
        return SampleFailure(
            .badGateway, "graph_token_unavailable",
            message:
                "API 1 could not get a Microsoft Graph token on your behalf"
                + (codes.isEmpty ? "" : " (\(codes))") + "; the API's log has the identity provider's answer.",
            cause: cause)
    }

    /// Graph answered, but not with the profile.
    static func graphAnswered(_ answer: HTTPResponse, _ body: Data) -> SampleFailure {
        let graphError =
            ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]).flatMap {
                ($0["error"] as? [String: Any])?["code"] as? String
            } ?? "no error code"
        return SampleFailure(
            .badGateway, "graph_failed",
            message: "Microsoft Graph answered HTTP \(answer.status.code) when API 1 asked for your profile.",
            cause: "Graph GET me: HTTP \(answer.status.code), \(graphError)")
    }
}
