import Foundation
import HTTPTypes
import Hummingbird

/// The managed identity endpoints of the directory's hosts, each in its source's shape, checks and errors
/// (`../shared/reference/server-side.md` §6):
///
/// - `GET /metadata/identity/oauth2/token`: IMDS of the first virtual machine;
/// - `GET /hosts/{host}/metadata/identity/oauth2/token`: IMDS (`virtualMachine`), Service Fabric, Azure Arc;
/// - `GET [/hosts/{vm}]/metadata/instance/compute[/location]`: a virtual machine's compute metadata
///   (``InstanceMetadataShape``), the first virtual machine's without `/hosts/{vm}`;
/// - `GET /hosts/{host}/msi/token`: App Service, Azure Machine Learning;
/// - `POST /hosts/{host}/oauth2/token`: Cloud Shell.
///
/// Loopback clients only, as the real endpoints answer only on the host.
struct ManagedIdentityRoutes: Sendable {
    let issuer: ManagedIdentityIssuer

    func register(on router: Router<EmulatorRequestContext>) {
        let local = router.group().add(middleware: HostLocalMiddleware())
        local.get("metadata/identity/oauth2/token") { request, _ in
            guard let host = issuer.core.state.index.directory.hosts.first(where: { $0.kind == .virtualMachine })
            else { return Self.noHost("no virtualMachine host") }
            return await ImdsShape(issuer: issuer).respond(request, host: host)
        }
        local.get("hosts/:host/metadata/identity/oauth2/token") { request, context in
            guard let host = issuer.host(named: context.parameters.get("host") ?? "") else { return Self.noHost() }
            switch host.kind {
            case .virtualMachine: return await ImdsShape(issuer: issuer).respond(request, host: host)
            case .azureArc: return await ImdsShape(issuer: issuer, arc: true).respond(request, host: host)
            case .serviceFabric: return await ServiceFabricShape(issuer: issuer).respond(request, host: host)
            default: return Self.noHost("\(host.name) is not served here")
            }
        }
        for (path, leaf) in [("metadata/instance/compute", false), ("metadata/instance/compute/location", true)] {
            local.get(RouterPath(path)) { request, _ in
                guard let host = issuer.core.state.index.directory.hosts.first(where: { $0.kind == .virtualMachine })
                else { return Self.noHost("no virtualMachine host") }
                return InstanceMetadataShape().respond(request, host: host, leaf: leaf)
            }
            local.get(RouterPath("hosts/:host/" + path)) { request, context in
                guard let host = issuer.host(named: context.parameters.get("host") ?? ""),
                    host.kind == .virtualMachine
                else { return Self.noHost() }
                return InstanceMetadataShape().respond(request, host: host, leaf: leaf)
            }
        }
        local.get("hosts/:host/msi/token") { request, context in
            guard let host = issuer.host(named: context.parameters.get("host") ?? ""),
                [.appService, .machineLearning].contains(host.kind)
            else { return Self.noHost() }
            return await AppServiceShape(issuer: issuer).respond(request, host: host)
        }
        local.post("hosts/:host/oauth2/token") { request, context in
            guard let host = issuer.host(named: context.parameters.get("host") ?? ""), host.kind == .cloudShell
            else { return Self.noHost() }
            return await CloudShellShape(issuer: issuer).respond(request, context: context, host: host)
        }
    }

    private static func noHost(_ why: String = "no such host") -> Response {
        HTTPExchange.text("Not Found: \(why).\n", status: .notFound, contentType: "text/plain; charset=utf-8")
    }

    /// The query parameter naming a user-assigned identity, by the names `source` uses; `nil` when two are given.
    static func selector(_ query: FormBody, clientID: String, objectID: String, resourceIDs: [String])
        -> ManagedIdentityIssuer.Selector?
    {
        var named: [ManagedIdentityIssuer.Selector] = []
        if let id = query[clientID], !id.isEmpty { named.append(.clientID(id)) }
        if let id = query[objectID], !id.isEmpty { named.append(.objectID(id)) }
        for name in resourceIDs { if let id = query[name], !id.isEmpty { named.append(.resourceID(id)) } }
        return named.count > 1 ? nil : named.first ?? .systemAssigned
    }
}

/// Refuses clients that are not on the host, as the real endpoints are reachable only from it.
private struct HostLocalMiddleware: RouterMiddleware {
    func handle(
        _ request: Request, context: EmulatorRequestContext,
        next: (Request, EmulatorRequestContext) async throws -> Response
    ) async throws -> Response {
        guard context.isFromLoopback else {
            return HTTPExchange.text(
                "Managed identity endpoints answer processes on the host only.\n", status: .forbidden,
                contentType: "text/plain; charset=utf-8")
        }
        return try await next(request, context)
    }
}

extension HTTPField.Name {
    static let metadata = HTTPField.Name("Metadata")!
    static let identityHeader = HTTPField.Name("X-IDENTITY-HEADER")!
    static let secret = HTTPField.Name("Secret")!
}
