import Foundation
import Testing

@testable import MSALCommandLine

/// client-go's exec credential protocol as `msal kube get-token` speaks it, and kubelogin's login modes.
@Suite("msal kube get-token: ExecCredential and login modes")
struct KubeExecCredentialTests {
    static let expiry = Date(timeIntervalSince1970: 1_795_000_000)

    @Test(
        "the answer is in the request's API version (v1beta1 or v1), with the token and an RFC 3339 UTC expiry",
        arguments: ["client.authentication.k8s.io/v1beta1", "client.authentication.k8s.io/v1"])
    func answersInKind(version: String) throws {
        let info = #"{"kind":"ExecCredential","apiVersion":"\#(version)","spec":{"interactive":false}}"#
        let request = try ExecCredential(environment: ["KUBERNETES_EXEC_INFO": info], inputIsTerminal: true)
        #expect(request == ExecCredential(apiVersion: version, interactive: false))
        let answer = request.answer(token: "eyJ0", expiresOn: Self.expiry)
        #expect(answer["kind"] as? String == "ExecCredential")
        #expect(answer["apiVersion"] as? String == version)
        let status = try #require(answer["status"] as? [String: Any])
        #expect(status["token"] as? String == "eyJ0")
        #expect(status["expirationTimestamp"] as? String == "2026-11-18T11:06:40Z")
    }

    @Test(
        "a request that does not say (run by hand; kubectl before 1.22): v1beta1 by default, interactive only on a terminal"
    )
    func unsaid() throws {
        #expect(
            try ExecCredential(environment: [:], inputIsTerminal: true)
                == ExecCredential(apiVersion: "client.authentication.k8s.io/v1beta1", interactive: true))
        #expect(try !ExecCredential(environment: [:], inputIsTerminal: false).interactive)
        // kubectl 1.20's request, its standard input not a terminal: the plugin must not wait for a device code.
        let old = #"{"kind":"ExecCredential","apiVersion":"client.authentication.k8s.io/v1beta1","spec":{}}"#
        #expect(try !ExecCredential(environment: ["KUBERNETES_EXEC_INFO": old], inputIsTerminal: false).interactive)
        #expect(try ExecCredential(environment: ["KUBERNETES_EXEC_INFO": old], inputIsTerminal: true).interactive)
    }

    @Test("the expiry is whole seconds, rounded down, with two-digit fields")
    func timestampFields() {
        #expect(ExecCredential.timestamp(Date(timeIntervalSince1970: 1_767_225_599.9)) == "2025-12-31T23:59:59Z")
        #expect(ExecCredential.timestamp(Date(timeIntervalSince1970: 1_780_293_845)) == "2026-06-01T06:04:05Z")
    }

    @Test("a KUBERNETES_EXEC_INFO that is not JSON, or of a version kubectl does not speak, is a usage error")
    func refusesOtherRequests() {
        for info in ["not json", #"{"apiVersion":"client.authentication.k8s.io/v2"}"#, "{}"] {
            #expect(throws: UsageError.self) {
                try ExecCredential(environment: ["KUBERNETES_EXEC_INFO": info], inputIsTerminal: false)
            }
        }
    }

    @Test("--login as kubelogin: devicecode by default, AAD_LOGIN_METHOD over the flag; Azure CLI's refused")
    func loginModes() throws {
        #expect(try KubeLoginMode.resolve(flag: nil, environment: [:]) == .devicecode)
        #expect(try KubeLoginMode.resolve(flag: "spn", environment: [:]) == .spn)
        #expect(try KubeLoginMode.resolve(flag: "devicecode", environment: ["AAD_LOGIN_METHOD": "msi"]) == .msi)
        #expect(try KubeLoginMode.resolve(flag: "ropc", environment: [:]) == .ropc)
        let azurecli = #expect(throws: UsageError.self) {
            try KubeLoginMode.resolve(flag: "azurecli", environment: [:])
        }
        #expect(azurecli?.description.contains("Azure CLI") == true)
        #expect(throws: UsageError.self) { try KubeLoginMode.resolve(flag: "password", environment: [:]) }
    }

    @Test("ropc reads kubelogin's AAD_USER_PRINCIPAL_NAME and AAD_USER_PRINCIPAL_PASSWORD, and needs both")
    func ropcVariables() throws {
        let both = ["AAD_USER_PRINCIPAL_NAME": "megan@contoso.com", "AAD_USER_PRINCIPAL_PASSWORD": "Pass-1"]
        let credential = try KubeLoginMode.passwordCredential(both)
        #expect(credential.username == "megan@contoso.com")
        #expect(credential.password == "Pass-1")
        for missing in ["AAD_USER_PRINCIPAL_NAME", "AAD_USER_PRINCIPAL_PASSWORD"] {
            var variables = both
            variables[missing] = ""
            let error = #expect(throws: UsageError.self) { try KubeLoginMode.passwordCredential(variables) }
            #expect(error?.description.contains(missing) == true)
        }
    }

    @Test("--environment names the clouds kubeconfigs carry")
    func clouds() {
        #expect(AzureCloud.authorityHost("AzurePublicCloud") == "https://login.microsoftonline.com/")
        #expect(AzureCloud.authorityHost("azureusgovernment") == "https://login.microsoftonline.us/")
        #expect(AzureCloud.authorityHost("AzureChinaCloud") == "https://login.chinacloudapi.cn/")
        #expect(AzureCloud.authorityHost("AzureStackCloud") == nil)
    }
}
