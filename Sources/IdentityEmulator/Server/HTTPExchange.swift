import Foundation
import HTTPTypes
import Hummingbird

extension HTTPField.Name {
    static let clientRequestID = HTTPField.Name("client-request-id")!
    static let returnClientRequestID = HTTPField.Name("return-client-request-id")!
    static let msRequestID = HTTPField.Name("x-ms-request-id")!
    static let requestID = HTTPField.Name("request-id")!
    static let pragma = HTTPField.Name("Pragma")!
    static let expires = HTTPField.Name("Expires")!
    static let odataVersion = HTTPField.Name("OData-Version")!
    static let retryAfter = HTTPField.Name("Retry-After")!
    static let strictTransportSecurity = HTTPField.Name("Strict-Transport-Security")!
    static let contentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
    static let estsServer = HTTPField.Name("x-ms-ests-server")!
    static let agsDiagnostic = HTTPField.Name("x-ms-ags-diagnostic")!
}

/// Helpers to read requests and write responses the way ESTS and Graph do.
enum HTTPExchange {
    /// The query string, decoded.
    static func query(_ request: Request) -> FormBody {
        FormBody(encoded: Substring(request.uri.query ?? ""))
    }

    /// The form body, decoded (at most 1 MiB).
    static func form(_ request: Request, context: EmulatorRequestContext) async throws -> FormBody {
        if let form = context.form { return form }
        var request = request
        let buffer = try await request.collectBody(upTo: context.maxUploadSize)
        return FormBody(encoded: Substring(String(buffer: buffer)))
    }

    static func json(
        _ value: JSONValue, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:],
        contentType: String = "application/json; charset=utf-8"
    ) -> Response {
        response(ByteBuffer(bytes: value.serializedBytes), status: status, headers: headers, contentType: contentType)
    }

    static func text(
        _ body: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:],
        contentType: String
    ) -> Response {
        response(ByteBuffer(string: body), status: status, headers: headers, contentType: contentType)
    }

    private static func response(
        _ body: ByteBuffer, status: HTTPResponse.Status, headers: HTTPFields, contentType: String
    ) -> Response {
        var fields = headers
        fields[.contentType] = contentType
        return Response(status: status, headers: fields, body: .init(byteBuffer: body))
    }

    static func html(_ body: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.cacheControl] = "no-store, no-cache"
        return text(body, status: status, headers: fields, contentType: "text/html; charset=utf-8")
    }

    static func redirect(to location: String, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.location] = location
        fields[.cacheControl] = "no-store, no-cache"
        return Response(status: .found, headers: fields)
    }

    /// The headers ESTS puts on token-endpoint answers.
    static func estsHeaders(traceID: String, secure: Bool) -> HTTPFields {
        var fields: HTTPFields = [:]
        fields[.cacheControl] = "no-store, no-cache"
        fields[.pragma] = "no-cache"
        fields[.expires] = "-1"
        fields[.contentTypeOptions] = "nosniff"
        fields[.msRequestID] = traceID
        fields[.estsServer] = "2.1.19000.1 - identity-emulator"
        if secure { fields[.strictTransportSecurity] = "max-age=31536000; includeSubDomains" }
        return fields
    }

    /// An ESTS error answer: the Entra body, its status, and `x-ms-request-id` == `trace_id`.
    static func entraError(_ error: EntraError, request: Request, traceID: String, now: Date, secure: Bool) -> Response
    {
        let correlationID = request.headers[.clientRequestID] ?? traceID
        var headers = estsHeaders(traceID: traceID, secure: secure)
        if request.headers[.returnClientRequestID]?.lowercased() == "true" { headers[.clientRequestID] = correlationID }
        return json(
            error.body(traceID: traceID, correlationID: correlationID, now: now), status: error.status, headers: headers
        )
    }

    /// A cookie value from the `Cookie` header.
    static func cookie(_ name: String, in request: Request) -> String? {
        for header in request.headers[values: .cookie] {
            for part in header.split(separator: ";") {
                let pair = part.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0] == name { return String(pair[1]) }
            }
        }
        return nil
    }
}
