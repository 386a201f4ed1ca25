import Foundation
import Testing

@testable import MSALCommandLine

@Suite("EnvironmentCredential: azure-identity's and kubelogin's variables")
struct EnvironmentCredentialTests {
    @Test("a secret, a certificate or a federated token file with the client id and tenant")
    func eachKind() throws {
        let app = ["AZURE_CLIENT_ID": "app-1", "AZURE_TENANT_ID": "contoso.onmicrosoft.com"]
        let secret = try EnvironmentCredential.read(app.merging(["AZURE_CLIENT_SECRET": "s3cret"]) { $1 })
        #expect(
            secret
                == EnvironmentCredential(
                    clientID: "app-1", tenantID: "contoso.onmicrosoft.com", authorityHost: nil,
                    credential: .secret("s3cret")))
        let certificate = try EnvironmentCredential.read(
            app.merging(["AZURE_CLIENT_CERTIFICATE_PATH": "/run/app.pem"]) { $1 })
        #expect(certificate?.credential == .certificate(path: "/run/app.pem"))
        let workload = try EnvironmentCredential.read(
            app.merging([
                "AZURE_FEDERATED_TOKEN_FILE": "/var/run/token", "AZURE_AUTHORITY_HOST": "https://login.example/",
            ]) { $1 })
        #expect(workload?.credential == .federatedTokenFile(path: "/var/run/token"))
        #expect(workload?.authorityHost == "https://login.example/")
    }

    @Test("the secret wins over the certificate, the certificate over the federated token file")
    func precedence() throws {
        let all = [
            "AZURE_CLIENT_ID": "app-1", "AZURE_TENANT_ID": "t", "AZURE_CLIENT_SECRET": "s",
            "AZURE_CLIENT_CERTIFICATE_PATH": "/c.pem", "AZURE_FEDERATED_TOKEN_FILE": "/f",
        ]
        #expect(try EnvironmentCredential.read(all)?.credential == .secret("s"))
        #expect(
            try EnvironmentCredential.read(all.filter { $0.key != "AZURE_CLIENT_SECRET" })?.credential
                == .certificate(path: "/c.pem"))
    }

    @Test("kubelogin's AAD_SERVICE_PRINCIPAL_* names stand in for unset AZURE_* ones, which win when both are set")
    func kubeloginAliases() throws {
        let kubelogin = [
            "AAD_SERVICE_PRINCIPAL_CLIENT_ID": "kube-app", "AAD_SERVICE_PRINCIPAL_CLIENT_SECRET": "kube-secret",
            "AZURE_TENANT_ID": "t",
        ]
        let aliased = try EnvironmentCredential.read(kubelogin)
        #expect(aliased?.clientID == "kube-app")
        #expect(aliased?.credential == .secret("kube-secret"))
        let both = try EnvironmentCredential.read(
            kubelogin.merging(["AZURE_CLIENT_ID": "azure-app", "AZURE_CLIENT_SECRET": "azure-secret"]) { $1 })
        #expect(both?.clientID == "azure-app")
        #expect(both?.credential == .secret("azure-secret"))
        let certificate = try EnvironmentCredential.read([
            "AAD_SERVICE_PRINCIPAL_CLIENT_ID": "kube-app", "AAD_SERVICE_PRINCIPAL_CLIENT_CERTIFICATE": "/k.pem",
            "AZURE_TENANT_ID": "t",
        ])
        #expect(certificate?.credential == .certificate(path: "/k.pem"))
    }

    @Test(
        "no credential variable, or a client id alone (a managed identity's), is no credential; empty values are unset")
    func absent() throws {
        #expect(try EnvironmentCredential.read([:]) == nil)
        #expect(try EnvironmentCredential.read(["AZURE_CLIENT_ID": "mi", "AZURE_TENANT_ID": "t"]) == nil)
        #expect(try EnvironmentCredential.read(["AZURE_CLIENT_SECRET": "", "AZURE_CLIENT_ID": "a"]) == nil)
    }

    @Test("a credential without its client id or tenant is a usage error naming what is missing, never the secret")
    func incomplete() throws {
        let noTenant = #expect(throws: UsageError.self) {
            try EnvironmentCredential.read(["AZURE_CLIENT_ID": "a", "AZURE_CLIENT_SECRET": "s3cret-value"])
        }
        #expect(noTenant?.description.contains("AZURE_TENANT_ID") == true)
        #expect(noTenant?.description.contains("AZURE_CLIENT_ID") == false)
        #expect(noTenant?.description.contains("s3cret-value") == false)
        let neither = #expect(throws: UsageError.self) {
            try EnvironmentCredential.read(["AZURE_FEDERATED_TOKEN_FILE": "/f"])
        }
        #expect(neither?.description.contains("AZURE_CLIENT_ID") == true)
        #expect(neither?.description.contains("AZURE_TENANT_ID") == true)
        #expect(neither?.description.contains("/f") == true)
    }

    @Test("the authority is AZURE_AUTHORITY_HOST, else msal's own authority's host, with the tenant as its path")
    func authority() throws {
        let base = ["AZURE_CLIENT_ID": "a", "AZURE_TENANT_ID": "fabrikam.onmicrosoft.com", "AZURE_CLIENT_SECRET": "s"]
        let fromSettings = try #require(try EnvironmentCredential.read(base))
        #expect(
            try fromSettings.authority(settingsAuthority: "http://127.0.0.1:8400/contoso.onmicrosoft.com").url
                .absoluteString == "http://127.0.0.1:8400/fabrikam.onmicrosoft.com")
        let fromHost = try #require(
            try EnvironmentCredential.read(base.merging(["AZURE_AUTHORITY_HOST": "https://login.example.net/"]) { $1 }))
        #expect(
            try fromHost.authority(settingsAuthority: "http://127.0.0.1:8400/contoso.onmicrosoft.com").url
                .absoluteString == "https://login.example.net/fabrikam.onmicrosoft.com")
    }

    @Test("its description names the kind and the app, never the secret")
    func redacted() throws {
        let credential = try #require(
            try EnvironmentCredential.read([
                "AZURE_CLIENT_ID": "a", "AZURE_TENANT_ID": "t", "AZURE_CLIENT_SECRET": "xyz-secret",
            ]))
        #expect(!"\(credential)".contains("xyz-secret"))
        #expect("\(credential)".contains("a client secret"))
    }
}
