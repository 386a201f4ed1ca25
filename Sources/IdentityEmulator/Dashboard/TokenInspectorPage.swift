import Foundation
import TokenGlossary
import WebText

/// The token inspector (`GET, POST /_emulator/ui/inspector`): a token pasted in is decoded, as jwt.ms does, into its
/// header and claims, each standard one named and explained (``ClaimGlossary``) and times shown as dates, with
/// whether its signature verifies against the emulator's published keys. A second form mints a token on demand
/// (``TokensOnDemand``) and inspects it.
struct TokenInspectorPage: Sendable {
    let frame: DashboardFrame
    let index: DirectoryIndex
    let keys: SigningKeyRing
    let now: Date

    func render(token: String? = nil, error: String? = nil, notice: String? = nil) -> String {
        let inspection =
            token.flatMap { $0.isEmpty ? nil : inspect($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? ""
        let apis = index.directory.applications.filter { $0.kind == .api }.map {
            ($0.identifierUri ?? $0.clientId, "\($0.displayName) (\($0.identifierUri ?? $0.clientId))")
        }
        let tenants = index.directory.tenants.map { ($0.id, "\($0.displayName) (\($0.domain))") }
        return frame.page(
            "Token inspector", section: .inspector,
            body: """
                <section><h2>Inspect a token</h2>
                <form method="post" action="/_emulator/ui/inspector">\(AntiForgeryToken.input(frame.token))
                <label for="token">Token (a JWT: an ID token or an access token)</label>
                <textarea id="token" name="token" rows="6" spellcheck="false">\(HTMLText.escape(token ?? ""))</textarea>
                <button type="submit" id="inspect">Inspect</button></form>
                </section>
                \(inspection)
                <section><h2>Mint a token</h2>
                <p>An access token signed with the emulator's keys, without a sign-in (<code>POST /_emulator/tokens</code>): as a user with scopes, or as an application with its granted roles.</p>
                \(frame.form(
                    action: "/_emulator/ui/inspector/mint",
                    content: DashboardFrame.select("tenant", label: "Tenant", options: tenants, id: "mint-tenant")
                        + DashboardFrame.select("api", label: "For the API", options: apis, id: "mint-api")
                        + DashboardFrame.field("user", label: "As the user (user principal name; leave empty for an app)", id: "mint-user")
                        + DashboardFrame.field("app", label: "Or as the application (client id)", id: "mint-app")
                        + DashboardFrame.field("scopes", label: "Scopes (space-separated, for a user)", id: "mint-scopes"),
                    button: "Mint and inspect", id: "mint"))
                </section>
                """, notice: notice, error: error)
    }

    /// The header, the claims and the signature check of `token`, or why it cannot be read.
    private func inspect(_ token: String) -> String {
        guard let (header, payload) = JWT.decode(token) else {
            return
                #"<section><h2>Result</h2><p class="error" id="inspection-error">This is not a JWT: expected three base64url parts (header.payload.signature) with a JSON header and a JSON object as payload.</p></section>"#
        }
        let verdict: String
        do {
            _ = try keys.verify(token)
            verdict =
                #"<p id="signature"><span class="ok">Signature verified</span> with the emulator's published key \#(DashboardFrame.code(header["kid"]?.stringValue ?? "")).</p>"#
        } catch {
            let why =
                JWT.keyID(token).flatMap { keys.key(kid: $0) } == nil
                ? "its kid names none of the emulator's published keys (\(keys.all.map(\.kid).joined(separator: ", ")))"
                : "the signature does not match the key its kid names"
            verdict =
                #"<p id="signature"><span class="bad">Signature not verified</span>: \#(HTMLText.escape(why)).</p>"#
        }
        var validity = ""
        if case .int(let expiry)? = payload["exp"] {
            let expires = Date(timeIntervalSince1970: TimeInterval(expiry))
            validity =
                expires > now
                ? #"<p id="validity">Valid until \#(DashboardFrame.date(expires)) UTC on the emulator's clock.</p>"#
                : #"<p id="validity"><span class="bad">Expired</span> at \#(DashboardFrame.date(expires)) UTC on the emulator's clock.</p>"#
        }
        return """
            <section><h2>Result</h2>
            \(verdict)\(validity)
            <h3>Header</h3>
            \(Self.table(header, glossary: ClaimGlossary.header, id: "header"))
            <h3>Claims</h3>
            \(Self.table(payload, glossary: ClaimGlossary.claims, id: "claims"))
            </section>
            """
    }

    private static func table(_ object: JSONValue, glossary: [String: String], id: String) -> String {
        guard case .object(let members) = object else { return "" }
        let rows = members.map { name, value in
            var shown = value.stringValue ?? value.serialized
            if ClaimGlossary.times.contains(name), case .int(let seconds) = value {
                shown += " (\(DashboardFrame.date(Date(timeIntervalSince1970: TimeInterval(seconds)))) UTC)"
            }
            return [
                DashboardFrame.code(name), DashboardFrame.code(shown),
                HTMLText.escape(glossary[name] ?? ClaimGlossary.unknown),
            ]
        }
        return DashboardFrame.table(["Claim", "Value", "Meaning"], rows, id: id)
    }
}
