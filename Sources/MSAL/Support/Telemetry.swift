import Foundation
import HTTPTypes
import Metrics
import Tracing

/// MSAL's spans and metrics, through swift-distributed-tracing and swift-metrics: no-ops until the app bootstraps a
/// tracer or a metrics backend. Attributes and dimensions name flows, endpoints, outcomes and reasons, never a
/// token, a user, an account id or a tenant's users' data.
///
/// Spans: `msal.acquire_token_silent`, `msal.acquire_token_for_client` (when the app's recent token is not reusable),
/// `msal.acquire_token_on_behalf_of`, each with `msal.cache_hit`; `msal.http` (client) around each request to the
/// identity platform, with `http.request.method`, `msal.endpoint` and `http.response.status_code`.
///
/// Metrics: `msal.cache.lookups` (`flow`, `result`: `hit` or `miss`), `msal.identity_platform.requests`
/// (`endpoint`, `outcome`: `ok`, `client_error`, `server_error`, `throttled`, `transport_error`) and the timer
/// `msal.identity_platform.duration` (`endpoint`), `msal.token_validation` (`result`: `accepted` or the
/// rejection's reason).
enum Telemetry {
    /// Whether a tracer is in place (bootstrapped, or bound to the task); without one no span is made at all.
    /// The no-op instrument is recognised first: `InstrumentationSystem.tracer` casts it to `any Tracer`, a
    /// conformance search (see "Start-up" in the library's README).
    static var isTracing: Bool {
        !(InstrumentationSystem.instrument is NoOpInstrument) && !(InstrumentationSystem.tracer is NoOpTracer)
    }
    /// Whether a metrics backend is in place; without one no metric object is made.
    static var isMeasuring: Bool { !(MetricsSystem.factory is NOOPMetricsHandler) }

    /// Runs a token acquisition of `flow` (`silent`, `client_credentials`, `on_behalf_of`) in a span named `name`
    /// with `msal.cache_hit`, and counts the cache lookup. Costs two checks when neither tracing nor metrics is on.
    static func acquisition<T: AcquiredToken>(_ name: String, flow: String, _ body: () async throws -> T)
        async rethrows -> T
    {
        let measuring = isMeasuring
        guard isTracing else {
            let result = try await body()
            if measuring { countLookup(flow, hit: result.isFromCache) }
            return result
        }
        return try await withSpan(name, ofKind: .internal) { span in
            let result = try await body()
            span.attributes["msal.cache_hit"] = result.isFromCache
            if measuring { countLookup(flow, hit: result.isFromCache) }
            return result
        }
    }

    /// Counts a cache lookup of `flow`, when a metrics backend is in place.
    static func cacheLookup(_ flow: String, hit: Bool) {
        if isMeasuring { countLookup(flow, hit: hit) }
    }

    private static func countLookup(_ flow: String, hit: Bool) {
        Counter(label: "msal.cache.lookups", dimensions: [("flow", flow), ("result", hit ? "hit" : "miss")])
            .increment()
    }

    /// Counts a web API's validation of a token: `accepted`, or why not.
    static func tokenValidation(_ result: String) {
        guard isMeasuring else { return }
        Counter(label: "msal.token_validation", dimensions: [("result", result)]).increment()
    }

    /// Sends one request to the identity platform inside an `msal.http` client span, counting and timing it.
    static func request(
        _ request: HTTPRequest, _ send: (HTTPRequest) async throws -> (HTTPResponse, Data)
    ) async throws -> (HTTPResponse, Data) {
        guard isTracing || isMeasuring else { return try await send(request) }
        let endpoint = request.url.map(endpointName) ?? "other"
        return try await withSpan("msal.http", ofKind: .client) { span in
            span.attributes["http.request.method"] = request.method.rawValue
            span.attributes["msal.endpoint"] = endpoint
            let start = ContinuousClock.now
            let outcome: String
            defer {
                Counter(
                    label: "msal.identity_platform.requests",
                    dimensions: [("endpoint", endpoint), ("outcome", outcome)]
                ).increment()
                Metrics.Timer(label: "msal.identity_platform.duration", dimensions: [("endpoint", endpoint)])
                    .record(duration: ContinuousClock.now - start)
            }
            do {
                let answer = try await send(request)
                let status = answer.0.status.code
                span.attributes["http.response.status_code"] = status
                outcome =
                    switch status {
                    case 200..<400: "ok"
                    case 429: "throttled"
                    case 400..<500: "client_error"
                    default: "server_error"
                    }
                return answer
            } catch {
                outcome = "transport_error"
                throw error
            }
        }
    }

    /// The endpoint a request is for, by the end of its path: `token`, `devicecode`, `authorize`, `discovery`,
    /// `keys`, `instance_discovery`, `userrealm`, native authentication's step names, else `other`.
    static func endpointName(_ url: URL) -> String {
        let path = url.path
        if path.hasSuffix("/openid-configuration") { return "discovery" }
        if path.hasSuffix("/discovery/instance") { return "instance_discovery" }
        if path.hasSuffix("/keys") { return "keys" }
        if path.lowercased().contains("/userrealm/") { return "userrealm" }
        let last = url.lastPathComponent
        let known: Set<String> = [
            "token", "devicecode", "authorize", "logout", "initiate", "challenge", "continue", "start",
            "poll_completion",
            "submit", "introspect",
        ]
        return known.contains(last) ? last : "other"
    }
}

/// A token acquisition's result, which says whether the cache answered.
protocol AcquiredToken {
    var isFromCache: Bool { get }
}

extension AuthenticationResult: AcquiredToken {
    var isFromCache: Bool { source == .cache }
}

extension AppTokenResult: AcquiredToken {
    var isFromCache: Bool { source == .cache }
}
