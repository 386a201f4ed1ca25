import EmulatorAutomation
import Foundation
import IdentityEmulator
import Testing

/// Azure CLI from PyPI, unchanged, against the emulator over TLS on a free port as a custom cloud: service principals
/// with a secret and a certificate, managed identity on the VM and App Service hosts, device code and interactive
/// sign-ins, then `az account list`, `az account get-access-token` (twice: the second from Azure CLI's cache) and
/// `az logout`. `az login -u/-p` is not run: MSAL Python's user-realm discovery drops the port (docs/EMULATOR.md).
@Suite("Azure CLI against the emulator", .timeLimit(.minutes(5)))
struct AzureCLITests {
    typealias IDs = Directory.DemoIDs
    static let megan = ("MeganB@contoso.onmicrosoft.com", "Megan-Demo-Pass1")

    @Test("az cloud register reads the emulator's /metadata/endpoints: its sign-in and Resource Manager, ARM's ids")
    func cloudRegisterWithDiscovery() async throws {
        try await AzureCLI.with { cli in
            let cloud = try await cli.json(["cloud", "show"]) as? [String: Any]
            let endpoints = try #require(cloud?["endpoints"] as? [String: Any])
            let origin = cli.emulator.baseURL.absoluteString
            #expect(endpoints["activeDirectory"] as? String == origin + "/")
            #expect(endpoints["resourceManager"] as? String == origin)
            #expect(endpoints["activeDirectoryResourceId"] as? String == "https://management.core.windows.net/")
            #expect(cloud?["isActive"] as? Bool == true)
            #expect(try await CLICommandTests.served(cli.emulator, path: "/metadata/endpoints").count == 1)
        }
    }

    // Azure CLI takes a service principal's secret only as `--password` on its command line (no file or variable
    // for `az login`), so the test's secret is visible in its process list; a demo secret on loopback.
    @Test("az login --service-principal with a secret, then with a certificate: the tenant's subscriptions, a v1 token")
    func servicePrincipal() async throws {
        try await AzureCLI.with { cli in
            let secret = try await cli.json([
                "login", "--service-principal", "--username", IDs.confidentialClient, "--password",
                IDs.confidentialSecret, "--tenant", "contoso.onmicrosoft.com",
            ])
            let names = (secret as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
            #expect(names == ["Contoso Production", "Contoso Development"])
            let token = try await cli.json(["account", "get-access-token"]) as? [String: Any]
            let claims = try Self.claims(token?["accessToken"] as? String)
            #expect(claims["aud"] as? String == "https://management.core.windows.net/")
            #expect(claims["iss"] as? String == "https://sts.windows.net/\(IDs.contosoTenant)/")
            #expect(claims["ver"] as? String == "1.0")
            #expect(claims["appid"] as? String == IDs.confidentialClient)
            #expect(try await cli.run(["logout"]).status == 0)

            let pem = cli.root.appendingPathComponent("daemon.pem")
            try (IDs.daemonPrivateKeyPEM + "\n" + IDs.daemonCertificatePEM + "\n").write(
                to: pem, atomically: true, encoding: .utf8)
            let certificate = try await cli.json([
                "login", "--service-principal", "--username", IDs.confidentialClient, "--certificate", pem.path,
                "--tenant", IDs.contosoTenant,
            ])
            #expect(
                (certificate as? [[String: Any]])?.first?["user"] as? [String: String] == [
                    "name": IDs.confidentialClient, "type": "servicePrincipal",
                ])
            let grants = try await CLICommandTests.grants(cli.emulator)
            #expect(grants == ["client_credentials", "client_credentials"])
        }
    }

    @Test("az login --identity on the VM (IMDS) and on the App Service host")
    func managedIdentity() async throws {
        try await AzureCLI.with { cli in
            for host in ["vm-1", "app-1"] {
                let environment = try #require(cli.emulator.managedIdentityEnvironment(host: host))
                let accounts = try await cli.json(["login", "--identity"], environment) as? [[String: Any]]
                #expect(accounts?.first?["id"] as? String == IDs.subscription, "\(host)")
                let user = accounts?.first?["user"] as? [String: String]
                #expect(user?["type"] == "servicePrincipal", "\(host): \(String(describing: user))")
                let token = try await cli.json(["account", "get-access-token"], environment) as? [String: Any]
                let claims = try Self.claims(token?["accessToken"] as? String)
                #expect(claims["aud"] as? String == "https://management.core.windows.net/", "\(host)")
                #expect(claims["xms_mirid"] as? String != nil, "\(host)")
                #expect(try await cli.run(["logout"], environment).status == 0)
            }
            #expect(
                try await CLICommandTests.served(cli.emulator, path: "/hosts/vm-1/metadata/identity/oauth2/token").count
                    >= 1)
            #expect(try await CLICommandTests.served(cli.emulator, path: "/hosts/app-1/msi/token").count >= 1)
        }
    }

    @Test("az login --use-device-code: the user enters the code at /devicelogin; a guest's tenants are listed too")
    func deviceCode() async throws {
        try await AzureCLI.with { cli in
            let login = try cli.start(["login", "--use-device-code", "--output", "json"])
            let code = try await login.waitForOutput { CLICommandTests.match(#"enter the code ([A-Z0-9]+)"#, in: $0) }
            try await CLICommandTests.withHTTP(trusting: cli.caFile) { http in
                try await DeviceLogin(base: cli.emulator.baseURL, http: http).signIn(
                    code: code, username: Self.megan.0, password: Self.megan.1)
            }
            let result = try await login.finish()
            #expect(result.status == 0, "\(result.stderr)")
            let accounts = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]] ?? []
            #expect(
                accounts.compactMap { $0["name"] as? String }
                    == ["Contoso Production", "Contoso Development", "Fabrikam Retail"])
            #expect((accounts.first?["user"] as? [String: String])?["name"] == Self.megan.0)
            let grants = try await CLICommandTests.grants(cli.emulator)
            #expect(grants.contains("urn:ietf:params:oauth:grant-type:device_code"), "\(grants)")
        }
    }

    @Test(
        "interactive az login in the scripted browser, az account list, get-access-token twice (from the cache), logout"
    )
    func interactive() async throws {
        try await AzureCLI.with { cli in
            let browser = try Self.backgroundBrowser(in: cli.root)
            let login = try await cli.run(
                ["login", "--output", "json"],
                [
                    "BROWSER": browser, "MSAL_CA_BUNDLE": cli.caFile, "EMULATOR_USERNAME": Self.megan.0,
                    "EMULATOR_PASSWORD": Self.megan.1,
                ])
            #expect(login.status == 0, "\(login.stderr)")
            #expect(login.stderr.contains("A web browser has been opened"), "\(login.stderr)")
            let authorize = try await CLICommandTests.served(cli.emulator, path: "/oauth2/v2.0/authorize")
            #expect(authorize.count == 1)

            let accounts = try await cli.json(["account", "list"]) as? [[String: Any]] ?? []
            #expect(
                accounts.compactMap { $0["id"] as? String }
                    == [IDs.subscription, IDs.developmentSubscription, IDs.fabrikamSubscription])
            #expect(accounts.first?["isDefault"] as? Bool == true)

            let first = try await cli.json(["account", "get-access-token"]) as? [String: Any]
            let before = try await cli.tokenRequests()
            let second = try await cli.json(["account", "get-access-token"]) as? [String: Any]
            #expect(try await cli.tokenRequests() == before, "the second token came from Azure CLI's cache")
            #expect(second?["accessToken"] as? String == first?["accessToken"] as? String)
            let claims = try Self.claims(second?["accessToken"] as? String)
            #expect(claims["aud"] as? String == "https://management.core.windows.net/")
            #expect(claims["appid"] as? String == IDs.azureCLI)
            #expect(claims["scp"] as? String == "user_impersonation")
            #expect(claims["upn"] as? String == Self.megan.0)

            let logout = try await cli.run(["logout"])
            #expect(logout.status == 0, "\(logout.stderr)")
            let after = try await cli.run(["account", "get-access-token"])
            #expect(after.status != 0)
            #expect(after.stderr.contains("az login"), "\(after.stderr)")
        }
    }

    /// A `$BROWSER` that returns at once, as a desktop browser does, leaving `emulator-browser` to sign in: Python's
    /// `webbrowser` waits for the command, and MSAL Python answers the browser's post only after it returns.
    static func backgroundBrowser(in folder: URL) throws -> String {
        let script = folder.appendingPathComponent("browser")
        try """
        #!/bin/sh
        "\(Binaries.url("emulator-browser").path)" "$@" >"\(folder.path)/browser.log" 2>&1 &
        """.write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        return script.path
    }

    /// The claims of a JWT.
    static func claims(_ token: String?) throws -> [String: Any] {
        let parts = try #require(token).split(separator: ".")
        try #require(parts.count == 3)
        var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
        let data = try #require(Data(base64Encoded: payload))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }
}
