import AsyncHTTPClient
import Foundation
import IdentityEmulator
import MSAL
import NIOCore
import TestServers
import Testing

@testable import MSALCommandLine

/// The line a failure prints: what happened in the user's terms, then the `msal` command or option that fixes it;
/// no type names, no dependency's file paths, no code said twice; the server's `AADSTS` code with Entra's text.
@Suite("msal's errors say what happened and what to do next", .timeLimit(.minutes(5)))
struct ErrorMessageTests {
    /// The failures a newcomer meets, each with the command that meets it.
    enum Failure: String, CaseIterable, Sendable {
        case nothingListens, untrustedCertificate, httpToHTTPS, httpsToHTTP, unknownTenant, consentRequired,
            revokedGrant, unknownRefreshToken, nativeRevokedGrant, logoutUnknownUser, secretOnCommandLine
    }

    static let toDoListReadWrite = "api://\(Directory.DemoIDs.api1)/ToDoList.ReadWrite"
    static let anotherAuthority = "To use another authority: --authority URL or MSAL_AUTHORITY."

    @Test("each failure prints one line: what happened, then the next step", arguments: Failure.allCases)
    func line(_ failure: Failure) async throws {
        let tls = failure == .untrustedCertificate || failure == .httpToHTTPS
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("msal-errors-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = EmulatorConfiguration(port: 0, tlsDirectory: tls ? folder : nil)
        try await IdentityEmulator.withRunning(configuration) { emulator in
            let tenant =
                failure == .nativeRevokedGrant ? "contosocustomers.onmicrosoft.com" : "contoso.onmicrosoft.com"
            let sandbox = try CLISandbox(emulator: emulator, tenant: tenant)
            defer { sandbox.remove() }
            let (result, status, line) = try await Self.meet(failure, emulator, sandbox)
            #expect(result.status == status, "\(result.stderr)")
            #expect(Self.normalized(result.stderr) == line)
        }
    }

    /// Runs the command that meets `failure`; what it printed, and the exit code and standard error expected.
    static func meet(_ failure: Failure, _ emulator: RunningEmulator, _ sandbox: CLISandbox) async throws
        -> (CLIResult, Int32, String)
    {
        let server = "127.0.0.1:\(emulator.port)"
        let contoso = "\(server)/contoso.onmicrosoft.com"
        switch failure {
        case .nothingListens:
            let closed = try #require(ClosedPort(try LoopbackPort.free()))
            defer { withExtendedLifetime(closed) {} }
            let result = try await sandbox.msal(
                ["login", "--no-browser"], ["MSAL_AUTHORITY": "http://127.0.0.1:\(closed.port)/common"])
            return (
                result, 5,
                "msal: Cannot connect to 127.0.0.1:\(closed.port): nothing listens there (connection refused). If it "
                    + "is the identity emulator, start it: swift run identity-emulator. \(anotherAuthority)\n"
            )
        case .untrustedCertificate:
            return (
                try await sandbox.msal(["accounts"]), 5,
                "msal: The certificate of \(server) is not trusted (no trusted CA issued it). Trust the CA that "
                    + "issued it, or use a certificate from a CA the system trusts. To trust its CA: --ca-bundle FILE "
                    + "(or MSAL_CA_BUNDLE), or SSL_CERT_FILE; `identity-emulator --tls` prints its CA's file.\n"
            )
        case .httpToHTTPS:
            return (
                try await sandbox.msal(["accounts"], ["MSAL_AUTHORITY": "http://\(contoso)"]), 5,
                "msal: \(server) closed the connection without answering. The server may expect https: try an "
                    + "https:// URL. \(anotherAuthority)\n"
            )
        case .httpsToHTTP:
            return (
                try await sandbox.msal(["accounts"], ["MSAL_AUTHORITY": "https://\(contoso)"]), 5,
                "msal: The TLS handshake with \(server) failed (wrong version number). The server may speak plain "
                    + "http: try an http:// URL. \(anotherAuthority)\n"
            )
        case .unknownTenant:
            let authority = "http://\(server)/nope.onmicrosoft.com"
            return (
                try await sandbox.msal(["accounts"], ["MSAL_AUTHORITY": authority]), 4,
                "msal: The tenant nope.onmicrosoft.com is not known at \(server) (AADSTS90002: Tenant "
                    + "'nope.onmicrosoft.com' not found); check the tenant in the authority \(authority). Set the "
                    + "authority with --authority URL or MSAL_AUTHORITY.\n"
            )
        case .consentRequired:
            try await sandbox.loginAsMegan()
            return (
                try await sandbox.msal(["token", "--scopes", toDoListReadWrite]), 3,
                "msal: AADSTS65001: The user or administrator has not consented to use the application with ID "
                    + "'\(Directory.DemoIDs.publicClient)'. Send an interactive authorization request for this user "
                    + "and resource. Scopes: ToDoList.ReadWrite. Consent in the browser: run the command again with "
                    + "--interactive, or `msal login --scopes SCOPE…`. [correlation id]\n"
            )
        case .revokedGrant:
            try await sandbox.loginAsMegan()
            try await admin(emulator, "users/\(CLICommandTests.megan.0)/revoke")
            return (
                try await sandbox.msal(["token", "--force-refresh"]), 3,
                "msal: AADSTS50173: The provided grant has expired due to it being revoked, a fresh auth token is "
                    + "needed. The user might have changed or reset their password. The grant was issued on 'DATE' "
                    + "and the TokensValidFrom date (before which tokens are not valid) for this user is 'DATE'. "
                    + "Sign in again: `msal login`. [correlation id]\n"
            )
        case .unknownRefreshToken:
            try await sandbox.loginAsMegan()
            try await admin(emulator, "reset")
            return (
                try await sandbox.msal(["token", "--force-refresh"]), 3,
                "msal: AADSTS9002313: Invalid request. Request is malformed or invalid. Sign in again: `msal login`. "
                    + "[correlation id]\n"
            )
        case .nativeRevokedGrant:
            let signIn = try await sandbox.msal(
                ["native", "signin", "--email", "jane@example.com", "--password-stdin"], NativeCommandTests.client,
                input: "Jane-Demo-Pass4")
            #expect(signIn.status == 0, "\(signIn.stderr)")
            try await admin(emulator, "users/jane@example.com/revoke")
            let api = emulator.baseURL.appendingPathComponent("api1/todolist").absoluteString
            return (
                try await sandbox.msal(
                    ["native", "call", api, "--scopes", NativeCommandTests.api1], NativeCommandTests.client), 3,
                "msal: AADSTS50173: The provided grant has expired due to it being revoked, a fresh auth token is "
                    + "needed. The user might have changed or reset their password. The grant was issued on 'DATE' "
                    + "and the TokensValidFrom date (before which tokens are not valid) for this user is 'DATE'. "
                    + "Sign in again: `msal native signin --email …`. [correlation id]\n"
            )
        case .logoutUnknownUser:
            return (
                try await sandbox.msal(["logout", "--username", "nobody@example.com"]), 1,
                "msal: nobody@example.com is not signed in here; `msal accounts` lists the signed-in accounts.\n"
            )
        case .secretOnCommandLine:
            let result = try await sandbox.msal([
                "app", "token", "--tenant", "contoso.onmicrosoft.com", "--scopes",
                "https://graph.microsoft.com/.default",
                "--client-secret", "not-a-real-secret",
            ])
            let first = result.stderr.split(separator: "\n").first.map { String($0) + "\n" } ?? ""
            return (
                CLIResult(status: result.status, stdout: result.stdout, stderr: first), 2,
                "Error: Secrets are never taken on the command line (other users see it in the process list): put "
                    + "the secret in an environment variable and name it with --client-secret-env NAME.\n"
            )
        }
    }

    @Test("a refused password says Entra's rule; a refused attribute says the format the tenant asked for")
    func nativeAnswers() {
        #expect(
            NativeConversation.explain(.tooShort)
                == "That password is too short: use at least 8 characters (Entra's rule for customers).")
        #expect(
            NativeConversation.explain(.tooLong)
                == "That password is too long: use at most 256 characters (Entra's rule for customers).")
        #expect(
            NativeConversation.refusal(RequiredAttribute(name: "country", regex: "^[A-Z]{2}$"))
                == "country (the value must match ^[A-Z]{2}$)")
        #expect(
            NativeConversation.refusal(RequiredAttribute(name: "city"))
                == "city (the tenant refused the value; check its format)")
    }

    /// `text` with the parts that change from run to run (correlation ids, Entra's timestamps) replaced.
    static func normalized(_ text: String) -> String {
        text.replacingOccurrences(
            of: #"\[correlation id [0-9a-f-]{36}\]"#, with: "[correlation id]", options: .regularExpression
        )
        .replacingOccurrences(of: #"'\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ'"#, with: "'DATE'", options: .regularExpression)
    }

    /// `POST /_emulator/<path>` with an empty JSON object.
    static func admin(_ emulator: RunningEmulator, _ path: String) async throws {
        try await CLICommandTests.withHTTP { http in
            var request = HTTPClientRequest(url: emulator.baseURL.absoluteString + "/_emulator/" + path)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: "{}"))
            let response = try await http.execute(request, timeout: .seconds(10))
            #expect(response.status == .ok, "POST \(path)")
        }
    }
}
