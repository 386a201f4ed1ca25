import ChildProcesses
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An OpenID provider we did not write: django-oauth-toolkit's, set up by `Tests/Interop/django_oidc_provider.py`
/// in a temporary folder on a free loopback port, run by the Python that `scripts/test` installs it into
/// (`$OIDC_PROVIDER_PYTHON`, else `.build-oidc-provider/bin/python`).
///
/// It has one user, ``username`` with ``password``, and one public client, ``clientID``, whose redirect URI is
/// `http://127.0.0.1` on any port; its issuer is `http://127.0.0.1:{port}/o`.
package final class DjangoOIDCProvider: Sendable {
    /// The public client registered with the provider.
    package static let clientID = "msal-swift-tests"
    /// The user's username (the ID token's `preferred_username`).
    package static let username = "ada"

    /// The provider's issuer, `http://127.0.0.1:{port}/o`.
    package let issuer: String
    /// The user's password, made for this run.
    package let password: String
    private let folder: URL
    private let process: ChildProcess

    private init(issuer: String, password: String, folder: URL, process: ChildProcess) {
        self.issuer = issuer
        self.password = password
        self.folder = folder
        self.process = process
    }

    /// Runs `body` with a provider of its own, and stops it afterwards.
    ///
    /// - Parameter idTokenOnRefresh: whether a refresh is answered with an ID token (django-oauth-toolkit's
    ///   default), or without one, as some providers answer.
    package static func with<T>(idTokenOnRefresh: Bool = true, _ body: (DjangoOIDCProvider) async throws -> T)
        async throws -> T
    {
        let provider = try await start(idTokenOnRefresh: idTokenOnRefresh)
        do {
            let result = try await body(provider)
            provider.stop()
            return result
        } catch {
            provider.stop()
            throw error
        }
    }

    private static func interpreter() throws -> URL {
        if let configured = ProcessInfo.processInfo.environment["OIDC_PROVIDER_PYTHON"], !configured.isEmpty {
            return URL(fileURLWithPath: configured)
        }
        let local = repository.appendingPathComponent(".build-oidc-provider/bin/python")
        guard FileManager.default.isExecutableFile(atPath: local.path) else {
            throw ProxyServerError(
                "django-oauth-toolkit is not installed: run scripts/test once, or `python3 -m venv .build-oidc-provider && .build-oidc-provider/bin/python -m pip install -r Tests/Interop/oidc-provider-requirements.txt`"
            )
        }
        return local
    }

    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    private static func start(idTokenOnRefresh: Bool) async throws -> DjangoOIDCProvider {
        let python = try interpreter()
        let script = repository.appendingPathComponent("Tests/Interop/django_oidc_provider.py").path
        let password = "Pw-" + UUID().uuidString
        for _ in 0..<5 {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("oidc-provider-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
            let process = try ChildProcess(
                python.path, [script, folder.path, String(try LoopbackPort.free())],
                environment: [
                    "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "HOME": folder.path,
                    "OIDC_TEST_PASSWORD": password, "OIDC_REFRESH_ID_TOKEN": idTokenOnRefresh ? "1" : "0",
                ], input: .pipe, output: .pipe)
            if let line = await firstLine(of: process.standardOutput!),
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let issuer = object["issuer"] as? String
            {
                return DjangoOIDCProvider(
                    issuer: issuer, password: password, folder: folder, process: process)
            }
            // It could not listen (another process took the port first) or did not start: try again.
            stop(process)
            try? FileManager.default.removeItem(at: folder)
        }
        throw ProxyServerError("django-oauth-toolkit's provider did not start on a free loopback port")
    }

    /// The first line the provider prints; `nil` when it ends without one.
    private static func firstLine(of output: FileHandle) async -> String? {
        var lines = PipeLines.lines(of: output).makeAsyncIterator()
        return await lines.next()
    }

    private func stop() {
        Self.stop(process)
        try? FileManager.default.removeItem(at: folder)
    }

    /// Closes its standard input, which ends it, and makes sure with SIGKILL.
    private static func stop(_ process: ChildProcess) {
        try? process.standardInput?.close()
        process.send(SIGKILL)
        process.waitUntilExit()
    }
}
