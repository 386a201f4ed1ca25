import Foundation
import Hummingbird
import HummingbirdTLS
import Logging
import MSAL
import MSALHummingbird
import NIOSSL
import SampleServers

/// A Kubernetes API server's stand-in for tests of a real `kubectl` with an exec credential plugin: HTTPS on
/// 127.0.0.1 (a free port) with a certificate from an authority of its own (``LoopbackCertificate``), answering what
/// `kubectl get pods` asks (`/version`, discovery at `/api`, `/api/v1` and `/apis`, and the pod list of any
/// namespace) only when the bearer token is one `validator` accepts (an AKS cluster's Entra tokens, checked with the
/// identity provider's keys); anything else is answered 401.
///
/// The pod list has one pod, `hello-pod`, whose `CALLER` column names who the token was issued to (its username, or
/// the app's client id for an app's token), so a test sees whose token `kubectl` sent.
package enum KubernetesAPIStub {
    /// A running stub: its URL and the authority file a kubeconfig's `certificate-authority` names.
    package struct Running: Sendable {
        /// `https://127.0.0.1:{port}`.
        package let url: URL
        /// The PEM file of the authority that issued the server's certificate.
        package let certificateAuthorityPath: String
    }

    /// Serves until `body` returns or throws.
    ///
    /// - Parameters:
    ///   - validator: what tokens the cluster accepts (an ACL-style API: a token needs no scope or role).
    ///   - folder: where the certificates are written (the test's temporary folder).
    /// - Throws: what `body` throws, or why the server could not start.
    package static func withRunning<Result: Sendable>(
        validator: AccessTokenValidator, folder: URL, _ body: @Sendable (Running) async throws -> Result
    ) async throws -> Result {
        let authority = folder.appendingPathComponent("kube-ca.crt").path
        let certificate = folder.appendingPathComponent("kube-server.crt").path
        let key = folder.appendingPathComponent("kube-server.key").path
        try await LoopbackCertificate.make(
            names: ["DNS:localhost", "IP:127.0.0.1"], authority: authority, certificate: certificate, key: key,
            scratch: folder)
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) },
            privateKey: .privateKey(try NIOSSLPrivateKey(file: key, format: .pem)))
        let logger = Logger(label: "kubernetes-api-stub")
        let services: SampleServer.Services = { bound in
            [
                Hummingbird.Application(
                    router: router(validator), server: try .tls(.http1(), tlsConfiguration: tls),
                    configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: { channel in bound(channel.localAddress?.port ?? 0) }, logger: logger)
            ]
        }
        return try await SampleServer.withRunning(
            "kubernetes-api-stub", host: "127.0.0.1", port: 0, logger: logger, services: services
        ) { url in
            try await body(
                Running(url: URL(string: "https://127.0.0.1:\(url.port ?? 0)")!, certificateAuthorityPath: authority))
        }
    }

    struct Context: AccessTokenRequestContext {
        var coreContext: CoreRequestContextStorage
        var accessToken: ValidatedAccessToken?
        init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
    }

    private static func router(_ validator: AccessTokenValidator) -> Router<Context> {
        let router = Router(context: Context.self)
        router.add(middleware: BearerTokenMiddleware<Context>(validator: validator))
        let api = router
        api.get("version") { _, _ in
            json(["major": "1", "minor": "32", "gitVersion": "v1.32.0", "platform": "linux/amd64"])
        }
        api.get("api") { _, _ in json(["kind": "APIVersions", "versions": ["v1"]]) }
        api.get("apis") { _, _ in json(["kind": "APIGroupList", "apiVersion": "v1", "groups": [] as [Any]]) }
        api.get("api/v1") { _, _ in
            json([
                "kind": "APIResourceList", "groupVersion": "v1",
                "resources": [
                    [
                        "name": "pods", "singularName": "pod", "namespaced": true, "kind": "Pod",
                        "verbs": ["get", "list"], "shortNames": ["po"],
                    ]
                ],
            ])
        }
        api.get("api/v1/namespaces/:namespace/pods") { request, context in
            let token = try context.requireAccessToken()
            let caller = token.username ?? token.clientID ?? "unknown"
            let namespace = context.parameters.get("namespace") ?? "default"
            return json(podTable(caller: caller, namespace: namespace))
        }
        return router
    }

    /// The pod list as the `Table` kubectl asks for (`Accept: application/json;as=Table;v=v1;g=meta.k8s.io`).
    private static func podTable(caller: String, namespace: String) -> [String: Any] {
        let column = { (name: String) -> [String: Any] in
            ["name": name, "type": "string", "format": "", "description": name, "priority": 0]
        }
        return [
            "kind": "Table", "apiVersion": "meta.k8s.io/v1", "metadata": ["resourceVersion": "1"],
            "columnDefinitions": [column("Name"), column("Status"), column("Caller")],
            "rows": [
                [
                    "cells": ["hello-pod", "Running", caller],
                    "object": [
                        "kind": "PartialObjectMetadata", "apiVersion": "meta.k8s.io/v1",
                        "metadata": ["name": "hello-pod", "namespace": namespace],
                    ],
                ]
            ],
        ]
    }

    private static func json(_ object: [String: Any]) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data("{}".utf8)
        return Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}
