import Foundation
import WebText

/// The dashboard's home (`GET /_emulator/`): where the emulator is served and how to trust its CA, the tenants, and
/// the applications with their client ids, redirect URIs, secrets (masked), app roles and API scopes, each linking
/// to its "connect your app" page.
struct OverviewPage: Sendable {
    let frame: DashboardFrame
    let index: DirectoryIndex
    let origin: String
    /// The CA certificate file when the emulator serves TLS.
    let caFile: String?
    let secure: Bool

    func render(notice: String?) -> String {
        let directory = index.directory
        let tenants = directory.tenants.map { tenant in
            [
                HTMLText.escape(tenant.displayName), DashboardFrame.code(tenant.id), DashboardFrame.code(tenant.domain),
                tenant.kind == .external ? "External ID" : "Workforce",
                DashboardFrame.code("\(origin)/\(tenant.domain)/v2.0"),
            ]
        }
        let apps = directory.applications.map { app in
            [
                #"<a href="/_emulator/ui/apps/\#(DashboardFrame.segment(app.clientId))">\#(HTMLText.escape(app.displayName))</a>"#,
                DashboardFrame.code(app.clientId), Self.kind(app.kind),
                HTMLText.escape(index.tenant(id: app.tenant)?.displayName ?? app.tenant),
                app.redirectUris.map(DashboardFrame.code).joined(separator: "<br>"),
                app.secret.map { HTMLText.escape(SecretMasking.mask($0)) } ?? "",
                app.appRoles.map(DashboardFrame.code).joined(separator: "<br>"),
                (app.identifierUri.map { [DashboardFrame.code($0)] } ?? []).joined()
                    + (app.scopes.isEmpty ? "" : "<br>" + app.scopes.map(DashboardFrame.code).joined(separator: " ")),
            ]
        }
        return frame.page(
            "Tenants and applications", section: .applications,
            body: """
                <section><h2>This emulator</h2>
                <dl><dt>Origin and issuer</dt><dd>\(DashboardFrame.code(origin))</dd>
                <dt>Discovery</dt><dd>\(DashboardFrame.code("\(origin)/{tenant}/v2.0/.well-known/openid-configuration"))</dd>
                <dt>Transport</dt><dd>\(secure ? "HTTPS, with a certificate from its local CA" : "plain HTTP (start it with --tls for HTTPS)")</dd>
                </dl>
                \(trust)
                </section>
                <section><h2>Tenants</h2>
                \(DashboardFrame.table(["Name", "Tenant id", "Domain", "Kind", "Issuer"], tenants, id: "tenants"))
                </section>
                <section><h2>Applications</h2>
                <p>Each application's page shows how to connect an app to it with MSAL Swift, MSAL for iOS and Android, MSAL Python, azure-identity, MSAL.js and msal-node, MSAL.NET and Azure CLI.</p>
                \(DashboardFrame.table(
                    ["Application", "Client id", "Kind", "Tenant", "Redirect URIs", "Secret", "App roles", "API and scopes"],
                    apps, id: "applications"))
                </section>
                """, notice: notice)
    }

    /// How to trust the CA, when the emulator serves TLS.
    private var trust: String {
        guard secure else { return "" }
        let file = caFile.map { "<p>The CA certificate: \(DashboardFrame.code($0)).</p>" } ?? ""
        let instructions =
            caFile.map { file in
                "<pre id=\"trust-instructions\">"
                    + HTMLText.escape(CATrust(caFile: URL(fileURLWithPath: file)).instructions.joined(separator: "\n"))
                    + "</pre>"
            } ?? ""
        return """
            <h3>Trusting its CA</h3>
            \(file)\(instructions)<p id="trust">Run <code>identity-emulator trust</code> for how to trust it in curl, Python, Node, Go, Java, .NET and Swift, and <code>identity-emulator trust --install</code> to add it to the system's store. The CA is kept in a folder of your own, so trust given once survives restarts.</p>
            """
    }

    static func kind(_ kind: Application.Kind) -> String {
        switch kind {
        case .publicClient: "Public client"
        case .confidentialClient: "Confidential client"
        case .api: "API"
        }
    }
}
