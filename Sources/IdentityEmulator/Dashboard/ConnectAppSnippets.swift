/// The "connect your app" snippets of one application: how each Microsoft identity client is pointed at the emulator
/// with the app's client id, tenant, redirect URI and scopes filled in. Secrets are never written in: confidential
/// clients read theirs from `CLIENT_SECRET`.
struct ConnectAppSnippets: Sendable {
    let app: Application
    let tenant: Tenant
    /// The emulator's origin, `http://127.0.0.1:8400` or the `https` one with `--tls`.
    let origin: String
    /// The CA certificate file when the emulator serves TLS (else `nil`).
    let caFile: String?

    /// The authority: the emulator's origin and the app's tenant.
    var authority: String { "\(origin)/\(tenant.domain)" }

    /// The host and port, as MSAL.js and msal-node's `knownAuthorities` name it.
    var host: String {
        origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? origin
    }

    var redirectURI: String { app.redirectUris.first ?? "http://localhost" }

    /// The scope a user token is asked for: the first scope an administrator consented to, else Graph's `User.Read`.
    var userScope: String { app.adminConsentedScopes.first ?? "User.Read" }

    /// The scope an app-only token is asked for: `/.default` of the first API it was granted a role on, else Graph's.
    var appScope: String {
        let granted = app.grantedAppRoles.first.flatMap { role in role.lastIndex(of: "/").map { String(role[..<$0]) } }
        return (granted ?? "https://graph.microsoft.com") + "/.default"
    }

    var isConfidential: Bool { app.isConfidential }

    /// Every snippet: a title, the language (for the reader) and the text.
    var all: [(title: String, language: String, text: String)] {
        var snippets: [(String, String, String)] = [("MSAL Swift (this package, async API)", "swift", swift)]
        if !isConfidential {
            snippets.append(("MSAL Swift: MSALPublicClientApplicationConfig, as in the tutorials", "swift", tutorial))
            snippets.append(("MSAL for iOS and macOS: Info.plist and configuration", "xml + swift", iOS))
            snippets.append(("MSAL for Android: res/raw/msal_config.json", "json", android))
        }
        snippets += [
            ("MSAL Python", "python", python), ("azure-identity (Python)", "python", azureIdentity),
            ("MSAL.js (msal-browser) and msal-node", "javascript", javaScript), ("MSAL.NET", "csharp", dotNet),
            ("Azure CLI", "sh", azureCLI),
        ]
        return snippets
    }

    private var swiftTransport: String {
        guard let caFile else { return "" }
        return """

            configuration.transport = try DefaultHTTPTransport(
                trustedCAPEM: String(contentsOfFile: "\(caFile)", encoding: .utf8))
            """
    }

    var swift: String {
        if isConfidential {
            return """
                import Foundation
                import MSAL

                var configuration = ConfidentialClientApplicationConfiguration(
                    clientID: "\(app.clientId)",
                    credential: .secret(ProcessInfo.processInfo.environment["CLIENT_SECRET"] ?? ""),
                    authority: try Authority("\(authority)"))\(swiftTransport)
                let app = try ConfidentialClientApplication(configuration: configuration)
                let token = try await app.acquireTokenForClient(ClientCredentialParameters(scopes: ["\(appScope)"]))
                """
        }
        return """
            import MSAL

            var configuration = try PublicClientApplicationConfiguration(
                clientID: "\(app.clientId)",
                authority: Authority("\(authority)"),
                redirectURI: "\(redirectURI)")\(swiftTransport)
            let app = try PublicClientApplication(configuration: configuration)
            let signedIn = try await app.acquireTokenInteractively(InteractiveParameters(scopes: ["\(userScope)"]))
            let later = try await app.acquireTokenSilently(SilentParameters(scopes: ["\(userScope)"], account: signedIn.account))
            """
    }

    var tutorial: String {
        """
        let authority = try MSALAADAuthority(url: URL(string: "\(authority)")!)
        let configuration = MSALPublicClientApplicationConfig(
            clientId: "\(app.clientId)", redirectUri: nil, authority: authority)
        configuration.knownAuthorities = [authority]
        let application = try MSALPublicClientApplication(configuration: configuration)
        """
    }

    var iOS: String {
        """
        <!-- Info.plist: the app's redirect scheme and the broker's (register msauth.<bundle id>://auth on the app) -->
        <key>CFBundleURLTypes</key>
        <array><dict><key>CFBundleURLSchemes</key><array><string>msauth.$(PRODUCT_BUNDLE_IDENTIFIER)</string></array></dict></array>
        <key>LSApplicationQueriesSchemes</key>
        <array><string>msauthv2</string><string>msauthv3</string></array>

        // Swift: the emulator is no Microsoft cloud, so it is a known authority (iOS needs it over https: run with --tls
        // and install the CA's profile on the simulator or device).
        let authority = try MSALAADAuthority(url: URL(string: "\(authority)")!)
        let configuration = MSALPublicClientApplicationConfig(
            clientId: "\(app.clientId)", redirectUri: nil, authority: authority)
        configuration.knownAuthorities = [authority]
        let application = try MSALPublicClientApplication(configuration: configuration)
        """
    }

    var android: String {
        """
        {
          "client_id": "\(app.clientId)",
          "authorization_user_agent": "DEFAULT",
          "redirect_uri": "msauth://<your package>/<your signature hash>",
          "account_mode": "MULTIPLE",
          "authorities": [
            { "type": "AAD", "authority_url": "\(authority)", "default": true }
          ]
        }
        """
    }

    var python: String {
        let verify = caFile.map { #", verify="\#($0)""# } ?? ""
        if isConfidential {
            return """
                import os, msal

                app = msal.ConfidentialClientApplication(
                    "\(app.clientId)", client_credential=os.environ["CLIENT_SECRET"],
                    authority="\(authority)", instance_discovery=False\(verify))
                result = app.acquire_token_for_client(scopes=["\(appScope)"])
                """
        }
        return """
            import msal

            app = msal.PublicClientApplication(
                "\(app.clientId)", authority="\(authority)", instance_discovery=False\(verify))
            result = app.acquire_token_interactive(scopes=["\(userScope)"])
            """
    }

    var azureIdentity: String {
        let environment = caFile.map { "# export REQUESTS_CA_BUNDLE=\($0)\n" } ?? ""
        if isConfidential {
            return """
                \(environment)import os
                from azure.identity import ClientSecretCredential

                credential = ClientSecretCredential(
                    "\(tenant.id)", "\(app.clientId)", os.environ["CLIENT_SECRET"],
                    authority="\(origin)", disable_instance_discovery=True)
                token = credential.get_token("\(appScope)")
                """
        }
        return """
            \(environment)from azure.identity import InteractiveBrowserCredential

            credential = InteractiveBrowserCredential(
                client_id="\(app.clientId)", tenant_id="\(tenant.id)", redirect_uri="\(redirectURI)",
                authority="\(origin)", disable_instance_discovery=True)
            token = credential.get_token("\(userScope)")
            """
    }

    var javaScript: String {
        let environment = caFile.map { "// NODE_EXTRA_CA_CERTS=\($0) node app.js\n" } ?? ""
        if isConfidential {
            return """
                \(environment)const msal = require("@azure/msal-node");

                const app = new msal.ConfidentialClientApplication({
                  auth: {
                    clientId: "\(app.clientId)",
                    clientSecret: process.env.CLIENT_SECRET,
                    authority: "\(authority)",
                    knownAuthorities: ["\(host)"],
                  },
                });
                const result = await app.acquireTokenByClientCredential({ scopes: ["\(appScope)"] });
                """
        }
        return """
            \(environment)// msal-browser: new PublicClientApplication({ auth: { …the same…, redirectUri: "\(redirectURI)" } })
            const msal = require("@azure/msal-node");

            const app = new msal.PublicClientApplication({
              auth: {
                clientId: "\(app.clientId)",
                authority: "\(authority)",
                knownAuthorities: ["\(host)"],
              },
            });
            const result = await app.acquireTokenInteractive({
              scopes: ["\(userScope)"],
              openBrowser: async (url) => (await import("open")).default(url),
            });
            """
    }

    var dotNet: String {
        if isConfidential {
            return """
                // MSAL.NET needs https: run the emulator with --tls and trust its CA (identity-emulator trust).
                var app = ConfidentialClientApplicationBuilder.Create("\(app.clientId)")
                    .WithClientSecret(Environment.GetEnvironmentVariable("CLIENT_SECRET"))
                    .WithAuthority("\(authority)", validateAuthority: false)
                    .WithInstanceDiscovery(false)
                    .Build();
                var result = await app.AcquireTokenForClient(new[] { "\(appScope)" }).ExecuteAsync();
                """
        }
        return """
            // MSAL.NET needs https: run the emulator with --tls and trust its CA (identity-emulator trust).
            var app = PublicClientApplicationBuilder.Create("\(app.clientId)")
                .WithAuthority("\(authority)", validateAuthority: false)
                .WithInstanceDiscovery(false)
                .WithRedirectUri("\(redirectURI)")
                .Build();
            var result = await app.AcquireTokenInteractive(new[] { "\(userScope)" }).ExecuteAsync();
            """
    }

    var azureCLI: String {
        let environment = caFile.map { "export REQUESTS_CA_BUNDLE=\($0)\n" } ?? ""
        let login =
            isConfidential
            ? """
            az login --service-principal -u \(app.clientId) -p "$CLIENT_SECRET" --tenant \(tenant.id) \\
              --allow-no-subscriptions
            """
            : """
            # Users sign in with Azure CLI's own client id (04b07795-8ddb-461a-bbee-02f9e1bf7b46), not this app's.
            az login --use-device-code --tenant \(tenant.id) --allow-no-subscriptions
            """
        return """
            # Over --tls: Azure CLI reads the cloud's endpoints from the emulator's Resource Manager.
            \(environment)az cloud register --name Emulator --endpoint-resource-manager \(origin)
            az cloud set --name Emulator
            az config set core.instance_discovery=false
            \(login)
            """
    }
}
