import WebText

extension SignInPages {
    /// Where a `domain_hint` sends the browser when the domain is not one whose users sign in here: a federated
    /// domain's identity provider (`destination`), or nowhere known. A page without script: the link goes to the
    /// provider, the buttons sign in here instead or cancel.
    static func homeRealm(
        action: String, flow: String, appName: String, domain: String, organization: String?, destination: String?
    ) -> String {
        let destinationText =
            if let destination, let organization {
                """
                <p id="home-realm">\(HTMLText.escape(domain)) belongs to <b>\(HTMLText.escape(organization))</b>, \
                whose users sign in at their organisation's own sign-in page. You would be sent to \
                <a id="destination" href="\(HTMLText.escape(destination))">\(HTMLText.escape(destination))</a>.</p>
                """
            } else {
                """
                <p id="home-realm">No organisation signs in with \(HTMLText.escape(domain)). You would be sent to \
                the Microsoft sign-in page.</p>
                """
            }
        return HTML.page(
            title: "Taking you to your organization's sign-in page",
            body: """
                <h1>Taking you to your organization's sign-in page</h1>
                <p>to continue to <b>\(HTMLText.escape(appName))</b></p>
                \(destinationText)
                <form method="post" action="\(HTMLText.escape(action))">
                \(HTML.hidden("flow", flow))
                <button type="submit" name="action" value="other" id="other">Sign in with another account</button>
                <button type="submit" name="action" value="cancel" id="cancel">Cancel</button>
                </form>
                """)
    }
}
