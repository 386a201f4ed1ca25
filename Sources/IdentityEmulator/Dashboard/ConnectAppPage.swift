import WebText

/// One application's "connect your app" page (`GET /_emulator/ui/apps/{client id}`): its registration and the
/// snippets of ``ConnectAppSnippets``.
struct ConnectAppPage: Sendable {
    let frame: DashboardFrame
    let snippets: ConnectAppSnippets

    func render() -> String {
        let app = snippets.app
        let blocks = snippets.all.enumerated().map { number, snippet in
            """
            <section><h2 id="snippet-\(number)">\(HTMLText.escape(snippet.title))</h2>
            <pre aria-labelledby="snippet-\(number)"><code>\(HTMLText.escape(snippet.text))</code></pre></section>
            """
        }.joined(separator: "\n")
        let secretNote =
            app.secret == nil
            ? ""
            : "<dt>Secret</dt><dd>\(HTMLText.escape(SecretMasking.mask(app.secret ?? ""))) (in the directory file: <code>GET /_emulator/export</code>; the snippets read it from <code>CLIENT_SECRET</code>)</dd>"
        return frame.page(
            "Connect your app: \(app.displayName)", section: .applications,
            body: """
                <section><h2>Registration</h2><dl>
                <dt>Client id</dt><dd>\(DashboardFrame.code(app.clientId))</dd>
                <dt>Kind</dt><dd>\(OverviewPage.kind(app.kind))</dd>
                <dt>Tenant</dt><dd>\(HTMLText.escape(snippets.tenant.displayName)) \(DashboardFrame.code(snippets.tenant.id))</dd>
                <dt>Authority</dt><dd>\(DashboardFrame.code(snippets.authority))</dd>
                <dt>Redirect URIs</dt><dd>\(app.redirectUris.map(DashboardFrame.code).joined(separator: " ")) </dd>
                \(secretNote)
                </dl></section>
                \(blocks)
                """)
    }
}
