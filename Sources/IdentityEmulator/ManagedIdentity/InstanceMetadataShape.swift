import Foundation
import Hummingbird

/// IMDS's instance metadata of a virtual machine, the part MSALs read to find their region: the compute
/// metadata (`/metadata/instance/compute`, JSON, as MSAL Python reads its `location`) and its `location` leaf
/// (`/metadata/instance/compute/location?format=text`, as MSAL.NET reads it). As Azure's IMDS does, it needs
/// `Metadata: true` and a known `api-version`, and answers a bad request with the newest versions it knows
/// (`newest-versions`, which MSAL.NET retries with).
struct InstanceMetadataShape: Sendable {
    /// The api-versions answered, newest first.
    static let versions = [
        "2023-07-01", "2021-12-13", "2021-05-01", "2021-02-01", "2021-01-01", "2020-09-01", "2020-06-01",
        "2019-06-01", "2018-10-01", "2017-08-01",
    ]

    /// Answers for `host` (a virtual machine): its compute metadata, or only its `location` when `leaf` is true.
    func respond(_ request: Request, host: AzureHost, leaf: Bool) -> Response {
        guard request.headers[.metadata]?.lowercased() == "true" else {
            return Self.badRequest("Bad request. Required metadata header not specified", versions: false)
        }
        let query = HTTPExchange.query(request)
        guard let version = query["api-version"], Self.versions.contains(version) else {
            return Self.badRequest(
                "Bad request. api-version was not specified in the request or is not supported. "
                    + "For more information refer to aka.ms/azureimds", versions: true)
        }
        if leaf {
            return HTTPExchange.text(host.location, contentType: "text/plain; charset=utf-8")
        }
        return HTTPExchange.json(
            .object([
                ("azEnvironment", .string("AzurePublicCloud")), ("location", .string(host.location)),
                ("name", .string(host.name)), ("osType", .string("Linux")),
            ]))
    }

    private static func badRequest(_ message: String, versions: Bool) -> Response {
        var body: [(String, JSONValue)] = [("error", .string(message))]
        if versions { body.append(("newest-versions", .array(Self.versions.prefix(3).map { .string($0) }))) }
        return HTTPExchange.json(.object(body), status: .badRequest)
    }
}
