import Hummingbird

/// Refuses, on every route, a request whose `Host` is not one of the emulator's names (its origin, or a
/// loopback alias on its port, or one of those names under a region's label, as `westus2.localhost:8443`
/// answers like Entra's regional token service, or a tenant's custom URL domain on any port) with 421 Misdirected
/// Request: a web page that rebinds its own DNS name
/// to 127.0.0.1 reaches the port but names its own host, so it cannot read the directory, reset the
/// state or sign anyone in. A request without `Host` gets 400, as HTTP/1.1 requires.
struct HostCheckMiddleware: RouterMiddleware {
    let address: ServedAddress
    /// Whether a host name (without port, lower-cased) is a tenant's custom URL domain (``Tenant/customURLDomains``).
    let isCustomURLDomain: @Sendable (String) -> Bool

    func handle(
        _ request: Request, context: EmulatorRequestContext,
        next: (Request, EmulatorRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let authority = request.head.authority else {
            return HTTPExchange.text(
                "A request needs a Host header.\n", status: .badRequest, contentType: "text/plain; charset=utf-8")
        }
        guard
            address.accepts(authority: authority) || address.region(in: authority) != nil
                || isCustomURLDomain(authority.lowercased().split(separator: ":").first.map(String.init) ?? "")
        else {
            return HTTPExchange.text(
                "This is identity-emulator at \(address.origin); it does not answer for the host named in this request.\n",
                status: .misdirectedRequest, contentType: "text/plain; charset=utf-8")
        }
        return try await next(request, context)
    }
}
