import Foundation
import HTTPTypes
import Hummingbird
import WebText

extension HTTPField.Name {
    static let secFetchSite = HTTPField.Name("Sec-Fetch-Site")!
    static let contentSecurityPolicy = HTTPField.Name("Content-Security-Policy")!
    static let frameOptions = HTTPField.Name("X-Frame-Options")!
    static let referrerPolicy = HTTPField.Name("Referrer-Policy")!
}

/// What stands in front of every dashboard route (behind the emulator's Host check, which refuses other host names
/// with 421): loopback peers only (403 otherwise), and a form post is refused with 403, nothing changed, when the
/// browser says it comes from another site (`Sec-Fetch-Site` other than `same-origin`, or an `Origin` that is not one
/// of the emulator's own) or when it lacks the emulator's anti-forgery token (``AntiForgeryToken``, made once per
/// emulator and put in every form). Every answer forbids framing, scripts from elsewhere and sending the referrer.
struct DashboardGuard: RouterMiddleware {
    let address: ServedAddress
    let token: String

    func handle(
        _ request: Request, context: EmulatorRequestContext,
        next: (Request, EmulatorRequestContext) async throws -> Response
    ) async throws -> Response {
        guard context.isFromLoopback else {
            return Self.refusal("The dashboard answers loopback clients only.")
        }
        var context = context
        if request.method != .get, request.method != .head {
            if let problem = crossSiteProblem(request) { return Self.refusal(problem) }
            let form = try await HTTPExchange.form(request, context: context)
            guard AntiForgeryToken.isCarried(by: form.fields, expected: token) else {
                return Self.refusal(AntiForgeryToken.refusal)
            }
            context.form = form
        }
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] =
            "default-src 'none'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:; "
            + "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
        response.headers[.frameOptions] = "DENY"
        // `same-origin`, not `no-referrer`: under `no-referrer` a browser's form posts say `Origin: null`, which the
        // check above refuses; this way the emulator's own pages name their origin and other sites learn nothing.
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.contentTypeOptions] = "nosniff"
        return response
    }

    /// Why a post is taken for a cross-site one, or `nil`: the browser's `Sec-Fetch-Site` says another origin sent
    /// it, or its `Origin` names a host and port the emulator does not answer to (`null` included). Clients that
    /// send neither (curl, scripts) are judged by the token alone.
    func crossSiteProblem(_ request: Request) -> String? {
        let refusal = "This form was posted from another site, so nothing changed."
        if let site = request.headers[.secFetchSite]?.lowercased(), site != "same-origin", site != "none" {
            return refusal
        }
        if let origin = request.headers[.origin] {
            guard let url = URL(string: origin), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", let host = url.host, url.path.isEmpty
            else { return refusal }
            let authority = ServedAddress.bracketed(host) + (url.port.map { ":\($0)" } ?? "")
            guard address.accepts(authority: authority) else { return refusal }
        }
        return nil
    }

    private static func refusal(_ message: String) -> Response {
        HTTPExchange.text(message + "\n", status: .forbidden, contentType: "text/plain; charset=utf-8")
    }
}
