import Foundation
import IdentityEmulator
import Testing
import _CryptoExtras

@Suite("Directory: key credentials, federated credentials and granted app roles")
struct DirectoryCredentialTests {
    static let tenant = Directory.DemoIDs.contosoTenant

    /// The demo directory plus one confidential client with `change` applied.
    static func directory(_ change: (inout Application) -> Void) -> Directory {
        var app = Application(
            clientId: "9d4e5f6a-7b8c-4d9e-8f0a-b1c2d3e4f5a6", displayName: "Test", tenant: tenant,
            kind: .confidentialClient, secret: "s")
        change(&app)
        var directory = Directory.demo
        directory.applications.append(app)
        return directory
    }

    @Test("the demo directory validates and serves the new fields")
    func demo() async throws {
        try Directory.demo.validate()
        try await TestEmulator.with { emulator in
            let json = try await emulator.get("/_emulator/directory").json
            let apps = try #require(json["applications"] as? [any Sendable]).compactMap {
                $0 as? [String: any Sendable]
            }
            let daemon = try #require(apps.first { $0["clientId"] as? String == emulator.ids.confidentialClient })
            #expect((daemon["keyCredentials"] as? [any Sendable])?.count == 1)
            #expect((daemon["federatedCredentials"] as? [any Sendable])?.count == 1)
            #expect(
                daemon["grantedAppRoles"] as? [String] == [
                    "api://\(emulator.ids.api1)/ToDoList.Read.All", "https://graph.microsoft.com/User.Read.All",
                ])
        }
    }

    @Test("a directory file may leave the new fields out, or give them")
    func decode() throws {
        let json = """
            {"tenants":[{"id":"11111111-2222-4333-8444-555555555555","domain":"a.b","displayName":"A","kind":"workforce"}],
             "users":[],
             "applications":[{"clientId":"api","displayName":"API","tenant":"11111111-2222-4333-8444-555555555555","kind":"api","identifierUri":"api://api","appRoles":["Jobs.Run"]},
                             {"clientId":"d","displayName":"D","tenant":"11111111-2222-4333-8444-555555555555","kind":"confidentialClient",
                              "federatedCredentials":[{"name":"ci-runner","issuer":"{emulator}/_emulator/workload","subject":"system:serviceaccount:ci:runner","audiences":["api://AzureADTokenExchange"]}],
                              "grantedAppRoles":["api://api/Jobs.Run"]}]}
            """
        let directory = try Directory.decode(Data(json.utf8))
        #expect(directory.applications[0].keyCredentials.isEmpty)
        #expect(directory.applications[1].federatedCredentials.first?.subject == "system:serviceaccount:ci:runner")
        #expect(directory.applications[1].grantedAppRoles == ["api://api/Jobs.Run"])
    }

    @Test("bad credentials are refused at load, naming the field")
    func invalid() throws {
        let small = try _RSA.Signing.PrivateKey(unsafeKeySize: .init(bitCount: 1024)).publicKey.pemRepresentation
        let good = try _RSA.Signing.PrivateKey(keySize: .bits2048).publicKey.pemRepresentation
        let fic = FederatedCredential(name: "ok-name", issuer: "https://issuer.example", subject: "s")
        let cases: [(String, (inout Application) -> Void, String)] = [
            (
                "keyCredentials[0]", { $0.keyCredentials = [KeyCredential(certificate: "not a certificate")] },
                "PEM X.509"
            ),
            ("keyCredentials[0]", { $0.keyCredentials = [KeyCredential(publicKey: small, keyId: "k")] }, "1024 bits"),
            ("keyCredentials[0]", { $0.keyCredentials = [KeyCredential(publicKey: good)] }, "keyId"),
            ("keyCredentials[0]", { $0.keyCredentials = [KeyCredential()] }, "exactly one"),
            (
                "federatedCredentials[0].name",
                { $0.federatedCredentials = [FederatedCredential(name: "ab", issuer: "https://i", subject: "s")] },
                "3–120"
            ),
            (
                "federatedCredentials[0].audiences",
                {
                    $0.federatedCredentials = [
                        FederatedCredential(name: "two", issuer: "https://i", subject: "s", audiences: ["a", "b"])
                    ]
                }, "exactly one"
            ),
            (
                "federatedCredentials[0].subject",
                {
                    $0.federatedCredentials = [
                        FederatedCredential(
                            name: "long", issuer: "https://i", subject: String(repeating: "x", count: 601))
                    ]
                }, "600"
            ),
            ("federatedCredentials", { $0.federatedCredentials = Array(repeating: fic, count: 21) }, "at most 20"),
            (
                "grantedAppRoles[0]", { $0.grantedAppRoles = ["https://graph.microsoft.com/Mail.Send"] },
                "not one of the appRoles"
            ),
            ("grantedAppRoles[0]", { $0.grantedAppRoles = ["api://nowhere/Role"] }, "identifierUri of an api"),
        ]
        for (field, change, reason) in cases {
            let error = try #require(throws: DirectoryConfigurationError.self) { try Self.directory(change).validate() }
            #expect(error.field == "applications[\(Directory.demo.applications.count)].\(field)")
            #expect(error.reason.contains(reason), "\(error)")
        }
        // A confidential client may authenticate with a certificate alone.
        try Self.directory {
            $0.secret = nil
            $0.keyCredentials = [KeyCredential(certificate: Directory.DemoIDs.daemonCertificatePEM)]
        }.validate()
    }
}
